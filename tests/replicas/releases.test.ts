/**
 * Releases that every replica follows (src/release/): `npm run release` publishes the
 * build under `RELEASES_DIR`; replicas started with it serve byte-identical answers,
 * ETags and cursors; a release published under load is served by every replica without
 * a failed request (the Redis notice, when Redis answers); a half-written or damaged
 * release is never served. Needs `npm run build`.
 *
 * @slow: several replicas start, publish and follow releases (scripts/test.ts starts it first, in a process of its own).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { editedBuild as editedCopy, release, startReplica, untilServed } from '../../bench/replica-harness.ts';
import { ReleaseFollower } from '../../src/release/follow.ts';
import { listReleases, MANIFEST_NAME, objectPath } from '../../src/release/release.ts';
import { paths } from '../../src/paths.ts';
import { startBalancer } from './balancer.ts';
import { needRedis, REDIS_URL, testChannel } from './redis.ts';

const root = mkdtempSync(join(tmpdir(), 'releases-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A second build: the first with one file's body (and ETag) changed, as a content edit would. */
const editedBuild = (marker: string) => editedCopy(paths.dist, join(root, `dist-${marker}`), marker);

const statusOf = async (base: string) => (await (await fetch(`${base}/api/status.json`)).json()) as { release?: string };

test('replicas of one release answer byte for byte alike, ETags and cursors included', async () => {
  const dir = join(root, 'identical');
  const id = await release({ RELEASES_DIR: dir });
  const replicas = [await startReplica({ RELEASES_DIR: dir }), await startReplica({ RELEASES_DIR: dir })];
  try {
    for (const replica of replicas) assert.equal((await statusOf(replica.base)).release, id);
    for (const target of [
      '/api/movies.json?limit=3&sort=title',
      '/api/places.json?limit=5',
      '/movies/',
      '/llms.txt',
      '/api/books.json?q=the',
      '/places.geojson',
    ]) {
      const [a, b] = await Promise.all(replicas.map((r) => fetch(r.base + target)));
      assert.equal(a!.status, 200, target);
      assert.equal(a!.headers.get('ETag'), b!.headers.get('ETag'), `${target}: ETag`);
      assert.deepEqual(Buffer.from(await a!.arrayBuffer()), Buffer.from(await b!.arrayBuffer()), `${target}: body`);
    }
    // A cursor from one replica works on the other, and leads to the same page.
    const first = (await (await fetch(`${replicas[0]!.base}/api/movies.json?limit=2`)).json()) as { links?: { next?: string } };
    const link = (await fetch(`${replicas[0]!.base}/api/movies.json?limit=2`)).headers.get('Link')!;
    const next = /<([^>]+)>; rel="next"/.exec(link)![1]!;
    void first;
    const [onA, onB] = await Promise.all(replicas.map((r) => fetch(r.base + next)));
    assert.equal(onB!.status, 200);
    assert.equal(await onA!.text(), await onB!.text());
  } finally {
    await Promise.all(replicas.map((r) => r.stop()));
  }
});

test('a replica that is not the writer answers the owner lane and OAuth with 421, naming the fix', async () => {
  const dir = join(root, 'follower');
  await release({ RELEASES_DIR: dir });
  const replica = await startReplica({ RELEASES_DIR: dir });
  try {
    for (const target of [
      '/owner/mcp',
      '/oauth/register',
      '/oauth/token',
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-protected-resource/owner/mcp',
    ]) {
      const response = await fetch(replica.base + target, { method: target.startsWith('/.well-known') ? 'GET' : 'POST' });
      assert.equal(response.status, 421, target);
      assert.equal(response.headers.get('Content-Type'), 'application/problem+json');
      const problem = (await response.json()) as { type: string; detail: string };
      assert.match(problem.type, /\/problems\/misdirected-request$/);
      assert.match(problem.detail, /writer/);
    }
    assert.equal((await fetch(`${replica.base}/api/movies.json`)).status, 200, 'reads are served');
  } finally {
    await replica.stop();
  }
});

