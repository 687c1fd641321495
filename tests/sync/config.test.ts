/**
 * Issue 39, item 2: `sync.yaml` is checked whole (every problem at once, unknown keys
 * refused), and `npm run sync` runs the configured sources, names the failed ones on
 * stderr and says so in its exit status (1), with 2 for a usage or configuration
 * mistake. Property tests for the small parsers a sync leans on (RFC 8288 `Link`, RFC 822
 * days, encoded polylines).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { config } from '../../src/config.ts';
import { LIMITS } from '../../src/core/limits.ts';
import { parseSyncConfig, readSyncConfig, SyncConfigError } from '../../src/sync/config.ts';
import { budgetLeft, waitSeconds } from '../../src/sync/client.ts';
import { dayOf } from '../../src/sync/parse.ts';
import { links } from '../../src/sync/sources/mastodon.ts';
import { decodePolyline } from '../../src/sync/sources/strava.ts';
import { snapshot, tempDir } from '../import/harness.ts';
import { answer, fixture, replay } from './replay.ts';

test('sync.yaml: the issue’s keys parse; every problem is reported at once', () => {
  const parsed = parseSyncConfig(`
letterboxd: { user: alice }                 # https://letterboxd.com/alice/rss/
goodreads: { userId: "12345", shelves: [read, currently-reading] }
listenbrainz: { user: alice }
mastodon: { account: alice@example.social } # the instance is the baseUrl
github: { user: alice }
strava: {}                                  # credentials from the environment
`);
  assert.deepEqual(parsed.goodreads, { userId: '12345', shelves: ['read', 'currently-reading'] });
  assert.deepEqual(parsed.strava, {});
  assert.equal(parsed.mastodon?.account, 'alice@example.social');
  assert.equal(parseSyncConfig('letterboxd: { user: alice, baseUrl: "http://127.0.0.1:9/" }').letterboxd?.baseUrl, 'http://127.0.0.1:9');
  assert.throws(
    () => parseSyncConfig('letterbox: { user: a }\ngoodreads: { userId: abc, shelves: [] }\nstrava: { token: x }\nmastodon: { account: alice }'),
    (error: unknown) => {
      assert.ok(error instanceof SyncConfigError);
      assert.equal(error.problems.length, 5, error.message);
      assert.match(error.message, /letterbox: not a source/);
      assert.match(error.message, /goodreads\.userId/);
      assert.match(error.message, /goodreads\.shelves: expected at least one shelf/);
      assert.match(error.message, /strava: .*token/i);
      assert.match(error.message, /mastodon\.account: expected user@instance/);
      return true;
    },
  );
  assert.throws(() => parseSyncConfig('[a, b]'), SyncConfigError);
  assert.throws(() => parseSyncConfig('a: [\n'), /not YAML/);
});

test('the polite client’s header rules: Retry-After in seconds or as a date, GitHub’s reset, Strava’s usage', () => {
  assert.equal(waitSeconds({ 'retry-after': '120' }), 120);
  assert.equal(waitSeconds({ 'retry-after': new Date(Date.UTC(2026, 0, 1, 0, 1)).toUTCString() }, Date.UTC(2026, 0, 1)), 60);
  assert.equal(waitSeconds({ 'x-ratelimit-reset': '1767225630' }, 1767225600_000), 30);
  assert.equal(waitSeconds({}), undefined);
  assert.equal(budgetLeft({ 'x-ratelimit-remaining': '5' }, 5), false);
  assert.equal(budgetLeft({ 'x-ratelimit-remaining': '6' }, 5), true);
  assert.equal(budgetLeft({ 'x-ratelimit-limit': '200,2000', 'x-ratelimit-usage': '196,400' }, 5), false);
  assert.equal(budgetLeft({ 'x-ratelimit-limit': '200,2000', 'x-ratelimit-usage': '20,1996' }, 5), false);
  assert.equal(budgetLeft({ 'x-readratelimit-limit': '100,1000', 'x-readratelimit-usage': '10,10' }, 5), true);
});

test('parsers never throw and read back what was written: Link, RFC 822 days, polylines', () => {
  const seed = config().FC_SEED;
  fc.assert(
    fc.property(fc.string({ maxLength: 300 }), (text) => {
      links(text);
      dayOf(text);
      decodePolyline(text);
    }),
    { seed },
  );
  const id = fc.bigInt({ min: 1n, max: 2n ** 63n }).map(String);
  fc.assert(
    fc.property(id, id, (next, prev) => {
      const header = `<https://example.social/api/v1/accounts/1/statuses?max_id=${next}>; rel="next", <https://example.social/api/v1/accounts/1/statuses?min_id=${prev}>; rel="prev"`;
      const found = links(header);
      assert.equal(new URL(found.next!).searchParams.get('max_id'), next);
      assert.equal(new URL(found.prev!).searchParams.get('min_id'), prev);
    }),
    { seed },
  );
  fc.assert(
    fc.property(fc.date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }), (date) => {
      assert.equal(dayOf(date.toUTCString()), date.toISOString().slice(0, 10));
    }),
    { seed },
  );
  // Google's own example of the encoding.
  assert.deepEqual(
    decodePolyline('_p~iF~ps|U_ulLnnqC_mqNvxq`@').map((p) => [p.latitude, p.longitude]),
    [
      [38.5, -120.2],
      [40.7, -120.95],
      [43.252, -126.453],
    ],
  );
});

/** The CLI as the owner runs it, in a child process; asynchronous, so this process's replay server can answer it. */
function runSync(args: readonly string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['src/sync/cli.ts', ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

test('npm run sync: configured sources run; the exit status names a failure; a bad sync.yaml is a usage mistake', async () => {
  const s = await replay();
  try {
    s.route('GET', '/alice/rss/', answer(fixture('letterboxd/rss.xml'), { 'Content-Type': 'application/rss+xml', ETag: '"x"' }));
    s.route('GET', '/1/user/alice/listens', answer('<html><body>Maintenance</body></html>', { 'Content-Type': 'text/html' }));
    const dir = tempDir('sync-cli');
    const content = join(dir, 'content');
    const file = join(dir, 'sync.yaml');
    writeFileSync(file, `letterboxd: { user: alice, baseUrl: "${s.base}" }\nlistenbrainz: { user: alice, baseUrl: "${s.base}" }\n`);
    const env = { SYNC_CONFIG: file, CONTENT_DIR: content, STATE_DIR: join(dir, 'state') };
    const dry = await runSync(['letterboxd', '--dry-run'], env);
    assert.equal(dry.status, 0, dry.stderr);
    assert.match(dry.stdout, /letterboxd → movies: 2 new/);
    assert.match(dry.stdout, /dry run: nothing written/);
    assert.equal(snapshot(content).size, 0);
    const run = await runSync([], env);
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stdout, /letterboxd → movies: 2 new, 0 same/);
    assert.match(run.stderr, /listenbrainz: FAILED \(not-a-feed\)/);
    assert.match(run.stderr, /sync failed for: listenbrainz/);
    const again = await runSync(['letterboxd'], env);
    assert.equal(again.status, 0);
    assert.match(again.stdout, /0 new, 0 same, 0 changed/);
    writeFileSync(file, 'letterboxd: { usr: alice }\n');
    const bad = await runSync([], env);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /letterboxd: .*usr/);
    assert.equal((await runSync(['nope'], env)).status, 2);
    assert.equal((await runSync(['--since', 'yesterday'], env)).status, 2);
  } finally {
    await s.close();
  }
});

test('a sync.yaml over syncConfigBytesMax, or absent, is refused before it is parsed', () => {
  const dir = tempDir('sync-config-size');
  const big = join(dir, 'sync.yaml');
  writeFileSync(big, `# ${'x'.repeat(LIMITS.syncConfigBytesMax)}\nletterboxd: { user: alice }\n`);
  assert.throws(() => readSyncConfig(big), /syncConfigBytesMax/);
  assert.throws(() => readSyncConfig(join(dir, 'none.yaml')), /does not exist/);
  assert.throws(
    () => parseSyncConfig(`goodreads: { userId: "1", shelves: [${Array.from({ length: LIMITS.syncShelvesMax + 1 }, (_, i) => `s${i}`).join(', ')}] }`),
    /syncShelvesMax/,
  );
});
