/**
 * A folder of photos (JPEG, HEIC, PNG, TIFF, WebP with EXIF: a camera's card, an Apple
 * Photos or Google Takeout export). Each image is copied to `content/media/photos/<year>/`
 * and gets a photos record, matched by its `src`: `takenAt` from `DateTimeOriginal` with
 * `OffsetTimeOriginal` (exifr, values not revived, so the offset is joined here), else in
 * the zone of the photo's GPS position, else as the local time it is (no zone guessed);
 * coordinates from GPS (`coordinatesSource: exif`); camera and lens; width and height as
 * displayed (sharp). No alt text is ever made up: every imported photo is written
 * `visibility: private` without `alt`, so the site builds and shows none of them until
 * the owner writes the alt text and removes the `visibility` line; the report lists them.
 */
import exifr from 'exifr';
import sharp from 'sharp';
import tzLookup from '@photostructure/tz-lookup';
import { readEntry } from '../archive.ts';
import { ImportRefused } from '../problems.ts';
import { yearPart, type Candidate, type ImportSource, type ReadContext } from '../source.ts';
import { isoInZone } from '../track.ts';
import { wallUtc } from '../../core/zone.ts';

const IMAGE = /\.(jpe?g|heic|heif|png|tiff?|webp|avif)$/i;

interface Exif {
  DateTimeOriginal?: string;
  OffsetTimeOriginal?: string;
  CreateDate?: string;
  OffsetTime?: string;
  Make?: string;
  Model?: string;
  LensModel?: string;
  GPSLatitude?: number[];
  GPSLatitudeRef?: string;
  GPSLongitude?: number[];
  GPSLongitudeRef?: string;
}

const dms = (v: number[] | undefined, ref: string | undefined, negative: string) => {
  if (!Array.isArray(v) || v.length === 0) return undefined;
  const deg = (v[0] ?? 0) + (v[1] ?? 0) / 60 + (v[2] ?? 0) / 3600;
  return Math.round((ref?.toUpperCase() === negative ? -deg : deg) * 1e6) / 1e6;
};

/** `2024:06:15 20:45:10` and its offset (or the zone at the position) as an ISO date-time. */
function takenAt(local: string | undefined, offset: string | undefined, position: { latitude: number; longitude: number } | undefined): string | undefined {
  const m = /^(\d{4}):(\d{2}):(\d{2}) (\d{2}):(\d{2}):(\d{2})/.exec(local ?? '');
  if (!m) return undefined;
  const wall = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}`;
  if (offset && /^[+-]\d{2}:\d{2}$/.test(offset)) return wall + offset;
  if (!position) return wall;
  let zone: string;
  try {
    zone = tzLookup(position.latitude, position.longitude);
  } catch {
    return wall;
  }
  // The wall time read in the zone: try the offset at the wall time taken as UTC, then correct once.
  const asUtc = wallUtc({ year: +m[1]!, month: +m[2]!, day: +m[3]!, hour: +m[4]!, minute: +m[5]!, second: +m[6]! });
  const guess = isoInZone(asUtc, zone).slice(19);
  const sign = guess[0] === '-' ? -1 : 1;
  const shift = sign * (Number(guess.slice(1, 3)) * 60 + Number(guess.slice(4, 6))) * 60_000;
  return isoInZone(asUtc - shift, zone);
}

const camera = (make: string | undefined, model: string | undefined) => {
  if (!model) return make?.trim() || undefined;
  return make && !model.toLowerCase().startsWith(make.toLowerCase().split(' ')[0]!) ? `${make.trim()} ${model.trim()}` : model.trim();
};

async function* read(context: ReadContext): AsyncGenerator<Candidate> {
  const images = context.input.entries.filter((e) => IMAGE.test(e.name));
  if (!images.length) throw new ImportRefused(`${context.input.shown} holds no image files (JPEG, HEIC, PNG, TIFF, WebP, AVIF).`);
  const needAlt: string[] = [];
  for (const entry of images) {
    const bytes = await readEntry(entry);
    let exif: Exif = {};
    try {
      exif = ((await exifr.parse(bytes, { reviveValues: false, gps: true, exif: true, xmp: false, icc: false, iptc: false })) ?? {}) as Exif;
    } catch {
      exif = {};
    }
    let size: { width?: number; height?: number } = {};
    try {
      const meta = await sharp(bytes).metadata();
      size = (meta as { autoOrient?: { width: number; height: number } }).autoOrient ?? meta;
    } catch {
      context.problem({ origin: entry.name, field: '(file)', reason: 'not an image sharp can read' });
      continue;
    }
    const latitude = dms(exif.GPSLatitude, exif.GPSLatitudeRef, 'S');
    const longitude = dms(exif.GPSLongitude, exif.GPSLongitudeRef, 'W');
    const position = latitude !== undefined && longitude !== undefined && !(latitude === 0 && longitude === 0) ? { latitude, longitude } : undefined;
    const taken = takenAt(exif.DateTimeOriginal ?? exif.CreateDate, exif.OffsetTimeOriginal ?? exif.OffsetTime, position);
    const name = entry.name.split('/').pop()!;
    const src = `/photos/${yearPart(taken)}/${name}`;
    needAlt.push(src);
    yield {
      origin: entry.name,
      fields: {
        title: name.replace(IMAGE, ''),
        src,
        takenAt: taken,
        width: size.width,
        height: size.height,
        camera: camera(exif.Make, exif.Model),
        lens: exif.LensModel?.trim() || undefined,
        ...(position ? { coordinates: position, coordinatesSource: 'exif' } : {}),
        visibility: 'private',
      },
      attachments: [{ path: `media${src}`, bytes }],
    };
  }
  if (needAlt.length)
    context.notice(
      `${needAlt.length} photo(s) are private until you describe them: give each an alt text (alt: …) and remove its visibility: private line: ${needAlt.join(', ')}`,
    );
}

export const photos: ImportSource = {
  name: 'photos',
  collection: 'photos',
  sourceIdOf: (r) => (typeof r.src === 'string' ? r.src : undefined),
  fileOf: (r) => `photos-${yearPart(r.takenAt)}.yaml`,
  sortKeyOf: (r) => `${String(r.takenAt ?? '')}\u0000${String(r.src ?? '')}`,
  dateOf: (r) => (typeof r.takenAt === 'string' ? r.takenAt : undefined),
  read,
};
