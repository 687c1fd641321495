/**
 * Strava (Settings → My Account → Download or Delete Your Account → Request your
 * archive): a ZIP of `activities.csv` and `activities/*.gpx|.tcx.gz|.fit.gz`. One activity
 * per row, matched by `stravaId`. The CSV's headers are read in English or German, and
 * its repeated columns by occurrence: the second `Distance` (metres) and `Elapsed Time`
 * (seconds) are the SI ones. The start comes from the track (its first point's time, in
 * the zone of its first position); an activity without a track keeps the CSV's date,
 * which is UTC. Coordinates are the first track point outside the privacy radius of both
 * ends. Sport types are mapped onto the collection's twelve (others become Workout, and
 * the report says which). Never kept: `Activity Private Note`, media, the device's
 * other figures (power, cadence, calories, weather). A re-import reads a track again only
 * when its record may change (`unchanged` below).
 */
import { SPORT_TYPES } from '../../collections/activities.ts';
import { readEntry, type ExportEntry } from '../archive.ts';
import { readCsv, type Columns, type CsvRow } from '../csv.ts';
import { ImportRefused } from '../problems.ts';
import { yearPart, type Candidate, type ImportSource, type Mapped, type ReadContext } from '../source.ts';
import { isoInZone, summarize, TrackError, type TrackSummary } from '../track.ts';
import { readTrackFile } from './track-files.ts';

/**
 * The German names are those of German exports' headers as users quoted them whole
 * (martin-ueding/geo-activity-playground issues 112, 191, 348 and 393, 2024–2025), where
 * they stand in the English header's order, which pairs each with its English name.
 */
type Key =
  | 'id'
  | 'date'
  | 'name'
  | 'type'
  | 'description'
  | 'elapsed'
  | 'elapsedDisplay'
  | 'distance'
  | 'moving'
  | 'elevationGain'
  | 'heartRate'
  | 'gear'
  | 'filename'
  | 'privateNote';

const COLUMNS: Columns<Key> = {
  id: { names: ['Activity ID', 'Aktivitäts-ID'], required: true },
  date: { names: ['Activity Date', 'Aktivitätsdatum'], required: true },
  name: { names: ['Activity Name', 'Name der Aktivität'], required: true },
  type: { names: ['Activity Type', 'Aktivitätsart'], required: true },
  description: { names: ['Activity Description', 'Aktivitätsbeschreibung'] },
  elapsedDisplay: { names: ['Elapsed Time', 'Verstrichene Zeit'], required: true },
  elapsed: { names: ['Elapsed Time', 'Verstrichene Zeit'], occurrence: 1 },
  distance: { names: ['Distance', 'Distanz'], occurrence: 1, required: true },
  moving: { names: ['Moving Time', 'Bewegungszeit'] },
  elevationGain: { names: ['Elevation Gain', 'Höhenzunahme'] },
  heartRate: { names: ['Average Heart Rate', 'Durchschnittliche Herzfrequenz'] },
  gear: { names: ['Activity Gear', 'Aktivitätsausrüstung'] },
  filename: { names: ['Filename', 'Dateiname'] },
  privateNote: { names: ['Activity Private Note', 'Hinweis zur Privatsphäre für Aktivitäten'] },
};

type Sport = (typeof SPORT_TYPES)[number];

/**
 * Strava's activity types (English and German display names, folded) onto the twelve
 * sport types. The German names are assumed, not seen in an export; an unknown one
 * becomes Workout and is listed.
 */
