/**
 * One writer: the replica with the owner lane set up publishes each owner write's
 * rebuild as a release (and the Redis notice), so the replicas that follow releases
 * serve the write within seconds; the time is measured and printed. Runs `server.ts`
 * processes on the built `dist/`, the writer on a copy of the content. Needs Redis (the
 * notice); skipped with the reason without one.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { STANCES } from '../../src/collections/music.ts';
import { SOURCES_TABLE } from '../../src/core/image.ts';
import { SqliteOAuthStore } from '../../src/oauth/store.ts';
import { buildLayout, paths } from '../../src/paths.ts';
import { OAUTH_URLS } from '../../src/urls.ts';
import { needRedis, REDIS_URL, testChannel } from './redis.ts';
import { startReplica, type Replica } from './replicas.ts';

const SITE_URL = 'https://writer.test';
const root = mkdtempSync(join(tmpdir(), 'writer-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** An access token for the owner lane, straight into the writer's store (the OAuth flow has its own tests). */
function mintToken(stateDir: string): string {
  const store = new SqliteOAuthStore(stateDir);
  const now = Date.now();
  const resource = `${SITE_URL}${OAUTH_URLS.ownerMcp}`;
  store.createGrant({ id: 'grant-writer', clientId: 'client-writer', clientName: 'Writer test', subject: 'owner', scopes: ['taste:read', 'taste:write'], resource, createdAt: now, lastUsedAt: null, revokedAt: null });
  const token = randomBytes(32).toString('base64url');
  store.putToken(token, { grantId: 'grant-writer', kind: 'access', clientId: 'client-writer', scopes: ['taste:read', 'taste:write'], resource, expiresAt: now + 3_600_000, usedAt: null });
  store.close();
  return token;
}

const stanceAt = async (replica: Replica, canonicalId: string) => {
  const page = (await (await fetch(`${replica.base}/api/music.json?limit=100`)).json()) as { data: { canonicalId: string; stance?: string }[] };
  return page.data.find((item) => item.canonicalId === canonicalId)?.stance;
};

test('an owner write at the writer is served by every replica within seconds', async (t) => {
  if (!(await needRedis(t))) return;
  const releasesDir = join(root, 'releases');
  const content = join(root, 'content');
  const stateDir = join(root, 'state');
  cpSync('content', content, { recursive: true });
  const token = mintToken(stateDir);
  const shared = { RELEASES_DIR: releasesDir, REDIS_URL, RELEASES_CHANNEL: testChannel('writer') };
  await promisify(execFile)(process.execPath, ['src/release/cli.ts'], { env: { ...process.env, ...shared } });
  const writer = await startReplica({
    ...shared,
    CONTENT_DIR: content,
    STATE_DIR: stateDir,
    SITE_URL,
    OWNER_OIDC_ISSUER: 'http://127.0.0.1:9',
    OWNER_OIDC_CLIENT_ID: 'writer-test',
    OWNER_SUBJECT: 'owner',
  });
  const followers = [await startReplica(shared), await startReplica(shared)];
  try {
    const image = new DatabaseSync(buildLayout(paths.dist).image, { readOnly: true });
    const row = image.prepare(`SELECT cid FROM ${SOURCES_TABLE} WHERE file = 'music/albums.yaml' ORDER BY entry LIMIT 1`).get() as { cid: string };
    image.close();
    const before = await stanceAt(followers[0]!, row.cid);
    const stance = STANCES[(STANCES.indexOf((before ?? 'like') as (typeof STANCES)[number]) + 1) % STANCES.length]!;
    const sent = performance.now();
    const response = await fetch(`${writer.base}${OAUTH_URLS.ownerMcp}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-11-25', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'music.set_stance', arguments: { canonicalId: row.cid, stance, requestId: 'writer-1' } } }),
    });
    const answer = (await response.json()) as { result: { isError?: boolean; content: { text: string }[] } };
    assert.equal(answer.result.isError, undefined, answer.result.content[0]?.text);
    const acknowledged = performance.now();
    const seen: number[] = [];
    for (const follower of followers) {
      while ((await stanceAt(follower, row.cid)) !== stance) await new Promise((resolve) => setTimeout(resolve, 20));
      seen.push(performance.now() - acknowledged);
    }
    assert.equal(await stanceAt(writer, row.cid), stance);
    // The followers serve one release, and answer alike.
    const [a, b] = await Promise.all(followers.map((f) => fetch(`${f.base}/api/music.json?limit=100`)));
    assert.equal(a!.headers.get('ETag'), b!.headers.get('ETag'));
    console.log(`# owner write answered in ${Math.round(acknowledged - sent)} ms; every replica served it ${Math.round(Math.max(...seen))} ms after the answer`);
  } finally {
    await Promise.all([writer, ...followers].map((r) => r.stop()));
  }
});
