/**
 * Issue 39, items 3–5: each source against a local server replaying documentation-shaped
 * answers — what it writes (through the importer's mapping and frame), that a second run
 * with nothing new asks conditionally or from its cursor and changes no byte, that the
 * owner's edit is reported as a conflict and kept, a rotated Strava refresh token, and
 * `--prune`.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import yaml from 'js-yaml';
import { syncSource, type SourceOutcome, type SyncOptions } from '../../src/sync/run.ts';
import { loadState } from '../../src/sync/state.ts';
import { cursorOf } from '../../src/import/cursor.ts';
import type { SourceConfig, SourceName } from '../../src/sync/config.ts';
import { snapshot, tempDir } from '../import/harness.ts';
import { answer, fixture, json, replay, type Replay } from './replay.ts';

const servers: Replay[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

async function server(): Promise<Replay> {
  const s = await replay();
  servers.push(s);
  return s;
}

function folders() {
  return { contentDir: tempDir('sync-content'), stateDir: tempDir('sync-state') };
}

const SECRETS = { stravaClientId: '4242', stravaClientSecret: 'client-secret-x', stravaRefreshToken: 'first-refresh-1' };

async function sync<N extends SourceName>(name: N, config: SourceConfig<N>, dirs: { contentDir: string; stateDir: string }, extra: Partial<SyncOptions> = {}) {
  const outcome = await syncSource(name, config, { ...dirs, userAgent: 'collections-sync/1 (+http://test.example)', secrets: SECRETS, ...extra });
  return outcome;
}

function ok(outcome: SourceOutcome) {
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.message);
  return outcome;
}

const records = (path: string) => yaml.load(readFileSync(path, 'utf8'), { schema: yaml.CORE_SCHEMA }) as Record<string, unknown>[];

test('letterboxd: the feed becomes movie records (a rewatch is one record, lists left out); a second poll is a 304 and changes no byte', async () => {
  const s = await server();
  s.route('GET', '/alice/rss/', answer(fixture('letterboxd/rss.xml'), { 'Content-Type': 'application/rss+xml; charset=utf-8', ETag: '"lb-1"' }));
  const dirs = folders();
  const first = ok(await sync('letterboxd', { user: 'alice', baseUrl: s.base }, dirs));
  assert.deepEqual(first.report.counts, { new: 2, same: 0, changed: 0, conflict: 0, kept: 0 });
  assert.equal(first.report.dropped.lists, 1);
  const films = records(join(dirs.contentDir, 'movies/letterboxd-2026.yaml'));
  const pastLives = films.find((f) => f.title === 'Past Lives')!;
  assert.equal(pastLives.addedAt, '2026-11-22');
  assert.equal(pastLives.watchedAt, '2026-11-29');
  assert.equal(pastLives.rating, 5);
  assert.equal(pastLives.tmdbId, 666277);
  assert.equal(pastLives.letterboxdUri, 'https://letterboxd.com/film/past-lives/');
  assert.equal(pastLives.review, 'Even better the second time.\n\nThe bar scene & the ending.');
  const aftersun = films.find((f) => f.title === 'Aftersun')!;
  assert.equal(aftersun.review, undefined, 'a bare "Watched on" is no review');
  assert.equal(s.seen[0]!.headers['user-agent'], 'collections-sync/1 (+http://test.example)');
  assert.ok(existsSync(join(dirs.stateDir, 'sync/letterboxd.json')), 'state in STATE_DIR');
  assert.ok(![...snapshot(dirs.contentDir).keys()].some((f) => f.includes('sync')), 'no sync state in content');

  const before = snapshot(dirs.contentDir);
  const second = ok(await sync('letterboxd', { user: 'alice', baseUrl: s.base }, dirs));
  assert.equal(s.seen[1]!.headers['if-none-match'], '"lb-1"');
  assert.deepEqual(second.report.counts, { new: 0, same: 0, changed: 0, conflict: 0, kept: 0 });
  assert.deepEqual(snapshot(dirs.contentDir), before, 'not a byte changed');
});

test('letterboxd: the owner’s edit wins — a changed feed entry for an edited record is a conflict, left as the owner wrote it', async () => {
  const s = await server();
  let feed = fixture('letterboxd/rss.xml');
  let etag = '"a"';
  s.route('GET', '/alice/rss/', (request, res) => answer(feed, { 'Content-Type': 'application/rss+xml', ETag: etag })(request, res));
  const dirs = folders();
  ok(await sync('letterboxd', { user: 'alice', baseUrl: s.base }, dirs));
  const file = join(dirs.contentDir, 'movies/letterboxd-2026.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('title: Aftersun', 'title: Aftersun\n  recommended: true'));
  const edited = readFileSync(file, 'utf8');
  feed = feed.replace('<letterboxd:memberRating>4.5</letterboxd:memberRating>', '<letterboxd:memberRating>4.0</letterboxd:memberRating>');
  feed = feed.replace('<letterboxd:memberRating>5.0</letterboxd:memberRating>', '<letterboxd:memberRating>4.5</letterboxd:memberRating>');
  etag = '"b"';
  const lines: string[] = [];
  const outcome = ok(await sync('letterboxd', { user: 'alice', baseUrl: s.base }, dirs, { onLine: (l) => void lines.push(l) }));
  assert.equal(outcome.report.counts.conflict, 1, lines.join('\n'));
  assert.equal(outcome.report.counts.changed, 1, 'the record nobody edited is updated');
  assert.match(lines.join('\n'), /conflict\s+movie, Aftersun, 2022.*edited by you/);
  const after = readFileSync(file, 'utf8');
  assert.match(after, /title: Aftersun\n {2}recommended: true/);
  assert.match(after, /rating: 4\.5/, 'Past Lives updated');
  assert.doesNotMatch(after, /rating: 4\n/, 'Aftersun not overwritten');
  assert.notEqual(after, edited);
});

test('goodreads: each shelf’s feed becomes book records through the importer’s mapping; a conditional repeat changes nothing', async () => {
  const s = await server();
  s.route('GET', '/review/list_rss/12345', (request, res) => {
    const shelf = request.url.searchParams.get('shelf')!;
    answer(fixture(`goodreads/${shelf}.xml`), { 'Content-Type': 'application/rss+xml', 'Last-Modified': 'Mon, 30 Nov 2026 17:12:44 GMT' })(request, res);
  });
  const dirs = folders();
  const first = ok(await sync('goodreads', { userId: '12345', shelves: ['read', 'currently-reading'], baseUrl: s.base }, dirs));
  assert.equal(first.report.counts.new, 3);
  const books = records(join(dirs.contentDir, 'books/goodreads-2026.yaml'));
  const tomorrow = books.find((b) => b.goodreadsId === '58784475')!;
  assert.equal(tomorrow.isbn, '9780593321201', 'the ISBN-13 of the feed’s ISBN-10');
  assert.equal(tomorrow.finishedAt, '2026-11-28', 'the member’s own day, not UTC’s');
  assert.equal(tomorrow.status, 'finished');
  assert.equal(tomorrow.pages, 401);
  assert.equal(tomorrow.notes, 'Games, friendship, grief.\nLoved it.');
  const leGuin = books.find((b) => b.goodreadsId === '18423')!;
  assert.equal(leGuin.rating, undefined, '0 is unrated');
  assert.equal(records(join(dirs.contentDir, 'books/goodreads-reading.yaml'))[0]!.title, 'Piranesi');
  const before = snapshot(dirs.contentDir);
  s.route('GET', '/review/list_rss/12345', (request, res) => {
    if (request.headers['if-modified-since'] === 'Mon, 30 Nov 2026 17:12:44 GMT') return void res.writeHead(304).end();
    res.writeHead(500).end();
  });
  const second = ok(await sync('goodreads', { userId: '12345', shelves: ['read', 'currently-reading'], baseUrl: s.base }, dirs));
  assert.equal(second.requests, 2);
  assert.deepEqual(snapshot(dirs.contentDir), before);
});

test('listenbrainz: listens become one track each (the loved one as love); the next run asks from min_ts and changes no byte', async () => {
  const s = await server();
  s.route('GET', '/1/user/alice/listens', (request, res) =>
    json(request.url.searchParams.get('min_ts') ? { payload: { count: 0, listens: [], user_id: 'alice' } } : fixture('listenbrainz/listens.json'))(
      request,
      res,
    ),
  );
  s.route('GET', '/1/feedback/user/alice/get-feedback', json(fixture('listenbrainz/feedback.json')));
  const dirs = folders();
  const first = ok(await sync('listenbrainz', { user: 'alice', baseUrl: s.base }, dirs));
  assert.equal(first.report.counts.new, 2);
  const tracks = records(join(dirs.contentDir, 'music/listenbrainz-2026.yaml'));
  const loved = tracks.find((t) => t.title === 'Welcome to My Island')!;
  assert.equal(loved.stance, 'love');
  assert.equal(loved.addedAt, new Date(1796443200 * 1000).toISOString().replace('.000Z', 'Z'), 'the first listen');
  assert.equal(loved.durationSeconds, 252);
  assert.equal(tracks.find((t) => t.title === 'Simulation Swarm')!.stance, 'neutral');
  assert.equal(cursorOf('listenbrainz', dirs.stateDir), '1796450400');
  // One place for a cursor: the client's state file keeps validators and the like, never a second cursor.
  assert.equal('cursor' in loadState(dirs.stateDir, 'listenbrainz'), false);
  const before = snapshot(dirs.contentDir);
  ok(await sync('listenbrainz', { user: 'alice', baseUrl: s.base }, dirs));
  const asked = s.seen.filter((r) => r.url.pathname.endsWith('/listens')).at(-1)!;
  assert.equal(asked.url.searchParams.get('min_ts'), '1796450400');
  assert.deepEqual(snapshot(dirs.contentDir), before);
});

function mastodonServer(s: Replay, pages: { newer: unknown[] }) {
  s.route('GET', '/api/v1/accounts/lookup', json(fixture('mastodon/account.json')));
  s.route('GET', '/api/v1/accounts/109876543210987654/statuses', (request, res) => {
    const q = request.url.searchParams;
    assert.equal(q.get('exclude_reblogs'), 'true');
    const link = (rel: string, param: string, id: string) =>
      `<${s.base}/api/v1/accounts/109876543210987654/statuses?exclude_reblogs=true&limit=40&${param}=${id}>; rel="${rel}"`;
    if (q.get('min_id') === '111000000000000004') {
      return json(
        pages.newer,
        pages.newer.length ? { Link: `${link('next', 'max_id', '111000000000000006')}, ${link('prev', 'min_id', '111000000000000006')}` } : {},
      )(request, res);
    }
    if (q.get('min_id')) return json([])(request, res);
    if (q.get('max_id') === '111000000000000003')
      return json(fixture('mastodon/statuses-page2.json'), { Link: link('next', 'max_id', '111000000000000001') })(request, res);
    if (q.get('max_id')) return json([])(request, res);
    json(fixture('mastodon/statuses-page1.json'), { Link: `${link('next', 'max_id', '111000000000000003')}, ${link('prev', 'min_id', '111000000000000004')}` })(
      request,
      res,
    );
  });
}

test('mastodon: public posts only, through Link pages back to the oldest; the next run reads forward from min_id', async () => {
  const s = await server();
  const pages = { newer: [] as unknown[] };
  mastodonServer(s, pages);
  const dirs = folders();
  const config = { account: 'alice@example.social', baseUrl: s.base };
  const first = ok(await sync('mastodon', config, dirs));
  assert.equal(first.report.counts.new, 2);
  assert.equal(first.report.dropped['posts that are not public'], 2);
  const posts = records(join(dirs.contentDir, 'tweets/mastodon-2026.yaml'));
  assert.deepEqual(
    posts.map((p) => [p.tweetId, p.author, p.createdAt]),
    [
      ['111000000000000002', '@alice@example.social', '2026-11-20T09:15:42Z'],
      ['111000000000000003', '@alice@example.social', '2026-11-28T21:30:11Z'],
    ],
  );
  assert.equal(posts[0]!.text, 'Ran the lake loop before work.\nCold & bright.');
  assert.equal(posts[1]!.authorName, 'Alice Example');
  assert.equal(cursorOf('mastodon', dirs.stateDir), '111000000000000004', 'the newest status read, public or not');
  pages.newer = JSON.parse(fixture('mastodon/statuses-new.json')) as unknown[];
  const second = ok(await sync('mastodon', config, dirs));
  assert.equal(second.report.counts.new, 1);
  assert.ok(
    s.seen.some((r) => r.url.searchParams.get('min_id') === '111000000000000006'),
    'followed rel="prev" forward',
  );
  assert.equal(cursorOf('mastodon', dirs.stateDir), '111000000000000006');
});

test('mastodon --prune: a post gone upstream is removed when the sync wrote it and nobody edited it; an edited one stays', async () => {
  const s = await server();
  const pages = { newer: [] as unknown[] };
  mastodonServer(s, pages);
  const dirs = folders();
  const config = { account: 'alice@example.social', baseUrl: s.base };
  ok(await sync('mastodon', config, dirs));
  // Both posts are deleted upstream; the owner edited one of them.
  s.route('GET', '/api/v1/accounts/109876543210987654/statuses', json([]));
  const file = join(dirs.contentDir, 'tweets/mastodon-2026.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('Ran the lake loop', 'Ran the LAKE loop'));
  const dry = ok(await sync('mastodon', config, dirs, { prune: true, dryRun: true }));
  assert.equal(dry.pruned.filter((l) => l.startsWith('pruned')).length, 1);
  assert.equal(records(file).length, 2, 'a dry run removes nothing');
  const pruned = ok(await sync('mastodon', config, dirs, { prune: true }));
  assert.deepEqual(pruned.pruned.map((l) => l.split(/\s+/)[0]).sort(), ['kept', 'pruned']);
  const left = records(file);
  assert.deepEqual(
    left.map((p) => p.tweetId),
    ['111000000000000002'],
    'the edited post stays',
  );
  const ledger = JSON.parse(readFileSync(join(dirs.contentDir, '.import/mastodon.json'), 'utf8')) as { records: Record<string, unknown> };
  assert.deepEqual(Object.keys(ledger.records), ['111000000000000002']);
});

test('github: public events become code records; an unchanged page is a 304, and newer events stop at the cursor', async () => {
  const s = await server();
  let body = fixture('github/events.json');
  let etag = 'W/"gh-1"';
  s.route('GET', '/users/alice/events/public', (request, res) => {
    if (request.url.searchParams.get('page') !== '1') return json([])(request, res);
    json(body, { ETag: etag, 'X-Poll-Interval': '60', 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '58' })(request, res);
  });
  const dirs = folders();
  const first = ok(await sync('github', { user: 'alice', baseUrl: s.base }, dirs));
  assert.equal(first.report.counts.new, 4);
  assert.equal(first.report.dropped['stars and forks'], 1);
  assert.equal(first.report.dropped['pushes without a commit list'], 1);
  const code = records(join(dirs.contentDir, 'code/github-2026.yaml'));
  assert.deepEqual(
    code.map((c) => [c.kind, c.title]),
    [
      ['repository', 'trailmap'],
      ['commit', 'Cache tiles per zoom level'],
      ['pull-request', 'doc: note that fetch follows redirects'],
      ['release', 'v1.2.0: offline maps'],
    ],
  );
  const before = snapshot(dirs.contentDir);
  const second = ok(await sync('github', { user: 'alice', baseUrl: s.base }, dirs));
  assert.equal(s.seen.at(-1)!.headers['if-none-match'], 'W/"gh-1"');
  assert.equal(second.requests, 1);
  assert.deepEqual(snapshot(dirs.contentDir), before);
  body = fixture('github/events-newer.json');
  etag = 'W/"gh-2"';
  const third = ok(await sync('github', { user: 'alice', baseUrl: s.base }, dirs, { secrets: { githubToken: 'ghp_secret' } }));
  assert.equal(third.report.counts.new, 1);
  assert.equal(s.seen.at(-1)!.headers.authorization, 'Bearer ghp_secret');
});

test('strava: the refresh grant rotates the token (kept in STATE_DIR at once); activities everyone may see, with the privacy radius', async () => {
  const s = await server();
  const grants: URLSearchParams[] = [];
  s.route('POST', '/oauth/token', (request, res) => {
    grants.push(new URLSearchParams(request.body));
    json(fixture('strava/token.json'), { 'X-RateLimit-Limit': '200,2000', 'X-RateLimit-Usage': '1,10' })(request, res);
  });
  s.route('GET', '/api/v3/athlete/activities', (request, res) => {
    assert.equal(request.headers.authorization, 'Bearer a9b723ac-access-1');
    json(request.url.searchParams.get('after') === '0' ? fixture('strava/activities.json') : [], {
      'X-RateLimit-Limit': '200,2000',
      'X-RateLimit-Usage': '2,11',
    })(request, res);
  });
  const dirs = folders();
  const first = ok(await sync('strava', { baseUrl: s.base }, dirs));
  assert.equal(grants[0]!.get('grant_type'), 'refresh_token');
  assert.equal(grants[0]!.get('refresh_token'), 'first-refresh-1');
  assert.equal(loadState(dirs.stateDir, 'strava').refreshToken, 'rotated-refresh-2');
  assert.equal(first.report.counts.new, 3);
  assert.equal(first.report.dropped['activities not visible to everyone'], 1);
  assert.match(first.notices.join('\n'), /Workout.*Pickleball/);
  const activities = records(join(dirs.contentDir, 'activities/strava-2026.yaml'));
  const run = activities.find((a) => a.stravaId === '16000000001')!;
  assert.equal(run.startDate, '2026-11-28T08:02:11+01:00', 'in the zone of the route');
  assert.equal(run.distanceMeters, 5012.3);
  assert.equal(run.averageHeartRate, 151.2);
  const coordinates = run.coordinates as { latitude: number; longitude: number };
  assert.ok(coordinates && Math.abs(coordinates.latitude - 52.52) + Math.abs(coordinates.longitude - 13.405) > 0.005, 'never the start (home)');
  assert.equal(activities.find((a) => a.stravaId === '16000000003')!.startDate, '2026-11-30T10:30:00+01:00', 'the activity’s own timezone');
  assert.equal(activities.find((a) => a.stravaId === '16000000004')!.sportType, 'Workout');
  const readable = readFileSync(join(dirs.contentDir, 'activities/strava-2026.yaml'), 'utf8');
  assert.doesNotMatch(readable, /rotated-refresh|a9b723ac|client-secret/, 'no secret in content');

  const before = snapshot(dirs.contentDir);
  ok(await sync('strava', { baseUrl: s.base }, dirs));
  assert.equal(grants[1]!.get('refresh_token'), 'rotated-refresh-2', 'the rotated token is used');
  assert.equal(s.seen.at(-1)!.url.searchParams.get('after'), String(Date.parse('2026-11-30T16:00:00Z') / 1000));
  assert.deepEqual(snapshot(dirs.contentDir), before);
});