const SPORTS: Record<string, Sport> = {
  run: 'Run',
  lauf: 'Run',
  virtualrun: 'Run',
  virtuellerlauf: 'Run',
  trailrun: 'TrailRun',
  traillauf: 'TrailRun',
  ride: 'Ride',
  radfahrt: 'Ride',
  virtualride: 'Ride',
  virtuelleradfahrt: 'Ride',
  ebikeride: 'Ride',
  ebikefahrt: 'Ride',
  velomobile: 'Ride',
  handcycle: 'Ride',
  gravelride: 'GravelRide',
  gravelfahrt: 'GravelRide',
  mountainbikeride: 'MountainBikeRide',
  mountainbikefahrt: 'MountainBikeRide',
  emountainbikeride: 'MountainBikeRide',
  emountainbikefahrt: 'MountainBikeRide',
  swim: 'Swim',
  schwimmen: 'Swim',
  hike: 'Hike',
  wanderung: 'Hike',
  walk: 'Walk',
  spaziergang: 'Walk',
  rowing: 'Rowing',
  rudern: 'Rowing',
  virtualrow: 'Rowing',
  nordicski: 'NordicSki',
  langlauf: 'NordicSki',
  backcountryski: 'NordicSki',
  skitour: 'NordicSki',
  alpineski: 'AlpineSki',
  ski: 'AlpineSki',
  alpinski: 'AlpineSki',
  snowboard: 'AlpineSki',
  // Device names (GPX <type>, TCX Sport, FIT sport), for the gpx source.
  running: 'Run',
  trailrunning: 'TrailRun',
  cycling: 'Ride',
  biking: 'Ride',
  roadbiking: 'Ride',
  gravelcycling: 'GravelRide',
  mountainbiking: 'MountainBikeRide',
  swimming: 'Swim',
  openwaterswimming: 'Swim',
  hiking: 'Hike',
  walking: 'Walk',
  crosscountryskiing: 'NordicSki',
  alpineskiing: 'AlpineSki',
  workout: 'Workout',
  training: 'Workout',
  weighttraining: 'Workout',
  krafttraining: 'Workout',
  yoga: 'Workout',
  crossfit: 'Workout',
};

/** A sport as the export or a track file names it, on the collection's scale; undefined when unknown. */
export function sportOf(name: string | undefined): Sport | undefined {
  return name ? SPORTS[name.toLowerCase().replace(/[^a-zäöüß]/g, '')] : undefined;
}

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  mär: 3,
  märz: 3,
  apr: 4,
  may: 5,
  mai: 5,
  jun: 6,
  juni: 6,
  jul: 7,
  juli: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  okt: 10,
  nov: 11,
  dec: 12,
  dez: 12,
};

/**
 * The CSV's `Activity Date` (UTC) as milliseconds: `Sep 12, 2018, 3:02:23 PM` (the
 * English export, hugovk/strava-tools#2), `12.09.2018, 15:02:23` or `12. Sept. 2018,
 * 15:02:23` (German forms assumed: no German row is quoted in the sources, only headers).
 */
export function parseActivityDate(text: string): number | undefined {
  const time = /(\d{1,2}):(\d{2}):(\d{2})(?:\s*([AP]M))?\s*$/i.exec(text);
  if (!time) return undefined;
  let hour = Number(time[1]) % (time[4] ? 12 : 24);
  if (time[4]?.toUpperCase() === 'PM') hour += 12;
  const head = text.slice(0, time.index);
  let year: number, month: number | undefined, day: number;
  let m = /^([A-Za-zäÄ]+)\.? (\d{1,2}), (\d{4})/.exec(head);
  if (m) [month, day, year] = [MONTHS[m[1]!.toLowerCase()], Number(m[2]), Number(m[3])];
  else if ((m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})/.exec(head))) [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  else if ((m = /^(\d{1,2})\. ?([A-Za-zäÄ]+)\.? (\d{4})/.exec(head))) [day, month, year] = [Number(m[1]), MONTHS[m[2]!.toLowerCase()], Number(m[3])];
  else return undefined;
  if (month === undefined) return undefined;
  return Date.UTC(year, month - 1, day, hour, Number(time[2]), Number(time[3]));
}

