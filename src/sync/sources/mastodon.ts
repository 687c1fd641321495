/**
 * Mastodon: `GET /api/v1/accounts/lookup?acct=<account>` for the account's id, then
 * `GET /api/v1/accounts/<id>/statuses?exclude_reblogs=true&limit=40`, following the
 * `Link` header: on a first run (or a full read for `--prune`, or `--since`) back through
 * `rel="next"` (`max_id`) to the oldest post; afterwards forward from the newest post
 * written (`min_id`) through `rel="prev"`. Each status is mapped by the Mastodon
 * importer's own mapping (`mapPost`): public posts only (an owner's token would see every
 * visibility; unlisted, followers-only and direct posts never reach a file), no boosts;
 * the author as `@user@instance`. Not kept: media, content warnings, counts, and the
 * replied-to post's address (the API gives only its id; a record imported from the
 * archive keeps the archive's).
 */
import { mapPost } from '../../import/sources/mastodon.ts';
import { mastodon as importer } from '../../import/sources/mastodon.ts';
import { LIMITS } from '../../core/limits.ts';
import { shownUrl } from '../../net/fetch.ts';
import { SyncFailure } from '../client.ts';
import { isObject, jsonOf } from '../parse.ts';
import type { SyncItem, SyncSource } from '../source.ts';

/** The `rel` links of a `Link` header (RFC 8288): `<url>; rel="next"`. */
export function links(header: string | string[] | undefined): Record<string, string> {
  const found: Record<string, string> = {};
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(/,(?=\s*<)/)) {
    const m = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    const rel = m ? /\brel="?([^";]+)"?/.exec(m[2]!) : null;
    if (m && rel) for (const name of rel[1]!.trim().split(/\s+/)) found[name] = m[1]!;
  }
  return found;
}

/** Snowflake ids compared as numbers (they are longer than 2^53). */
const newer = (a: string, b: string | undefined) => b === undefined || a.length > b.length || (a.length === b.length && a > b);

interface Status {
  id: string;
  created_at?: string;
  visibility?: string;
  url?: string | null;
  uri?: string;
  content?: string;
  reblog?: unknown;
  account?: { display_name?: string; username?: string };
}

function statusesOf(value: unknown, shown: string): Status[] {
  if (!Array.isArray(value) || !value.every((s) => isObject(s) && typeof s.id === 'string'))
    throw new SyncFailure('wrong-shape', `${shown} did not answer a list of statuses`);
  return value as Status[];
}

export const mastodon: SyncSource<'mastodon'> = {
  name: 'mastodon',
  importer,
  defaultBase: 'https://mastodon.invalid',
  prunable: true,
  // The API names no replied-to address; the archive's stays.
  carry: (previous, fields) => ({ ...fields, inReplyTo: fields.inReplyTo ?? previous.inReplyTo }),
  async read({ config, base, client, cursor, since }) {
    const [user, host] = config.account.split('@') as [string, string];
    // The instance is the account's host, unless sync.yaml names another address (a test server).
    const origin = config.baseUrl ? base : new URL(`https://${host}`);
    const lookup = new URL('/api/v1/accounts/lookup', origin);
    lookup.searchParams.set('acct', config.account);
    const account = jsonOf(await client.get(lookup, 'application/json'));
    if (!isObject(account) || typeof account.id !== 'string') throw new SyncFailure('wrong-shape', `${shownUrl(lookup)} did not answer an account`);
    const author = `@${user}@${host}`;
    const authorName =
      (typeof account.display_name === 'string' && account.display_name.trim()) || (typeof account.username === 'string' ? account.username : user);
    let url: URL | undefined = new URL(`/api/v1/accounts/${encodeURIComponent(account.id)}/statuses`, origin);
    url.searchParams.set('exclude_reblogs', 'true');
    url.searchParams.set('limit', String(LIMITS.syncMastodonPageItems));
    if (cursor) url.searchParams.set('min_id', cursor);
    const forward = cursor !== undefined;
    const pages: Status[][] = [];
    let complete = false;
    for (let page = 1; url; page++) {
      if (!client.canAsk()) break;
      const answer = await client.get(url, 'application/json');
      if (answer.notModified) {
        complete = true;
        break;
      }
      const statuses = statusesOf(jsonOf(answer), shownUrl(url));
      if (statuses.length === 0) {
        complete = true;
        break;
      }
      pages.push(statuses);
      const older = since !== undefined && statuses.some((s) => (s.created_at ?? '').slice(0, 10) < since);
      if (!forward && older) break;
      const next = links(answer.headers.link)[forward ? 'prev' : 'next'];
      url = next ? new URL(next, origin) : undefined;
      if (url && url.host !== origin.host) throw new SyncFailure('wrong-shape', `${shownUrl(answer.url)} links its next page on another host`);
      if (!url) complete = true;
    }
    // Oldest first, whichever way the pages were walked.
    const statuses = pages.flat().sort((a, b) => (a.id === b.id ? 0 : newer(a.id, b.id) ? 1 : -1));
    let newest = cursor;
    const items: SyncItem[] = statuses.map((s) => {
      if (newer(s.id, newest)) newest = s.id;
      return {
        origin: `status ${s.id}`,
        mapped: mapPost({
          id: s.id,
          author,
          authorName,
          html: s.content ?? '',
          // The API gives milliseconds (`.901Z`), the archive whole seconds: one record, one spelling.
          published: s.created_at?.replace(/\.\d+Z$/, 'Z'),
          url: s.url ?? s.uri,
          public: s.visibility === 'public',
          boost: s.reblog !== null && s.reblog !== undefined,
        }),
      };
    });
    return { items, cursor: newest, complete: complete && !forward && since === undefined };
  },
};
