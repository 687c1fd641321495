/**
 * Issue 39, item 6: the scheduled sync on the writer runs each configured source, staggered,
 * one at a time, hands what it wrote to the rebuild, and `/api/status.json` shows per
 * source when it last succeeded and the kind of its last failure — no URL, no secret.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { test } from 'node:test';
import { createStatusHandler } from '../../functions/status.ts';
import { readConfig } from '../../src/config.ts';
import type { Image } from '../../src/core/image.ts';
import { LIMITS } from '../../src/core/limits.ts';
import { factsOf } from '../../src/http/answer.ts';
import { staggerSeconds, startScheduledSync } from '../../src/sync/schedule.ts';
import { tempDir } from '../import/harness.ts';
import { answer, fixture, replay } from './replay.ts';

test('sources are spread over the interval, at most a minute apart', () => {
  assert.equal(staggerSeconds(3600, 6), 60);
  assert.equal(staggerSeconds(300, 6), 50);
  assert.equal(staggerSeconds(300, 1), 0);
});

test('a scheduled run syncs, rebuilds what it wrote, and the status document says how each source fared', async () => {
  const s = await replay();
  const dir = tempDir('sync-schedule');
  const settings = readConfig({
    CONTENT_DIR: join(dir, 'content'),
    STATE_DIR: join(dir, 'state'),
    SITE_URL: 'https://alice.example',
    GITHUB_TOKEN: 'ghp_topsecret',
  });
  s.route('GET', '/alice/rss/', answer(fixture('letterboxd/rss.xml'), { 'Content-Type': 'application/rss+xml' }));
  s.route('GET', '/users/alice/events/public', answer('<html>rate limit page</html>', { 'Content-Type': 'text/html' }));
  const rebuilt: string[][] = [];
  const scheduled = startScheduledSync({
    settings,
    intervalSeconds: 300,
    staggerSeconds: 0,
    rebuild: async (paths) => void rebuilt.push([...paths]),
    log: () => {},
    config: { letterboxd: { user: 'alice', baseUrl: s.base }, github: { user: 'alice', baseUrl: `${s.base}/` } },
  });
  try {
    assert.deepEqual(scheduled.status(), { letterboxd: { lastSuccess: null, lastFailure: null }, github: { lastSuccess: null, lastFailure: null } });
    await delay(50);
    await scheduled.idle();
    assert.deepEqual(rebuilt, [[join(dir, 'content', 'movies/letterboxd-2026.yaml')]]);
    assert.equal(s.seen[0]!.headers['user-agent'], 'collections-sync/1 (+https://alice.example)');
    const image = { count: () => 0, asOf: () => '2026-12-01T00:00:00Z' } as unknown as Image;
    const status = createStatusHandler(image, { draining: false, sync: scheduled.status });
    const answered = status(factsOf(new Request('http://localhost/api/status.json')));
    const text = answered.body!.toString();
    const body = JSON.parse(text) as { sync: Record<string, { lastSuccess: string | null; lastFailure: { kind: string } | null }> };
    assert.match(body.sync.letterboxd!.lastSuccess!, /^\d{4}-\d{2}-\d{2}T/);
    assert.equal(body.sync.letterboxd!.lastFailure, null);
    assert.equal(body.sync.github!.lastSuccess, null);
    assert.equal(body.sync.github!.lastFailure!.kind, 'not-a-feed');
    assert.doesNotMatch(text, /127\.0\.0\.1|ghp_topsecret|alice\/rss/, 'no URL, no secret');
    // A new process starts from what the last one left in STATE_DIR.
    const next = startScheduledSync({ settings, intervalSeconds: 300, rebuild: async () => {}, log: () => {}, config: { github: { user: 'alice' } } });
    next.stop();
    assert.equal(next.status().github!.lastFailure!.kind, 'not-a-feed');
  } finally {
    scheduled.stop();
    await s.close();
  }
});

test('the server stops at start-up, exit status 2, on a SYNC_INTERVAL below its limit or a sync.yaml it cannot use', () => {
  const dir = tempDir('sync-serve-bad');
  const start = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['server.ts'], {
      env: { ...process.env, PORT: '0', STATE_DIR: join(dir, 'state'), ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });
  const short = start({ SYNC_INTERVAL: '10' });
  assert.equal(short.status, 2);
  assert.match(short.stderr, new RegExp(`SYNC_INTERVAL must be a whole number from ${LIMITS.syncIntervalMinSeconds}`));
  const missing = start({ SYNC_INTERVAL: '300', SYNC_CONFIG: join(dir, 'none.yaml') });
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /SYNC_INTERVAL is set, but .*none\.yaml does not exist/);
});
