/**
 * ListenBrainz: `GET /1/user/<user>/listens?min_ts=<cursor>&count=100` (listens newer
 * than the cursor, exclusive, newest first; further pages with `max_ts` set to the oldest
 * listen read), and the owner's loved recordings, `GET
 * /1/feedback/user/<user>/get-feedback?score=1&count=100&offset=N`. Listens are gathered
 * per recording and mapped by the ListenBrainz importer's own code (`gatherListen`,
 * `mapTrack`): a music record is a track, not a listen; its first listen is `addedAt`
 * (an earlier record's is kept), a loved recording's stance is `love`. The cursor is the
 * newest listen's time. Not kept: listen counts and times, the submitting client. A track
 * loved without a new listen is not written until it is listened to again.
 */
import { gatherFeedback, gatherListen, mapTrack, type Listen, type Stances, type Track } from '../../import/sources/listenbrainz.ts';
import { listenbrainz as importer } from '../../import/sources/listenbrainz.ts';
import { LIMITS } from '../../core/limits.ts';
import { shownUrl } from '../../net/fetch.ts';
import { SyncFailure } from '../client.ts';
import { isObject, jsonOf } from '../parse.ts';
import type { SyncItem, SyncSource } from '../source.ts';

export const listenbrainz: SyncSource<'listenbrainz'> = {
  name: 'listenbrainz',
  importer,
  defaultBase: 'https://api.listenbrainz.org',
  prunable: false,
  carry: (previous, fields) => ({
    ...fields,
    addedAt:
      typeof previous.addedAt === 'string' && (typeof fields.addedAt !== 'string' || previous.addedAt < fields.addedAt) ? previous.addedAt : fields.addedAt,
  }),
  async read({ config, base, client, cursor, since }) {
    const root = base.pathname.replace(/\/$/, '');
    const user = encodeURIComponent(config.user);
    const minTs = cursor ?? (since ? String(Math.floor(Date.parse(`${since}T00:00:00Z`) / 1000) - 1) : undefined);
    const listens: Listen[] = [];
    let maxTs: number | undefined;
    let newest = cursor !== undefined ? Number(cursor) : undefined;
    // Pages run newest first: the cursor moves only once every page back to it is read, or a budget cut would skip the rest.
    let finished = false;
    while (client.canAsk()) {
      const url = new URL(`${root}/1/user/${user}/listens`, base);
      if (minTs !== undefined) url.searchParams.set('min_ts', minTs);
      if (maxTs !== undefined) url.searchParams.set('max_ts', String(maxTs));
      url.searchParams.set('count', String(LIMITS.syncPageItems));
      const answer = await client.get(url, 'application/json');
      if (answer.notModified) {
        finished = true;
        break;
      }
      const body = jsonOf(answer);
      const payload = isObject(body) && isObject(body.payload) ? body.payload : undefined;
      if (!payload || !Array.isArray(payload.listens)) throw new SyncFailure('wrong-shape', `${shownUrl(url)} did not answer {payload: {listens}}`);
      const page = payload.listens.filter((l): l is Listen => isObject(l) && typeof l.listened_at === 'number');
      listens.push(...page);
      for (const l of page) if (newest === undefined || l.listened_at! > newest) newest = l.listened_at!;
      if (page.length < LIMITS.syncPageItems) {
        finished = true;
        break;
      }
      maxTs = Math.min(...page.map((l) => l.listened_at!));
    }
    const stances: Stances = new Map();
    for (let offset = 0; listens.length > 0 && client.canAsk(); offset += LIMITS.syncPageItems) {
      const url = new URL(`${root}/1/feedback/user/${user}/get-feedback`, base);
      url.searchParams.set('score', '1');
      url.searchParams.set('count', String(LIMITS.syncPageItems));
      url.searchParams.set('offset', String(offset));
      const answer = await client.get(url, 'application/json');
      if (answer.notModified) break;
      const body = jsonOf(answer);
      if (!isObject(body) || !Array.isArray(body.feedback)) throw new SyncFailure('wrong-shape', `${shownUrl(url)} did not answer {feedback: [...]}`);
      for (const f of body.feedback) if (isObject(f)) gatherFeedback(stances, f as Parameters<typeof gatherFeedback>[1]);
      if (body.feedback.length < LIMITS.syncPageItems) break;
    }
    const tracks = new Map<string, Track>();
    // Oldest first, as the export's files are read.
    listens.sort((a, b) => a.listened_at! - b.listened_at!).forEach((l) => gatherListen(tracks, l, `listen at ${l.listened_at}`));
    const items: SyncItem[] = [...tracks.values()].map((t) => ({ origin: t.origin, mapped: mapTrack(t, stances) }));
    return { items, cursor: finished && newest !== undefined ? String(newest) : cursor, complete: false };
  },
};
