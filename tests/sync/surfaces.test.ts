/**
 * Issue 39, items 6 and 8: the server (`npm run serve`, the one writer) with
 * `SYNC_INTERVAL` syncs on its own from a local server replaying a Letterboxd feed into a
 * copy of the demo content, rebuilds, and serves the synced film at once: found with the
 * feed's fields through REST, GraphQL, MCP `taste.find` (the SDK client), its site page
 * and the JSON and Atom feeds; `/api/status.json` says the source last succeeded. Films
 * the demo already has (by title and year) are kept as the owner wrote them. Needs
 * `npm run build` on the demo content first (as `npm test` does).
 *
 * @slow: every sync source runs against its replayed service, then every surface is read (scripts/test.ts starts it first, in a process of its own).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { answer, fixture, replay, type Replay } from './replay.ts';

const URI = 'https://letterboxd.com/film/columbus-2017/';
let feedServer: Replay;
let child: ChildProcess;
let base = '';
let root: string;
const stderr: string[] = [];

/** The fixture feed with Aftersun (which the demo has) swapped for a film the demo lacks, logged yesterday. */
const feed = () =>
  fixture('letterboxd/rss.xml')
    .replaceAll('Aftersun', 'Columbus')
    .replace('<letterboxd:filmYear>2022</letterboxd:filmYear>', '<letterboxd:filmYear>2017</letterboxd:filmYear>')
    .replace('https://letterboxd.com/alice/film/aftersun/', 'https://letterboxd.com/alice/film/columbus-2017/')
    .replace('<letterboxd:watchedDate>2026-11-25</letterboxd:watchedDate>', '<letterboxd:watchedDate>2026-12-06</letterboxd:watchedDate>')
    .replace('<tmdb:movieId>965150</tmdb:movieId>', '<tmdb:movieId>413518</tmdb:movieId>');

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'sync-surfaces-'));
  cpSync('content', join(root, 'content'), { recursive: true });
  feedServer = await replay();
  feedServer.route('GET', '/alice/rss/', answer(feed(), { 'Content-Type': 'application/rss+xml', ETag: '"s"' }));
  writeFileSync(join(root, 'sync.yaml'), `letterboxd: { user: alice, baseUrl: "${feedServer.base}" }\n`);
  child = spawn(process.execPath, ['--max-semi-space-size=4', 'server.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      CONTENT_DIR: join(root, 'content'),
      STATE_DIR: join(root, 'state'),
      SYNC_CONFIG: join(root, 'sync.yaml'),
      SYNC_INTERVAL: '300',
      RATE_LIMIT_REQUESTS: '100000000',
      GRAPHQL_COST_BUDGET: '100000000000',
    },
  });
  child.stderr!.on('data', (c: Buffer) => stderr.push(c.toString()));
  base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}): ${stderr.join('')}`)));
  });
  // The first source runs at once; wait until its rebuild is served.
  for (let i = 0; i < 240; i++) {
    const r = await fetch(`${base}/api/movies.json?q=columbus`);
    if (((await r.json()) as { data: unknown[] }).data.length) return;
    await delay(250);
  }
  throw new Error(`the synced film was never served: ${stderr.join('')}`);
});

after(async () => {
  child?.kill('SIGTERM');
  if (child && child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
  await feedServer?.close();
  rmSync(root, { recursive: true, force: true });
});

async function get(path: string, init: RequestInit = {}) {
  const response = await fetch(base + path, init);
  return { status: response.status, body: await response.text() };
}

let canonicalId = '';

test('the scheduled sync wrote the new film and kept the demo’s own', () => {
  const log = stderr.join('');
  assert.match(log, /sync: letterboxd → movies: 1 new, 0 same, 0 changed, 0 in conflict, 1 kept/);
});

test('REST finds the synced film with the feed’s fields', async () => {
  const r = await get('/api/movies.json?q=columbus');
  assert.equal(r.status, 200);
  const items = (JSON.parse(r.body) as { data: Record<string, unknown>[] }).data;
  assert.equal(items.length, 1);
  assert.equal(items[0]!.letterboxdUri, URI);
  assert.equal(items[0]!.tmdbId, 413518);
  assert.equal(items[0]!.watchedAt, '2026-12-06');
  assert.equal(items[0]!.rating, 4.5);
  canonicalId = String(items[0]!.canonicalId);
  const pastLives = (JSON.parse((await get('/api/movies.json?q=past%20lives')).body) as { data: unknown[] }).data;
  assert.equal(pastLives.length, 1, 'a film the demo has is not duplicated');
});

test('GraphQL finds it', async () => {
  const r = await get('/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query: '{ movies(first: 5, filter: { q: "columbus" }) { nodes { canonicalId letterboxdUri tmdbId } } }' }),
  });
  assert.equal(r.status, 200, r.body);
  assert.deepEqual((JSON.parse(r.body) as { data: { movies: { nodes: unknown[] } } }).data.movies.nodes, [{ canonicalId, letterboxdUri: URI, tmdbId: 413518 }]);
});

test('MCP taste.find finds it (the SDK client)', async () => {
  const client = new Client({ name: 'sync-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', base)));
  try {
    const result = (await client.callTool({ name: 'taste.find', arguments: { collection: 'movies', q: 'columbus' } })) as {
      structuredContent?: { canonicalIds: string[]; items: Record<string, unknown>[] };
      isError?: boolean;
    };
    assert.notEqual(result.isError, true);
    assert.deepEqual(result.structuredContent!.canonicalIds, [canonicalId]);
    assert.equal(result.structuredContent!.items[0]!.letterboxdUri, URI);
  } finally {
    await client.close();
  }
});

test('the record’s site page and the feeds show it', async () => {
  const page = await get(`/movies/${canonicalId}`);
  assert.equal(page.status, 200);
  assert.match(page.body, /Columbus/);
  const json = await get('/feed.json');
  assert.equal(json.status, 200);
  assert.ok(
    (JSON.parse(json.body) as { items: { id: string; title?: string; url?: string }[] }).items.some(
      (i) => `${i.id} ${i.url} ${i.title}`.includes(canonicalId) || /Columbus/.test(String(i.title)),
    ),
    'in the JSON feed',
  );
  assert.match((await get('/feed.xml')).body, /Columbus/);
});

test('/api/status.json says when the source last succeeded, and nothing about its address', async () => {
  const r = await get('/api/status.json');
  const body = JSON.parse(r.body) as { sync?: Record<string, { lastSuccess: string | null; lastFailure: unknown }> };
  assert.match(body.sync!.letterboxd!.lastSuccess!, /^\d{4}-\d{2}-\d{2}T/);
  assert.equal(body.sync!.letterboxd!.lastFailure, null);
  assert.doesNotMatch(r.body, new RegExp(feedServer.base.replace(/[.:/]/g, '\\$&')));
});
