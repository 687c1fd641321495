/**
 * Strava: the OAuth refresh grant (`POST /oauth/token`, `grant_type=refresh_token`, with
 * `STRAVA_CLIENT_ID`, `STRAVA_CLIENT_SECRET` and the refresh token: the one a previous run
 * was given, else `STRAVA_REFRESH_TOKEN`), then `GET /api/v3/athlete/activities?after=
 * <cursor>&per_page=100&page=N` with the access token. Every grant may rotate the refresh
 * token, and the old one then stops working, so a new one is kept in `STATE_DIR` at once,
 * before anything else can fail. Each SummaryActivity is mapped by the Strava importer's
 * own mapping (`mapActivity`, `sportOf`): the start in the zone of the route's first
 * point (or the activity's `timezone`), the figures Strava summed, and coordinates from
 * the route's summary polyline with the importer's privacy radius (never a point within
 * it of the start or the end; never `start_latlng`, which is often home). Only activities
 * everyone may see are kept: private, followers-only and only-me ones never reach a file.
 * The cursor is the newest start read (epoch seconds); asking with `after` lists oldest
 * first, so a run cut short by a budget resumes where it stopped. Not kept: gear ids,
 * kudos, power and the route itself.
 */
import { LIMITS } from '../../core/limits.ts';
import { mapActivity, sportOf, strava as importer } from '../../import/sources/strava.ts';
import { summarize, type TrackPoint } from '../../import/track.ts';
import { shownUrl } from '../../net/fetch.ts';
import { SyncFailure } from '../client.ts';
import { isObject, jsonOf } from '../parse.ts';
import type { SyncItem, SyncSource } from '../source.ts';

/** Google's encoded polyline (precision 5), as Strava's `map.summary_polyline`, into points. */
export function decodePolyline(encoded: string): TrackPoint[] {
  const points: TrackPoint[] = [];
  let index = 0;
  let lat = 0;
  let lng = 0;
  const next = (): number | undefined => {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (index >= encoded.length) return undefined;
      const byte = encoded.charCodeAt(index++) - 63;
      if (byte < 0 || byte > 63) return undefined;
      result |= (byte & 0x1f) << shift;
      shift += 5;
      if (byte < 0x20) break;
      if (shift > 30) return undefined;
    }
    return result & 1 ? ~(result >> 1) : result >> 1;
  };
  while (index < encoded.length) {
    const dLat = next();
    const dLng = next();
    if (dLat === undefined || dLng === undefined) break;
    lat += dLat;
    lng += dLng;
    points.push({ latitude: lat / 1e5, longitude: lng / 1e5 });
  }
  return points;
}

type Json = Record<string, unknown>;
const numOf = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Strava's `timezone` (`(GMT+01:00) Europe/Berlin`) as its IANA zone. */
const zoneOf = (v: unknown) => (typeof v === 'string' ? /\)\s*([A-Za-z_]+(?:\/[A-Za-z_+-]+)+)\s*$/.exec(v)?.[1] : undefined);