test('a half-written release is never served, and a damaged one is refused while the current one keeps serving', async () => {
  const dir = join(root, 'damaged');
  const good = await release({ RELEASES_DIR: dir });
  const adopted: string[] = [];
  const follower = new ReleaseFollower({ releasesDir: dir, adopt: async (r) => void adopted.push(r.manifest.id), log: () => undefined });
  assert.equal(await follower.check(), good);
  // A newer release whose manifest has not landed yet: its objects are there, its release.json is not.
  const newer = await release({ RELEASES_DIR: dir, DIST_DIR: editedBuild('half') });
  const manifestPath = join(dir, newer, MANIFEST_NAME);
  const manifest = readFileSync(manifestPath);
  unlinkSync(manifestPath);
  assert.equal(await follower.check(), good);
  // The manifest lands, but one object was damaged on the shared volume: refused, hash named.
  writeFileSync(manifestPath, manifest);
  const edited = listReleases(dir).find((r) => r.id === newer)!;
  const llms = objectPath(dir, edited.files['/llms.txt']!.sha256);
  const original = readFileSync(llms);
  writeFileSync(llms, Buffer.concat([original, Buffer.from('tampered')]));
  assert.equal(await follower.check(), good);
  assert.deepEqual(adopted, [good]);
  // Published again whole (a fresh follower has not refused it), it is served.
  writeFileSync(llms, original);
  const fresh = new ReleaseFollower({
    releasesDir: dir,
    current: listReleases(dir).find((r) => r.id === good),
    adopt: async (r) => void adopted.push(r.manifest.id),
    log: () => undefined,
  });
  assert.equal(await fresh.check(), newer);
});

test('a release published under load is served by every replica, without a failed request', async (t) => {
  if (!(await needRedis(t))) return;
  const dir = join(root, 'under-load');
  const channel = testChannel('releases');
  // The quota is lifted: one test client is the whole load (shared in Redis), which a fast machine takes past 1000 a minute.
  const env = { RELEASES_DIR: dir, REDIS_URL, RELEASES_CHANNEL: channel, RATE_LIMIT_REQUESTS: '1000000' };
  release(env);
  const replicas = [await startReplica(env), await startReplica(env)];
  const balancer = await startBalancer(replicas.map((r) => r.address));
  const failures: string[] = [];
  let sent = 0;
  let running = true;
  const worker = async () => {
    while (running && sent < 20_000) {
      sent += 1;
      const target = ['/api/movies.json?limit=5', '/llms.txt', '/movies/', '/api/places.json?sort=name'][sent % 4]!;
      try {
        const response = await fetch(balancer.base + target);
        await response.arrayBuffer();
        if (response.status !== 200) failures.push(`${target}: ${response.status}`);
      } catch (error) {
        failures.push(`${target}: ${(error as Error).message} ${String((error as Error).cause)}`);
      }
    }
  };
  try {
    const load = Promise.all(Array.from({ length: 4 }, worker));
    while (sent < 200) await new Promise((resolve) => setImmediate(resolve));
    const dist = editedBuild('under-load');
    const started = performance.now();
    const id = await release({ ...env, DIST_DIR: dist });
    const published = performance.now();
    const servedMs = await untilServed(
      replicas.map((r) => r.base),
      published,
      async (base) => (await statusOf(base)).release === id,
      20,
    );
    const sentAfter = sent;
    while (sent < sentAfter + 200) await new Promise((resolve) => setImmediate(resolve));
    running = false;
    await load;
    for (const replica of replicas) assert.match(await (await fetch(`${replica.base}/llms.txt`)).text(), /under-load\n$/);
    assert.deepEqual(failures, [], `no failed request of ${sent}; ${replicas.map((r) => r.output()).join('\n')}`);
    console.log(
      `# ${sent} requests, 0 failed; \`npm run release\` took ${Math.round(published - started)} ms; both replicas served the release ${Math.round(servedMs)} ms after it returned`,
    );
  } finally {
    running = false;
    await balancer.close();
    await Promise.all(replicas.map((r) => r.stop()));
  }
});