/** A number as the CSV writes it (`12520.0`, or `12520,0` in German exports). */
function num(cell: string | undefined): number | string | undefined {
  if (cell === undefined) return undefined;
  const s = /^-?\d+,\d+$/.test(cell) ? cell.replace(',', '.') : cell;
  return /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : cell;
}
const round1 = (v: number | string | undefined) => (typeof v === 'number' ? Math.round(v * 10) / 10 : v);
const int = (v: number | string | undefined) => (typeof v === 'number' ? Math.round(v) : v);

type Row = CsvRow<Key>;

/**
 * One activity as Strava gives it (a row of the export's activities.csv, or a
 * SummaryActivity of the API, src/sync/sources/strava.ts), its figures in SI units, with
 * the summary of its track (the export's file, the API's polyline) when it has one.
 */
export interface ActivityRaw {
  id: string | undefined;
  name: string | undefined;
  sportType: Sport;
  distance?: number | string | undefined;
  moving?: number | string | undefined;
  elapsed?: number | string | undefined;
  elevationGain?: number | string | undefined;
  heartRate?: number | string | undefined;
  gear?: string | undefined;
  description?: string | undefined;
  /** The start instant (milliseconds), used when no track gives the start: in `zone`, else UTC. */
  start?: number | undefined;
  zone?: string | undefined;
  summary?: TrackSummary | undefined;
}

/** The one mapping of a Strava activity onto an activities record, for the export and the API. */
export function mapActivity(a: ActivityRaw): Mapped {
  const startDate = a.summary?.startDate ?? (a.start !== undefined ? isoInZone(a.start, a.zone) : undefined);
  if (startDate === undefined) return { problem: { field: 'start', reason: 'the activity has no start time' } };
  return {
    fields: {
      title: a.name,
      sportType: a.sportType,
      startDate,
      distanceMeters: round1(a.distance) ?? a.summary?.distanceMeters,
      movingTimeSeconds: int(a.moving) ?? a.summary?.movingTimeSeconds ?? int(a.elapsed),
      elapsedTimeSeconds: int(a.elapsed) ?? a.summary?.elapsedTimeSeconds,
      elevationGainMeters: round1(a.elevationGain) ?? a.summary?.elevationGainMeters,
      averageHeartRate: round1(a.heartRate),
      gear: a.gear,
      stravaId: a.id,
      ...(a.summary?.coordinates ? { coordinates: a.summary.coordinates, coordinatesSource: 'gps' } : {}),
      notes: a.description,
    },
  };
}

/** An activity record from its CSV row and, when it has one, its track's summary. */
function fieldsOf(row: Row, sportType: Sport, summary: TrackSummary | undefined, csvStart: number | undefined): Record<string, unknown> {
  const mapped = mapActivity({
    id: row.get('id'),
    name: row.get('name'),
    sportType,
    distance: num(row.get('distance')),
    moving: num(row.get('moving')),
    elapsed: num(row.get('elapsed') ?? row.get('elapsedDisplay')),
    elevationGain: num(row.get('elevationGain')),
    heartRate: num(row.get('heartRate')),
    gear: row.get('gear'),
    description: row.get('description'),
    start: csvStart,
    summary,
  });
  // The reader has checked that a row without a track has a date, so the mapping always gives a record here.
  return 'fields' in mapped ? mapped.fields : {};
}

/**
 * A re-import reads a track only when its record may change. The record is built without
 * its track, and kept, when all of these hold (else the track is read as on a first import):
 *
 * 1. the owner's files hold the record this importer last wrote for the Strava ID, not
 *    edited since, imported with this privacy radius (`ReadContext.previous`);
 * 2. the row gives every figure itself (distance, elapsed and moving time, elevation
 *    gain), so none would come from the track;
 * 3. the record's start is the row's `Activity Date` (the same instant): the track gave
 *    the start's zone, the row confirms its time;
 * 4. the row with the record's start and coordinates gives that record byte for byte.
 *
 * What the track alone decides — the zone of the start, the coordinates — is then taken
 * from the record. A track file replaced in a later export with a row that still agrees
 * in every figure would go unnoticed; Strava keeps the file an activity was uploaded with.
 */