export const strava: SyncSource<'strava'> = {
  name: 'strava',
  importer,
  defaultBase: 'https://www.strava.com',
  prunable: true,
  async read({ base, client, cursor, since, secrets, refreshToken, keepRefreshToken, notice }) {
    const token = refreshToken ?? secrets.stravaRefreshToken;
    const missing = [
      ...(secrets.stravaClientId ? [] : ['STRAVA_CLIENT_ID']),
      ...(secrets.stravaClientSecret ? [] : ['STRAVA_CLIENT_SECRET']),
      ...(token ? [] : ['STRAVA_REFRESH_TOKEN']),
    ];
    if (missing.length) throw new SyncFailure('config', `${missing.join(', ')} not set in the environment`);
    const root = base.pathname.replace(/\/$/, '');
    const tokenUrl = new URL(`${root}/oauth/token`, base);
    let grant;
    try {
      grant = jsonOf(
        await client.postForm(
          tokenUrl,
          { client_id: secrets.stravaClientId!, client_secret: secrets.stravaClientSecret!, grant_type: 'refresh_token', refresh_token: token! },
          'application/json',
        ),
      );
    } catch (error) {
      // A refused grant (400 invalid_grant, 401) means the refresh token or the client is wrong: the owner must act.
      if (error instanceof SyncFailure && error.kind === 'http-status') throw new SyncFailure('auth', `${shownUrl(tokenUrl)} refused the refresh grant`);
      throw error;
    }
    if (!isObject(grant) || typeof grant.access_token !== 'string') throw new SyncFailure('wrong-shape', `${shownUrl(tokenUrl)} answered no access_token`);
    if (typeof grant.refresh_token === 'string' && grant.refresh_token !== token) keepRefreshToken(grant.refresh_token);
    const after = cursor ?? (since ? String(Math.floor(Date.parse(`${since}T00:00:00Z`) / 1000) - 1) : '0');
    const activities: Json[] = [];
    let complete = false;
    for (let page = 1; client.canAsk(); page++) {
      const url = new URL(`${root}/api/v3/athlete/activities`, base);
      url.searchParams.set('after', after);
      url.searchParams.set('per_page', String(LIMITS.syncPageItems));
      url.searchParams.set('page', String(page));
      const answer = await client.get(url, 'application/json', { Authorization: `Bearer ${grant.access_token}` });
      const body = jsonOf(answer);
      if (!Array.isArray(body) || !body.every((a) => isObject(a) && typeof a.id === 'number' && typeof a.start_date === 'string'))
        throw new SyncFailure('wrong-shape', `${shownUrl(url)} did not answer a list of activities`);
      activities.push(...(body as Json[]));
      if (body.length < LIMITS.syncPageItems) {
        complete = true;
        break;
      }
    }
    let newest = cursor !== undefined ? Number(cursor) : undefined;
    const unmapped = new Set<string>();
    const items: SyncItem[] = [];
    for (const a of activities.sort((x, y) => Date.parse(String(x.start_date)) - Date.parse(String(y.start_date)))) {
      const start = Date.parse(String(a.start_date));
      if (Number.isFinite(start) && (newest === undefined || start / 1000 > newest)) newest = start / 1000;
      const origin = `activity ${String(a.id)}`;
      if (a.private === true || (a.visibility !== undefined && a.visibility !== 'everyone')) {
        items.push({ origin, mapped: { skip: 'activities not visible to everyone' } });
        continue;
      }
      const typeName = typeof a.sport_type === 'string' ? a.sport_type : typeof a.type === 'string' ? a.type : undefined;
      let sportType = sportOf(typeName);
      if (!sportType) {
        sportType = 'Workout';
        if (typeName) unmapped.add(typeName);
      }
      const polyline = isObject(a.map) && typeof a.map.summary_polyline === 'string' ? decodePolyline(a.map.summary_polyline) : [];
      if (polyline[0] && Number.isFinite(start)) polyline[0].time = start;
      const summary = polyline.length ? summarize({ points: polyline }, LIMITS.importPrivacyRadiusMeters) : undefined;
      items.push({
        origin,
        mapped: mapActivity({
          id: String(a.id),
          name: typeof a.name === 'string' ? a.name : undefined,
          sportType,
          distance: numOf(a.distance),
          moving: numOf(a.moving_time),
          elapsed: numOf(a.elapsed_time),
          elevationGain: numOf(a.total_elevation_gain),
          heartRate: numOf(a.average_heartrate),
          start: Number.isFinite(start) ? start : undefined,
          zone: zoneOf(a.timezone),
          // The route gives the zone and the coordinates; its distance is the polyline's, coarser than Strava's own.
          summary: summary ? { ...summary, distanceMeters: numOf(a.distance) ?? summary.distanceMeters } : undefined,
        }),
      });
    }
    if (unmapped.size) notice(`Strava types recorded as Workout (the collection has no closer sport type): ${[...unmapped].sort().join(', ')}`);
    return { items, cursor: newest !== undefined ? String(Math.floor(newest)) : undefined, complete: complete && cursor === undefined && since === undefined };
  },
};
