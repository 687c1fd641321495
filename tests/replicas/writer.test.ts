/**
 * One writer: the replica with the owner lane set up publishes each owner write's
 * rebuild as a release (and the Redis notice), so the replicas that follow releases
 * serve the write within seconds; the time is measured and printed. Runs `server.ts`
 * processes on the built `dist/`, the writer on a copy of the content. Needs Redis (the
 * notice); skipped with the reason without one.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, test } from 'node:test';
import { mintOwnerToken, OWNER_LANE, release, setStance, stanceAt, startReplica, untilServed } from '../../bench/replica-harness.ts';
import { STANCES } from '../../src/collections/music.ts';
import { SOURCES_TABLE } from '../../src/core/image.ts';
import { buildLayout, paths } from '../../src/paths.ts';
import { needRedis, REDIS_URL, testChannel } from './redis.ts';

const SITE_URL = 'https://writer.test';
const root = mkdtempSync(join(tmpdir(), 'writer-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('an owner write at the writer is served by every replica within seconds', async (t) => {
  if (!(await needRedis(t))) return;
  const releasesDir = join(root, 'releases');
  const content = join(root, 'content');
  const stateDir = join(root, 'state');
  cpSync('content', content, { recursive: true });
  const token = mintOwnerToken(stateDir, SITE_URL, 'writer-test');
  const shared = { RELEASES_DIR: releasesDir, REDIS_URL, RELEASES_CHANNEL: testChannel('writer') };
  await release(shared);
  const writer = await startReplica({ ...shared, CONTENT_DIR: content, STATE_DIR: stateDir, SITE_URL, ...OWNER_LANE });
  const followers = [await startReplica(shared), await startReplica(shared)];
  try {
    const image = new DatabaseSync(buildLayout(paths.dist).image, { readOnly: true });
    const row = image.prepare(`SELECT cid FROM ${SOURCES_TABLE} WHERE file = 'music/albums.yaml' ORDER BY entry LIMIT 1`).get() as { cid: string };
    image.close();
    const before = await stanceAt(followers[0]!.base, row.cid);
    const stance = STANCES[(STANCES.indexOf((before ?? 'like') as (typeof STANCES)[number]) + 1) % STANCES.length]!;
    const sent = performance.now();
    const answer = await setStance(writer.base, token, row.cid, stance, 'writer-1');
    assert.equal(answer.isError, undefined, answer.content[0]?.text);
    const acknowledged = performance.now();
    const servedMs = await untilServed(
      followers.map((f) => f.base),
      acknowledged,
      async (base) => (await stanceAt(base, row.cid)) === stance,
      20,
    );
    assert.equal(await stanceAt(writer.base, row.cid), stance);
    // The followers serve one release, and answer alike.
    const [a, b] = await Promise.all(followers.map((f) => fetch(`${f.base}/api/music.json?limit=100`)));
    assert.equal(a!.headers.get('ETag'), b!.headers.get('ETag'));
    console.log(`# owner write answered in ${Math.round(acknowledged - sent)} ms; every replica served it ${Math.round(servedMs)} ms after the answer`);
  } finally {
    await Promise.all([writer, ...followers].map((r) => r.stop()));
  }
});