function unchanged(context: ReadContext, row: Row, sportType: Sport, csvStart: number | undefined): Record<string, unknown> | undefined {
  const id = row.get('id');
  if (id === undefined || csvStart === undefined || !context.previous) return undefined;
  if (row.get('distance') === undefined || row.get('moving') === undefined || row.get('elevationGain') === undefined) return undefined;
  if ((row.get('elapsed') ?? row.get('elapsedDisplay')) === undefined) return undefined;
  const previous = context.previous(id);
  const start = previous?.fields.startDate;
  if (!previous || typeof start !== 'string' || Date.parse(start) !== csvStart) return undefined;
  const coordinates = previous.fields.coordinatesSource === 'gps' ? (previous.fields.coordinates as TrackSummary['coordinates']) : undefined;
  const fields = fieldsOf(row, sportType, { startDate: start, distanceMeters: 0, ...(coordinates ? { coordinates } : {}) }, csvStart);
  return previous.sameAs(fields) ? fields : undefined;
}

async function* read(context: ReadContext): AsyncGenerator<Candidate> {
  const csv = context.input.entries.find((e) => e.name === 'activities.csv' || e.name.endsWith('/activities.csv'));
  if (!csv) throw new ImportRefused(`${context.input.shown} is not a Strava export: it has no activities.csv.`);
  const root = csv.name.slice(0, csv.name.length - 'activities.csv'.length);
  const byName = new Map<string, ExportEntry>(context.input.entries.map((e) => [e.name, e]));
  const unmapped = new Set<string>();
  for await (const row of readCsv(csv, 'a Strava activities.csv', COLUMNS)) {
    const origin = `${csv.name} row ${row.row}`;
    if (row.get('privateNote') !== undefined) context.dropped('private notes');
    const typeName = row.get('type');
    let sportType = sportOf(typeName);
    if (!sportType) {
      sportType = 'Workout';
      if (typeName) unmapped.add(typeName);
    }
    const csvDate = row.get('date');
    const csvStart = csvDate === undefined ? undefined : parseActivityDate(csvDate);
    const filename = row.get('filename');
    let summary;
    if (filename) {
      const entry = byName.get(root + filename);
      if (!entry) {
        context.problem({ origin, field: 'Filename', reason: `the export has no ${filename}` });
        continue;
      }
      const kept = unchanged(context, row, sportType, csvStart);
      if (kept) {
        yield { origin, fields: kept };
        continue;
      }
      try {
        summary = summarize(await readTrackFile(entry.name, await readEntry(entry)), context.privacyRadiusMeters);
      } catch (error) {
        if (!(error instanceof TrackError)) throw error;
        context.problem({ origin, field: 'Filename', reason: `${filename}: ${error.message}` });
        continue;
      }
    }
    if (!summary?.startDate && csvStart === undefined) {
      context.problem({ origin, field: 'Activity Date', reason: `cannot read the date ${csvDate ?? '(empty)'}` });
      continue;
    }
    yield { origin, fields: fieldsOf(row, sportType, summary, csvStart) };
  }
  if (unmapped.size) context.notice(`Strava types recorded as Workout (the collection has no closer sport type): ${[...unmapped].sort().join(', ')}`);
}

export const strava: ImportSource = {
  name: 'strava',
  collection: 'activities',
  sourceIdOf: (r) => (r.stravaId !== undefined ? String(r.stravaId) : undefined),
  fileOf: (r) => `strava-${yearPart(r.startDate)}.yaml`,
  sortKeyOf: (r) => `${String(r.startDate ?? '')}\u0000${String(r.stravaId ?? '')}`,
  dateOf: (r) => (typeof r.startDate === 'string' ? r.startDate : undefined),
  reusesRecords: true,
  read,
};
