/**
 * Recorded tracks (GPX and TCX through @tmcw/togeojson on @xmldom/xmldom; FIT through
 * @garmin/fitsdk), reduced to what an activity record takes: the start instant in the
 * zone of the first point (@photostructure/tz-lookup; a track without positions gives no
 * zone, and none is guessed), the distance, moving and elapsed time and elevation gain
 * computed from the points, and coordinates that are never within the privacy radius of
 * the track's start or end (the start is often home): the first point outside both.
 */
import { DOMParser } from '@xmldom/xmldom';
import { gpx, tcx } from '@tmcw/togeojson';
import tzLookup from '@photostructure/tz-lookup';
import type { Feature, Position } from 'geojson';
import { wallAt } from '../core/zone.ts';

export interface TrackPoint {
  latitude: number;
  longitude: number;
  elevation?: number;
  /** Milliseconds since the epoch. */
  time?: number;
}

export interface Track {
  points: TrackPoint[];
  name?: string;
  /** The sport as the file names it (GPX `<type>`, TCX `Sport`, FIT sport). */
  sport?: string;
  /** What the device summed, where the file says (TCX laps, FIT sessions). */
  distanceMeters?: number;
  movingTimeSeconds?: number;
}

export class TrackError extends Error {}

function parseXml(text: string): Document {
  const errors: string[] = [];
  let doc;
  try {
    doc = new DOMParser({ onError: (level, message) => void (level !== 'warning' && errors.push(message)) }).parseFromString(text, 'text/xml');
  } catch (error) {
    // @xmldom/xmldom throws its ParseError on a fatal error (text with no root element) after reporting it.
    throw new TrackError(`not well-formed XML (${errors[0] ?? (error as Error).message})`);
  }
  if (errors.length || !doc.documentElement) throw new TrackError(`not well-formed XML (${errors[0] ?? 'no root element'})`);
  return doc as unknown as Document;
}

function pointsOf(feature: Feature): TrackPoint[] {
  const g = feature.geometry;
  const lines: Position[][] = g?.type === 'LineString' ? [g.coordinates] : g?.type === 'MultiLineString' ? g.coordinates : [];
  const rawTimes = (feature.properties?.coordinateProperties as { times?: unknown } | undefined)?.times;
  const times: unknown[][] = Array.isArray(rawTimes) ? (g?.type === 'MultiLineString' ? (rawTimes as unknown[][]) : [rawTimes]) : [];
  const points: TrackPoint[] = [];
  lines.forEach((line, l) =>
    line.forEach((p, i) => {
      const t = times[l]?.[i];
      const ms = typeof t === 'string' ? Date.parse(t) : NaN;
      points.push({ longitude: p[0]!, latitude: p[1]!, ...(p[2] !== undefined ? { elevation: p[2] } : {}), ...(Number.isFinite(ms) ? { time: ms } : {}) });
    }),
  );
  return points;
}

export function readGpx(text: string): Track {
  const features = gpx(parseXml(text)).features.filter((f) => f.properties?._gpxType === 'trk' || f.properties?._gpxType === 'rte');
  if (!features.length) throw new TrackError('a GPX file without a track');
  const props = features[0]!.properties ?? {};
  return {
    points: features.flatMap(pointsOf),
    ...(typeof props.name === 'string' && props.name.trim() ? { name: props.name.trim() } : {}),
    ...(typeof props.type === 'string' && props.type.trim() ? { sport: props.type.trim() } : {}),
  };
}

export function readTcx(text: string): Track {
  const doc = parseXml(text);
  const features = tcx(doc).features;
  const activity = doc.getElementsByTagName('Activity')[0];
  const laps = Array.from(doc.getElementsByTagName('Lap'));
  const sum = (tag: string) => laps.reduce((s, lap) => s + Number(lap.getElementsByTagName(tag)[0]?.textContent ?? 0), 0);
  const sport = activity?.getAttribute('Sport') ?? undefined;
  return {
    points: features.flatMap(pointsOf),
    ...(sport ? { sport } : {}),
    ...(laps.length ? { distanceMeters: sum('DistanceMeters'), movingTimeSeconds: Math.round(sum('TotalTimeSeconds')) } : {}),
  };
}

const EARTH_RADIUS_M = 6_371_008.8;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in metres (haversine). */
export function metresBetween(a: TrackPoint, b: TrackPoint): number {
  const dLat = rad(b.latitude - a.latitude);
  const dLon = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A point counts as moving when it covers at least this pace (m/s): slower is standing at a light. */
const MOVING_SPEED = 0.5;

export interface TrackSummary {
  /** The start as an ISO date-time in the first point's zone, with its offset; `Z` when the track has a time but no position. */
  startDate?: string;
  distanceMeters: number;
  movingTimeSeconds?: number;
  elapsedTimeSeconds?: number;
  elevationGainMeters?: number;
  /** The first point farther than the privacy radius from both ends, if any. */
  coordinates?: { latitude: number; longitude: number };
}

function offsetOf(ms: number, zone: string): string {
  const w = wallAt(ms, zone);
  const minutes = Math.round((Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000) / 60_000);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The instant `ms` as a wall time of `zone` with its offset, or in UTC when no zone is known. */
export function isoInZone(ms: number, zone: string | undefined): string {
  if (!zone) return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  const w = wallAt(ms, zone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${offsetOf(ms, zone)}`;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

export function summarize(track: Track, privacyRadiusMeters: number): TrackSummary {
  const pts = track.points.filter((p) => Number.isFinite(p.latitude) && Number.isFinite(p.longitude));
  const timed = track.points.filter((p) => p.time !== undefined);
  const first = pts[0];
  const start = timed[0]?.time;
  let zone: string | undefined;
  if (first && start !== undefined) {
    try {
      zone = tzLookup(first.latitude, first.longitude);
    } catch {
      zone = undefined;
    }
  }
  let distance = 0;
  let moving = 0;
  let gain = 0;
  for (let i = 1; i < pts.length; i++) {
    const a = pts[i - 1]!;
    const b = pts[i]!;
    const d = metresBetween(a, b);
    distance += d;
    if (a.time !== undefined && b.time !== undefined && b.time > a.time && d / ((b.time - a.time) / 1000) >= MOVING_SPEED) moving += (b.time - a.time) / 1000;
    if (a.elevation !== undefined && b.elevation !== undefined && b.elevation > a.elevation) gain += b.elevation - a.elevation;
  }
  const last = pts[pts.length - 1];
  const away = first && last ? pts.find((p) => metresBetween(p, first) > privacyRadiusMeters && metresBetween(p, last) > privacyRadiusMeters) : undefined;
  const end = timed[timed.length - 1]?.time;
  return {
    ...(start !== undefined ? { startDate: isoInZone(start, zone) } : {}),
    distanceMeters: round1(track.distanceMeters ?? distance),
    ...(track.movingTimeSeconds !== undefined
      ? { movingTimeSeconds: track.movingTimeSeconds }
      : start !== undefined
        ? { movingTimeSeconds: Math.round(moving) }
        : {}),
    ...(start !== undefined && end !== undefined ? { elapsedTimeSeconds: Math.round((end - start) / 1000) } : {}),
    ...(pts.some((p) => p.elevation !== undefined) ? { elevationGainMeters: round1(gain) } : {}),
    ...(away ? { coordinates: { latitude: Math.round(away.latitude * 1e6) / 1e6, longitude: Math.round(away.longitude * 1e6) / 1e6 } } : {}),
  };
}
