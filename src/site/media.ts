/**
 * The images records carry (a photo's `src`, a concert's `flyer`) as pages show them: an
 * `<img>` of sized WebP variants (src/compile/content/media.ts writes them) with the record's own
 * alt text, or nothing when the build found no file for it. A remote image is never
 * drawn — no request of a page may leave the site — its URL stays a link among the fields.
 */
import type { MediaFile } from '../core/image.ts';
import { MEDIA_FOLDER } from '../paths.ts';
import { mediaVariantUrl } from '../urls.ts';

export type { MediaFile };

/** Every published image file, by its public path (`/photos/2024/x.jpg`). */
export type MediaIndex = Record<string, MediaFile>;

/** The widths, in CSS pixels × density, of the WebP variants: a list thumbnail, a phone, a desktop page at 2×. */
export const MEDIA_WIDTHS = [400, 800, 1200] as const;

/** The variant widths an original can fill, never enlarged: the standard widths below its own, then its own (up to the largest). */
export function variantWidths(file: Pick<MediaFile, 'width'>): number[] {
  const largest = MEDIA_WIDTHS.at(-1)!;
  return [...MEDIA_WIDTHS.filter((w) => w < Math.min(file.width, largest)), Math.min(file.width, largest)];
}

/** The image a record carries: where, with what text, from which field; `local` when the site publishes the file. */
export interface RecordImage {
  src: string;
  alt: string;
  field: string;
  local: boolean;
}

/** Per collection, which field is its image and what describes it. A photo's alt is required by its schema. */
const IMAGE_FIELDS: Record<string, (r: Record<string, unknown>) => { field: string; alt: string } | undefined> = {
  photos: (r) => ({ field: 'src', alt: String(r.alt) }),
  concerts: (r) => ({ field: 'flyer', alt: `Flyer for ${String(r.artist)}${typeof r.venue === 'string' ? ` at ${r.venue}` : ''}` }),
};

export function imageOf(collection: string, r: Record<string, unknown>): RecordImage | undefined {
  const which = IMAGE_FIELDS[collection]?.(r);
  const src = which === undefined ? undefined : r[which.field];
  if (which === undefined || typeof src !== 'string') return undefined;
  return { src, alt: which.alt, field: which.field, local: src.startsWith('/') };
}

/** What an `<img>` needs: the largest variant as `src`, every variant in `srcset`, the size for layout before it loads. */
export interface PictureView {
  src: string;
  srcset: string;
  width: number;
  height: number;
  alt: string;
}

/** Finds a published image's file by its path; the image (src/core/image.ts) answers it from its build. */
export type MediaLookup = (path: string) => MediaFile | undefined;

/** The picture of a record, when it carries a site image the build published. */
export function pictureOf(collection: string, r: Record<string, unknown>, lookup: MediaLookup): PictureView | undefined {
  const image = imageOf(collection, r);
  const file = image?.local ? lookup(image.src) : undefined;
  if (image === undefined || file === undefined) return undefined;
  const widths = variantWidths(file);
  const largest = widths.at(-1)!;
  return {
    src: mediaVariantUrl(image.src, file.hash, largest),
    srcset: widths.map((w) => `${mediaVariantUrl(image.src, file.hash, w)} ${w}w`).join(', '),
    width: largest,
    height: Math.round((largest * file.height) / file.width),
    alt: image.alt,
  };
}

/** How many records without their image file a build names one by one; a generated site of 100,000 records should not print 30,000 lines. */
const MISSING_NAMED = 10;

/**
 * Counts, collection by collection as the compile streams them, the records that name a
 * site image no file of `content/media/` holds; `warnings` names the first few by origin,
 * then says how many more.
 */
export class MissingMedia {
  private readonly media: MediaIndex;
  private readonly named: string[] = [];
  private count = 0;

  constructor(media: MediaIndex) {
    this.media = media;
  }

  check({ collection, records }: { collection: { name: string }; records: readonly { origin: string; fields: Record<string, unknown> }[] }): void {
    for (const record of records) {
      const image = imageOf(collection.name, record.fields);
      if (!image?.local || this.media[image.src] !== undefined) continue;
      if (++this.count <= MISSING_NAMED) this.named.push(`${record.origin}: ${image.field}: no file ${MEDIA_FOLDER}${image.src}; the page shows no image`);
    }
  }

  get warnings(): string[] {
    const more = this.count - this.named.length;
    return more > 0 ? [...this.named, `…and ${more} more records whose image file is not in ${MEDIA_FOLDER}/`] : [...this.named];
  }
}
