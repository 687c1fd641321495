/**
 * GitHub: the user's public events, `GET /users/<user>/events/public?per_page=100&page=N`,
 * with `If-None-Match` on the first page (an unchanged answer is a `304`, which costs no
 * quota). GitHub keeps at most 300 events and 90 days, so a sync that runs less often
 * than the owner's activity fills them loses the oldest, and older history comes from
 * elsewhere; there is no archive importer for GitHub, so the one mapping (`mapEvent`)
 * lives here. Kept: pushes that name their commits (one `commit` record each, its message's
 * first line as title), published releases, opened or merged pull requests, opened
 * issues, and created repositories. Left out: stars and forks given (someone else's
 * code), pushes without a commit list (GitHub no longer sends one since 2025, and no title
 * is invented), and every other event. The cursor is the newest event's id: paging stops
 * at the first event already read. An optional `GITHUB_TOKEN` only raises the rate limit.
 */
import type { ImportSource, Mapped } from '../../import/source.ts';
import { yearPart } from '../../import/source.ts';
import { LIMITS } from '../../core/limits.ts';
import { shownUrl } from '../../net/fetch.ts';
import { SyncFailure } from '../client.ts';
import { isObject, jsonOf } from '../parse.ts';
import type { SyncItem, SyncSource } from '../source.ts';

/** The code records a sync writes: matched by their URL (the collection's identity). */
export const githubImporter: ImportSource = {
  name: 'github',
  collection: 'code',
  sourceIdOf: (r) => (typeof r.url === 'string' ? r.url : undefined),
  fileOf: (r) => `github-${yearPart(r.date)}.yaml`,
  sortKeyOf: (r) => `${String(r.date ?? '')}\u0000${String(r.url ?? '')}`,
  dateOf: (r) => (typeof r.date === 'string' ? r.date : undefined),
  // GitHub has no export to import: its records come from the events API only.
  read: async function* () {},
};

type Json = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const obj = (v: unknown): Json => (isObject(v) ? v : {});
const num = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);
const firstLine = (text: string | undefined) => text?.split('\n')[0]!.trim() || undefined;

/** One public event onto code records (a push may name several commits). */
export function mapEvent(event: Json): Mapped[] {
  if (event.public === false) return [{ skip: 'private events' }];
  const repo = str(obj(event.repo).name);
  const date = str(event.created_at);
  const payload = obj(event.payload);
  const at = (fields: Json): Mapped => ({ fields: { repo, date, ...fields } });
  switch (event.type) {
    case 'PushEvent': {
      const commits = Array.isArray(payload.commits) ? payload.commits.map(obj) : [];
      if (commits.length === 0) return [{ skip: 'pushes without a commit list' }];
      return commits.map((c) =>
        at({ kind: 'commit', title: firstLine(str(c.message)), url: repo && str(c.sha) ? `https://github.com/${repo}/commit/${str(c.sha)}` : undefined }),
      );
    }
    case 'ReleaseEvent': {
      const release = obj(payload.release);
      if (payload.action !== 'published') return [{ skip: 'other release events' }];
      return [at({ kind: 'release', title: str(release.name) ?? str(release.tag_name), url: str(release.html_url), date: str(release.published_at) ?? date })];
    }
    case 'PullRequestEvent': {
      const pr = obj(payload.pull_request);
      if (payload.action !== 'opened' && !(payload.action === 'closed' && pr.merged === true)) return [{ skip: 'other pull request events' }];
      return [at({ kind: 'pull-request', title: str(pr.title), url: str(pr.html_url), additions: num(pr.additions), deletions: num(pr.deletions) })];
    }
    case 'IssuesEvent': {
      const issue = obj(payload.issue);
      if (payload.action !== 'opened') return [{ skip: 'other issue events' }];
      return [at({ kind: 'issue', title: str(issue.title), url: str(issue.html_url) })];
    }
    case 'CreateEvent':
      if (payload.ref_type !== 'repository' || !repo) return [{ skip: 'branches and tags created' }];
      return [at({ kind: 'repository', title: repo.split('/')[1], url: `https://github.com/${repo}`, notes: str(payload.description) })];
    case 'WatchEvent':
    case 'ForkEvent':
      return [{ skip: 'stars and forks' }];
    default:
      return [{ skip: 'other events' }];
  }
}

/** Event ids are decimal strings longer than 2^53. */
const newer = (a: string, b: string | undefined) => b === undefined || a.length > b.length || (a.length === b.length && a > b);

/** GitHub keeps at most this many events (3 pages of 100). */
const EVENTS_MAX = 300;

export const github: SyncSource<'github'> = {
  name: 'github',
  importer: githubImporter,
  defaultBase: 'https://api.github.com',
  prunable: false,
  async read({ config, base, client, cursor, secrets, since }) {
    const headers: Record<string, string> = {
      'X-GitHub-Api-Version': '2022-11-28',
      ...(secrets.githubToken ? { Authorization: `Bearer ${secrets.githubToken}` } : {}),
    };
    const events: Json[] = [];
    let reachedCursor = false;
    for (let page = 1; page * LIMITS.syncPageItems <= EVENTS_MAX && !reachedCursor; page++) {
      if (!client.canAsk()) break;
      const url = new URL(`${base.pathname.replace(/\/$/, '')}/users/${encodeURIComponent(config.user)}/events/public`, base);
      url.searchParams.set('per_page', String(LIMITS.syncPageItems));
      url.searchParams.set('page', String(page));
      const answer = await client.get(url, 'application/vnd.github+json', headers);
      if (answer.notModified) break;
      const body = jsonOf(answer);
      if (!Array.isArray(body) || !body.every((e) => isObject(e) && typeof e.id === 'string' && typeof e.type === 'string'))
        throw new SyncFailure('wrong-shape', `${shownUrl(url)} did not answer a list of events`);
      for (const event of body as Json[]) {
        if (cursor !== undefined && !newer(event.id as string, cursor)) {
          reachedCursor = true;
          break;
        }
        if (since !== undefined && String(event.created_at ?? '').slice(0, 10) < since) {
          reachedCursor = true;
          break;
        }
        events.push(event);
      }
      if (body.length < LIMITS.syncPageItems) break;
    }
    let newest = cursor;
    const items: SyncItem[] = [];
    // Newest first from GitHub; oldest first to the frame.
    for (const event of events.reverse()) {
      if (newer(event.id as string, newest)) newest = event.id as string;
      mapEvent(event).forEach((mapped, i) => items.push({ origin: `event ${String(event.id)}${i ? ` commit ${i + 1}` : ''}`, mapped }));
    }
    return { items, cursor: newest, complete: false };
  },
};
