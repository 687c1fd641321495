/**
 * One recorded track file by its name: `.gpx`, `.tcx` or `.fit`, each possibly `.gz`
 * (inflated by the archive reader). FIT files are decoded with Garmin's own SDK
 * (@garmin/fitsdk), which checks the file's CRC; positions come in semicircles.
 */
import { Decoder, Stream } from '@garmin/fitsdk';
import { readGpx, readTcx, TrackError, type Track } from '../track.ts';

const SEMICIRCLE = 180 / 2 ** 31;

export function readFit(bytes: Buffer): Track {
  const decoder = new Decoder(Stream.fromByteArray(bytes));
  if (!decoder.isFIT() || !decoder.checkIntegrity()) throw new TrackError('not a valid FIT file (header or CRC)');
  const { messages, errors } = decoder.read({ convertDateTimesToDates: true });
  if (errors.length) throw new TrackError(`not a readable FIT file (${String((errors[0] as Error).message ?? errors[0])})`);
  const records = (messages.recordMesgs ?? []) as {
    timestamp?: Date;
    positionLat?: number;
    positionLong?: number;
    enhancedAltitude?: number;
    altitude?: number;
  }[];
  const session = (messages.sessionMesgs ?? [])[0] as { sport?: string; totalDistance?: number; totalTimerTime?: number } | undefined;
  return {
    points: records
      .filter((r) => r.positionLat !== undefined && r.positionLong !== undefined)
      .map((r) => ({
        latitude: r.positionLat! * SEMICIRCLE,
        longitude: r.positionLong! * SEMICIRCLE,
        ...((r.enhancedAltitude ?? r.altitude) !== undefined ? { elevation: (r.enhancedAltitude ?? r.altitude)! } : {}),
        ...(r.timestamp ? { time: r.timestamp.getTime() } : {}),
      })),
    ...(session?.sport ? { sport: session.sport } : {}),
    ...(session?.totalDistance !== undefined ? { distanceMeters: session.totalDistance } : {}),
    ...(session?.totalTimerTime !== undefined ? { movingTimeSeconds: Math.round(session.totalTimerTime) } : {}),
  };
}

/** The track in the file `name` (its bytes already inflated). */
export async function readTrackFile(name: string, bytes: Buffer): Promise<Track> {
  const kind = /\.(gpx|tcx|fit)(?:\.gz)?$/i.exec(name)?.[1]?.toLowerCase();
  // Strava's TCX files start with blank space before the XML declaration, which XML forbids.
  if (kind === 'gpx') return readGpx(bytes.toString('utf8').trimStart());
  if (kind === 'tcx') return readTcx(bytes.toString('utf8').trimStart());
  if (kind === 'fit') return readFit(bytes);
  throw new TrackError('not a GPX, TCX or FIT file');
}
