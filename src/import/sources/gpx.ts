/**
 * A folder of recorded tracks (GPX, TCX or FIT, as Garmin and other devices and apps
 * write them; `.gz` too): one activity per file. Everything comes from the track: the
 * start in the zone of its first position, the distance, moving and elapsed time and
 * elevation gain (the device's own sums where the file has them), and coordinates outside
 * the privacy radius of both ends. The title is the track's name, else the file's name;
 * the sport is the file's own, mapped onto the twelve sport types (Workout when the file
 * names none the collection has, and the report says so). Matched by its start.
 */
import { readEntry } from '../archive.ts';
import { ImportRefused } from '../problems.ts';
import { yearPart, type Candidate, type ImportSource, type ReadContext } from '../source.ts';
import { summarize, TrackError } from '../track.ts';
import { sportOf } from './strava.ts';
import { readTrackFile } from './track-files.ts';

const TRACK = /\.(gpx|tcx|fit)(\.gz)?$/i;

async function* read(context: ReadContext): AsyncGenerator<Candidate> {
  const files = context.input.entries.filter((e) => TRACK.test(e.name));
  if (!files.length) throw new ImportRefused(`${context.input.shown} holds no GPX, TCX or FIT file.`);
  const unmapped = new Set<string>();
  for (const entry of files) {
    let track;
    try {
      track = await readTrackFile(entry.name, await readEntry(entry));
    } catch (error) {
      if (!(error instanceof TrackError)) throw error;
      context.problem({ origin: entry.name, field: '(file)', reason: error.message });
      continue;
    }
    const summary = summarize(track, context.privacyRadiusMeters);
    if (!summary.startDate) {
      context.problem({ origin: entry.name, field: 'startDate', reason: 'the track has no times, so its start is not known' });
      continue;
    }
    let sportType = sportOf(track.sport);
    if (!sportType) {
      sportType = 'Workout';
      unmapped.add(track.sport ?? '(none given)');
    }
    yield {
      origin: entry.name,
      fields: {
        title: track.name ?? (entry.name.split('/').pop() ?? entry.name).replace(TRACK, ''),
        sportType,
        startDate: summary.startDate,
        distanceMeters: summary.distanceMeters,
        movingTimeSeconds: summary.movingTimeSeconds,
        elapsedTimeSeconds: summary.elapsedTimeSeconds,
        elevationGainMeters: summary.elevationGainMeters,
        ...(summary.coordinates ? { coordinates: summary.coordinates, coordinatesSource: 'gps' } : {}),
      },
    };
  }
  if (unmapped.size) context.notice(`sports recorded as Workout (the collection has no closer sport type): ${[...unmapped].sort().join(', ')}`);
}

export const gpxFolder: ImportSource = {
  name: 'gpx',
  collection: 'activities',
  sourceIdOf: (r) => (typeof r.startDate === 'string' ? `start:${r.startDate}` : undefined),
  fileOf: (r) => `tracks-${yearPart(r.startDate)}.yaml`,
  sortKeyOf: (r) => String(r.startDate ?? ''),
  dateOf: (r) => (typeof r.startDate === 'string' ? r.startDate : undefined),
  read,
};
