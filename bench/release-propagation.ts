/**
 * `npm run bench:release`: the time from a release to every replica serving it, on the
 * build in `dist/` (run `npm run build` first). Starts two replicas following a fresh
 * `RELEASES_DIR` and a writer (owner lane set up, a copy of the content), then, `--rounds`
 * times (3 by default): publishes an edited build with `npm run release` and times
 * publish → every replica's `/api/status.json` naming it; makes an owner write
 * (`music.set_stance`) and times its answer → every replica serving the new stance.
 * Uses Redis at `REDIS_URL` (default redis://127.0.0.1:6379) for the notice; without an
 * answering Redis the replicas find releases by their periodic check instead, and the
 * figures say so. Prints one JSON document.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs, promisify } from 'node:util';
import { Redis } from 'ioredis';
import { STANCES } from '../src/collections/music.ts';
import { SOURCES_TABLE } from '../src/core/image.ts';
import { SqliteOAuthStore } from '../src/oauth/store.ts';
import { buildLayout, paths } from '../src/paths.ts';
import { OAUTH_URLS } from '../src/urls.ts';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '3' } } });
const rounds = Number(args.rounds);
const SITE_URL = 'https://bench.test';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const root = mkdtempSync(join(tmpdir(), 'bench-release-'));
const children: ChildProcess[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function redisAnswers(): Promise<boolean> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

async function start(env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, ['--max-semi-space-size=4', 'server.ts'], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  while (!/listening on (http:\/\/\S+)/.test(out)) {
    if (child.exitCode !== null) throw new Error(`a replica did not start: ${out}`);
    await sleep(20);
  }
  return /listening on (http:\/\/\S+)/.exec(out)![1]!;
}

/** A copy of the build with one file changed, as a content edit would change it. */
function editedBuild(marker: string): string {
  const dist = join(root, `dist-${marker}`);
  cpSync(paths.dist, dist, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(dist, 'headers.json'), 'utf8')) as Record<string, { file: string; headers: Record<string, string> }>;
  const entry = manifest['/llms.txt']!;
  writeFileSync(join(dist, 'client', entry.file), `${readFileSync(join(dist, 'client', entry.file), 'utf8')}\n${marker}\n`);
  entry.headers.ETag = `"${marker}"`;
  writeFileSync(join(dist, 'headers.json'), JSON.stringify(manifest));
  return dist;
}

async function release(env: Record<string, string>): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['src/release/cli.ts'], { env: { ...process.env, ...env } });
  return /release (\w+) published/.exec(stdout)![1]!;
}

/** Milliseconds from `since` until `served(base)` holds on every replica. */
async function untilServed(bases: string[], since: number, served: (base: string) => Promise<boolean>): Promise<number> {
  for (const base of bases) while (!(await served(base))) await sleep(10);
  return performance.now() - since;
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

try {
  const notices = await redisAnswers();
  const releasesDir = join(root, 'releases');
  const content = join(root, 'content');
  const stateDir = join(root, 'state');
  cpSync(paths.content, content, { recursive: true });
  const shared: Record<string, string> = { RELEASES_DIR: releasesDir, RELEASES_CHANNEL: `bench:${randomBytes(6).toString('hex')}:releases`, ...(notices ? { REDIS_URL } : {}) };
  await release(shared);
  // The writer's access token, straight into its store.
  const store = new SqliteOAuthStore(stateDir);
  const resource = `${SITE_URL}${OAUTH_URLS.ownerMcp}`;
  const token = randomBytes(32).toString('base64url');
  store.createGrant({ id: 'grant-bench', clientId: 'client-bench', clientName: 'Bench', subject: 'owner', scopes: ['taste:read', 'taste:write'], resource, createdAt: Date.now(), lastUsedAt: null, revokedAt: null });
  store.putToken(token, { grantId: 'grant-bench', kind: 'access', clientId: 'client-bench', scopes: ['taste:read', 'taste:write'], resource, expiresAt: Date.now() + 3_600_000, usedAt: null });
  store.close();
  const writer = await start({ ...shared, CONTENT_DIR: content, STATE_DIR: stateDir, SITE_URL, OWNER_OIDC_ISSUER: 'http://127.0.0.1:9', OWNER_OIDC_CLIENT_ID: 'bench', OWNER_SUBJECT: 'owner' });
  const replicas = [await start(shared), await start(shared)];
  const image = new DatabaseSync(buildLayout(paths.dist).image, { readOnly: true });
  const cid = (image.prepare(`SELECT cid FROM ${SOURCES_TABLE} WHERE file = 'music/albums.yaml' ORDER BY entry LIMIT 1`).get() as { cid: string }).cid;
  image.close();
  const stanceAt = async (base: string) => ((await (await fetch(`${base}/api/music.json?limit=100`)).json()) as { data: { canonicalId: string; stance?: string }[] }).data.find((r) => r.canonicalId === cid)?.stance;

  const releases: { publishMs: number; servedMs: number }[] = [];
  const writes: { answerMs: number; servedMs: number }[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const dist = editedBuild(`round-${round}`);
    const started = performance.now();
    const id = await release({ ...shared, DIST_DIR: dist });
    const published = performance.now();
    const servedMs = await untilServed(replicas, published, async (base) => ((await (await fetch(`${base}/api/status.json`)).json()) as { release?: string }).release === id);
    releases.push({ publishMs: Math.round(published - started), servedMs: Math.round(servedMs) });

    // A stance neither the writer nor the replicas have, so the write changes what they serve.
    const now = [await stanceAt(writer), await stanceAt(replicas[0]!)];
    const stance = STANCES.find((s) => !now.includes(s))!;
    const sent = performance.now();
    const answer = await fetch(`${writer}${OAUTH_URLS.ownerMcp}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-11-25', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'music.set_stance', arguments: { canonicalId: cid, stance, requestId: `bench-${round}` } } }),
    });
    await answer.arrayBuffer();
    const answered = performance.now();
    const writeServed = await untilServed(replicas, answered, async (base) => (await stanceAt(base)) === stance);
    writes.push({ answerMs: Math.round(answered - sent), servedMs: Math.round(writeServed) });
  }
  const summary = (values: number[]) => ({ p50: percentile(values, 50), max: Math.max(...values) });
  console.log(JSON.stringify({
    replicas: replicas.length,
    fastPath: notices ? 'Redis notice' : 'none (no Redis): periodic check only',
    rounds,
    release: { publishMs: summary(releases.map((r) => r.publishMs)), publishedToAllServingMs: summary(releases.map((r) => r.servedMs)) },
    ownerWrite: { answerMs: summary(writes.map((w) => w.answerMs)), answeredToAllServingMs: summary(writes.map((w) => w.servedMs)) },
    runs: { releases, writes },
  }, null, 2));
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await sleep(200);
  rmSync(root, { recursive: true, force: true });
}
