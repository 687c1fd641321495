/**
 * Issue 39, item 7 (and the politeness of item 4): one source's failure is its own. Each
 * way a service can fail — down, stalling mid-body, HTML with 200, malformed XML or JSON,
 * a feed of another shape, a body over the cap, a redirect to another host, a 429 — fails
 * that source with a message naming it and what was wrong, writes nothing for it, keeps
 * its kind for the status document, and the other sources still sync. A 429 with a short
 * `Retry-After` is waited out once; a redirect on the same host is followed.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { syncAll, syncSource } from '../../src/sync/run.ts';
import { loadState } from '../../src/sync/state.ts';
import { snapshot, tempDir } from '../import/harness.ts';
import { answer, fixture, json, replay } from './replay.ts';

const RSS = { 'Content-Type': 'application/rss+xml' };
const LIMITS = { connectTimeoutMs: 500, idleTimeoutMs: 300, totalTimeoutMs: 2000, bytesMax: 64 * 1024 };

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('each failure is its source’s own: named, nothing written for it, kind kept; the others sync', async () => {
  const good = await replay();
  const bad = await replay();
  const other = await replay();
  try {
    good.route('GET', '/alice/rss/', answer(fixture('letterboxd/rss.xml'), RSS));
    // goodreads: malformed XML (cut off mid-item)
    bad.route('GET', '/review/list_rss/12345', answer(fixture('goodreads/read.xml').slice(0, 1500), RSS));
    // listenbrainz: headers, half a body, then silence
    bad.route('GET', '/1/user/alice/listens', (_request, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"payload": {"count": 3, "listens": [');
    });
    // mastodon: HTML with 200 (a login wall)
    bad.route('GET', '/api/v1/accounts/lookup', answer('<!DOCTYPE html><html><body>Sign in</body></html>', { 'Content-Type': 'text/html; charset=utf-8' }));
    // github: a body over the cap
    bad.route('GET', '/users/alice/events/public', json(`[${'{"id":"1","type":"WatchEvent"},'.repeat(4000)}{"id":"0","type":"WatchEvent"}]`));
    const strava = `http://127.0.0.1:${await closedPort()}`;
    const contentDir = tempDir('sync-fail');
    const stateDir = tempDir('sync-fail-state');
    const outcomes = await syncAll(
      {
        letterboxd: { user: 'alice', baseUrl: good.base },
        goodreads: { userId: '12345', shelves: ['read'], baseUrl: bad.base },
        listenbrainz: { user: 'alice', baseUrl: bad.base },
        mastodon: { account: 'alice@example.social', baseUrl: bad.base },
        github: { user: 'alice', baseUrl: bad.base },
        strava: { baseUrl: strava },
      },
      ['goodreads', 'listenbrainz', 'mastodon', 'letterboxd', 'github', 'strava'],
      { contentDir, stateDir, userAgent: 'test', secrets: { stravaClientId: '1', stravaClientSecret: 's', stravaRefreshToken: 'r' }, limits: LIMITS },
    );
    const byName = Object.fromEntries(outcomes.map((o) => [o.source, o]));
    assert.ok(byName.letterboxd!.ok, 'the good source synced after three failures');
    const expected: Record<string, [string, RegExp]> = {
      goodreads: ['malformed', /^goodreads: .*\/review\/list_rss\/12345 answered XML that does not parse/],
      listenbrainz: ['timeout', /^listenbrainz: .*\/1\/user\/alice\/listens: the answer stalled/],
      mastodon: ['not-a-feed', /^mastodon: .*answered an HTML page, not JSON/],
      github: ['too-large', /^github: .*larger than 65536 bytes/],
      strava: ['unreachable', /^strava: .*\/oauth\/token: could not be reached/],
    };
    for (const [name, [kind, message]] of Object.entries(expected)) {
      const outcome = byName[name]!;
      assert.ok(!outcome.ok, name);
      if (outcome.ok) continue;
      assert.equal(outcome.kind, kind, `${name}: ${outcome.message}`);
      assert.match(outcome.message, message);
      assert.doesNotMatch(outcome.message, /\?/, 'never a query (it may hold a key)');
      assert.equal(loadState(stateDir, name).lastFailure?.kind, kind);
    }
    assert.deepEqual(
      [...snapshot(contentDir).keys()].filter((f) => !f.startsWith('.import/')),
      ['movies/letterboxd-2026.yaml'],
      'nothing written for a failed source',
    );
  } finally {
    await Promise.all([good.close(), bad.close(), other.close()]);
  }
});

test('a feed of another shape, wrong JSON shapes and a redirect to another host fail their source; a redirect on the host is followed', async () => {
  const s = await replay();
  const elsewhere = await replay();
  try {
    const dirs = { contentDir: tempDir('sync-shape'), stateDir: tempDir('sync-shape-state'), userAgent: 'test', secrets: {}, limits: LIMITS };
    s.route('GET', '/alice/rss/', answer('<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>not rss</title></feed>', RSS));
    let outcome = await syncSource('letterboxd', { user: 'alice', baseUrl: s.base }, dirs);
    assert.ok(!outcome.ok && outcome.kind === 'wrong-shape', JSON.stringify(outcome));
    s.route('GET', '/1/user/alice/listens', json({ listens: [] }));
    outcome = await syncSource('listenbrainz', { user: 'alice', baseUrl: s.base }, dirs);
    assert.ok(!outcome.ok && outcome.kind === 'wrong-shape' && /payload/.test(outcome.message), JSON.stringify(outcome));
    s.route('GET', '/users/alice/events/public', json('{"id": 1, '));
    outcome = await syncSource('github', { user: 'alice', baseUrl: s.base }, dirs);
    assert.ok(!outcome.ok && outcome.kind === 'malformed', JSON.stringify(outcome));
    // Letterboxd answers 301 for a feed URL without its last slash: followed on the same host…
    s.route('GET', '/bob/rss/', (_request, res) => void res.writeHead(301, { Location: '/bob/rss/feed/' }).end());
    s.route('GET', '/bob/rss/feed/', answer(fixture('letterboxd/rss.xml'), RSS));
    outcome = await syncSource('letterboxd', { user: 'bob', baseUrl: s.base }, dirs);
    assert.ok(outcome.ok, JSON.stringify(outcome));
    // …never to another host.
    s.route('GET', '/carol/rss/', (_request, res) => void res.writeHead(302, { Location: `${elsewhere.base}/carol/rss/` }).end());
    elsewhere.route('GET', '/carol/rss/', answer(fixture('letterboxd/rss.xml'), RSS));
    outcome = await syncSource('letterboxd', { user: 'carol', baseUrl: s.base }, dirs);
    assert.ok(!outcome.ok && outcome.kind === 'redirect' && /another host/.test(outcome.message), JSON.stringify(outcome));
    assert.equal(elsewhere.seen.length, 0, 'the other host was never asked');
    // A redirect loop stops at the cap (syncRedirectsMax).
    s.route('GET', '/dave/rss/', (_request, res) => void res.writeHead(301, { Location: '/dave/rss/' }).end());
    outcome = await syncSource('letterboxd', { user: 'dave', baseUrl: s.base }, dirs);
    assert.ok(!outcome.ok && outcome.kind === 'redirect' && /more than 3 redirects/.test(outcome.message), JSON.stringify(outcome));
  } finally {
    await Promise.all([s.close(), elsewhere.close()]);
  }
});

test('a 429 with a short Retry-After is waited out once; a long one stops the source as rate-limited', async () => {
  const s = await replay();
  try {
    const dirs = { contentDir: tempDir('sync-429'), stateDir: tempDir('sync-429-state'), userAgent: 'test', secrets: {}, limits: LIMITS };
    let calls = 0;
    s.route('GET', '/alice/rss/', (request, res) => {
      if (calls++ === 0) return void res.writeHead(429, { 'Retry-After': '1' }).end();
      answer(fixture('letterboxd/rss.xml'), RSS)(request, res);
    });
    const started = Date.now();
    const outcome = await syncSource('letterboxd', { user: 'alice', baseUrl: s.base }, dirs);
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.ok(Date.now() - started >= 950, 'waited the second it was told');
    assert.equal(outcome.requests, 2);
    s.route('GET', '/bob/rss/', (_request, res) => void res.writeHead(429, { 'Retry-After': '3600' }).end());
    const limited = await syncSource('letterboxd', { user: 'bob', baseUrl: s.base }, dirs);
    assert.ok(!limited.ok && limited.kind === 'rate-limited' && /retry after 3600 s/.test(limited.message), JSON.stringify(limited));
  } finally {
    await s.close();
  }
});

test('a service’s own budget headers stop the paging short of its limit, and the run’s request budget is bounded', async () => {
  const s = await replay();
  try {
    const dirs = { contentDir: tempDir('sync-budget'), stateDir: tempDir('sync-budget-state'), userAgent: 'test', secrets: {} };
    const page = (n: number) =>
      Array.from({ length: 100 }, (_, i) => ({
        id: String(90_000 - n * 100 - i),
        type: 'WatchEvent',
        public: true,
        created_at: '2026-11-30T00:00:00Z',
        repo: { name: 'a/b' },
      }));
    s.route('GET', '/users/alice/events/public', (request, res) => {
      const n = Number(request.url.searchParams.get('page'));
      json(page(n), { 'X-RateLimit-Remaining': n === 1 ? '5' : '100' })(request, res);
    });
    const outcome = await syncSource('github', { user: 'alice', baseUrl: s.base }, dirs);
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.equal(outcome.requests, 1, 'stopped: only the reserve was left');
    assert.equal(outcome.partial, true);
    const strava = await replay();
    try {
      strava.route('POST', '/oauth/token', json({ access_token: 'a', refresh_token: 'r' }));
      let asked = 0;
      strava.route('GET', '/api/v3/athlete/activities', (request, res) => {
        asked++;
        const activities = Array.from({ length: 100 }, (_, i) => ({
          id: asked * 1000 + i,
          start_date: `2026-11-${String(1 + (asked % 28)).padStart(2, '0')}T07:00:00Z`,
          name: 'Run',
          sport_type: 'Run',
          visibility: 'everyone',
        }));
        json(activities, { 'X-RateLimit-Limit': '100,1000', 'X-RateLimit-Usage': `${asked * 10},${asked * 10}` })(request, res);
      });
      const limited = await syncSource(
        'strava',
        { baseUrl: strava.base },
        { ...dirs, secrets: { stravaClientId: '1', stravaClientSecret: 's', stravaRefreshToken: 'r' }, limits: { requestsMax: 4 } },
      );
      assert.ok(limited.ok, JSON.stringify(limited));
      assert.equal(limited.requests, 4, 'the token and three pages: the run’s budget');
      assert.equal(limited.partial, true);
    } finally {
      await strava.close();
    }
  } finally {
    await s.close();
  }
});

test('a trickle that never ends stops at the total timeout; a service’s own address never reaches a private one', async () => {
  const s = await replay();
  try {
    const dirs = { contentDir: tempDir('sync-trickle'), stateDir: tempDir('sync-trickle-state'), userAgent: 'test', secrets: {}, limits: LIMITS };
    s.route('GET', '/alice/rss/', (_request, res) => {
      res.writeHead(200, RSS);
      // A byte every 100 ms: never idle for the idle timeout, never done.
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 100);
    });
    const started = Date.now();
    const outcome = await syncSource('letterboxd', { user: 'alice', baseUrl: s.base }, dirs);
    assert.ok(!outcome.ok && outcome.kind === 'timeout' && /no complete answer within 2000 ms/.test(outcome.message), JSON.stringify(outcome));
    assert.ok(Date.now() - started < 4000);
    // Without a baseUrl the instance is the account's host, fenced like any address others choose.
    const fenced = await syncSource('mastodon', { account: 'alice@localhost' }, dirs);
    assert.ok(!fenced.ok && fenced.kind === 'private', JSON.stringify(fenced));
    const literal = await syncSource('mastodon', { account: 'alice@127.0.0.1' }, dirs);
    assert.ok(!literal.ok && literal.kind === 'private', JSON.stringify(literal));
  } finally {
    await s.close();
  }
});
