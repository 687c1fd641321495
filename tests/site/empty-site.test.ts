/**
 * `npm run init` on a copy of the demo content, then every surface of the empty site it
 * leaves, built and served for real: REST lists (200, empty `data`), GraphQL connections,
 * the MCP tools (taste tools abstain), RPC selections, valid empty calendars, GeoJSON, KML
 * and GPX, JSON Feed and Atom, the sitemap, the taste summary and profile, the home page
 * named for the new owner, and every collection page saying how to add its first record.
 * The copy lives in a temporary folder with its own git repository; the repository's
 * `content/` is never touched. Also: init refuses, changing nothing, when the content
 * holds a change git does not know about.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { check as checkGeoJson } from '@placemarkio/check-geojson';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { newHttpBatchRpcSession } from 'capnweb';
import ICAL from 'ical.js';
import { collections, restCollections } from '../../src/collections/index.ts';
import type { Root } from '../../src/rpc/api.d.ts';
import { demoFiles } from '../../src/setup/demo.ts';
import { assertValidXml, assertWellFormedXml } from '../helpers/xml.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

const root = mkdtempSync(join(tmpdir(), 'empty-site-'));
const content = join(root, 'content');
// Inside the project (scratch/ is ignored by git), so the built server resolves its packages from node_modules.
const distRoot = join(process.cwd(), 'scratch', `empty-site-${process.pid}`);
const dist = join(distRoot, 'dist');
const git = (...args: string[]) => spawnSync('git', args, { cwd: content, encoding: 'utf8' });
const init = (...args: string[]) =>
  spawnSync(process.execPath, ['src/setup/init.ts', ...args], {
    env: { ...process.env, CONTENT_DIR: content, STATE_DIR: join(root, 'state') },
    encoding: 'utf8',
  });

let server: RunningServer;
let base: string;

before(async () => {
  cpSync('content', content, { recursive: true });
  git('init', '--quiet');
  git('add', '-A');
  spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '--quiet', '-m', 'demo'], { cwd: content });
});
after(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
  rmSync(distRoot, { recursive: true, force: true });
});

test('init refuses, changing nothing, while the content holds a change git does not know about', () => {
  const listed = demoFiles(content);
  writeFileSync(join(content, 'movies', 'mine.md'), '---\ntitle: Mine\ntype: movie\nyear: 2001\naddedAt: 2024-01-01\n---\n');
  const refused = init('--name', 'Ada Lovelace', '--url', 'https://ada.example');
  assert.equal(refused.status, 1, refused.stderr);
  assert.match(refused.stderr, /changed nothing/);
  assert.match(refused.stderr, /movies\/mine\.md/);
  assert.deepEqual(demoFiles(content), listed);
  for (const file of listed) assert.ok(existsSync(join(content, file)), file);
  rmSync(join(content, 'movies', 'mine.md'));
  const usage = init('--name', 'Ada Lovelace');
  assert.equal(usage.status, 2);
  const bad = init('--name', 'Ada Lovelace', '--url', 'ada.example');
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /--url: /);
});

test('init removes the demo and writes the profile; the empty site builds', async () => {
  const done = init('--name', 'Ada Lovelace', '--url', 'https://ada.example');
  assert.equal(done.status, 0, done.stderr);
  const left = readdirSync(content, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && !d.parentPath.includes('.git'))
    .map((d) => d.name);
  assert.deepEqual(left, ['site.yaml']);
  assert.match(readFileSync(join(content, 'site.yaml'), 'utf8'), /^name: Ada Lovelace$/m);
  const build = spawn(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build'], {
    env: { ...process.env, CONTENT_DIR: content, DIST_DIR: dist },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  build.stdout.on('data', (chunk: Buffer) => (output += chunk));
  build.stderr.on('data', (chunk: Buffer) => (output += chunk));
  const [code] = (await once(build, 'close')) as [number];
  assert.equal(code, 0, output.slice(-3000));
  assert.match(output, /compiled 0 records/);
  server = await startServer({ CONTENT_DIR: content, DIST_DIR: dist, RATE_LIMIT_REQUESTS: '100000' });
  base = server.base;
});

const get = (path: string, accept?: string) => fetch(new URL(path, base), accept ? { headers: { Accept: accept } } : {});

test('REST: every list answers 200 with empty data', async () => {
  for (const c of restCollections) {
    const res = await get(`/api/${c.name}.json`);
    assert.equal(res.status, 200, c.name);
    const body = (await res.json()) as { data: unknown[]; meta: { totalCount: number } };
    assert.deepEqual(body.data, [], c.name);
    assert.equal(body.meta.totalCount, 0, c.name);
    const filtered = await get(`/api/${c.name}.json?limit=5&facets=1`);
    assert.equal(filtered.status, 200, `${c.name} with facets`);
  }
  for (const path of ['/api/blog.json', '/api/writing.json', '/api/search.json?q=heat', '/api/feed-items.json']) {
    const res = await get(path);
    assert.equal(res.status, 200, path);
    assert.deepEqual(((await res.json()) as { data: unknown[] }).data, [], path);
  }
  const csv = await get('/api/movies.json', 'text/csv');
  assert.equal(csv.status, 200);
});

test('GraphQL: connections have no nodes and no next page', async () => {
  const res = await fetch(new URL('/graphql', base), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json' },
    body: JSON.stringify({
      query: '{ movies(first: 5) { nodes { canonicalId } pageInfo { hasNextPage endCursor } } places(first: 5) { nodes { canonicalId } } }',
    }),
  });
  assert.equal(res.status, 200);
  const body = (await res.json()) as {
    data: { movies: { nodes: unknown[]; pageInfo: { hasNextPage: boolean } }; places: { nodes: unknown[] } };
    errors?: unknown;
  };
  assert.equal(body.errors, undefined, JSON.stringify(body.errors));
  assert.deepEqual(body.data.movies.nodes, []);
  assert.equal(body.data.movies.pageInfo.hasNextPage, false);
  assert.deepEqual(body.data.places.nodes, []);
});

test('MCP: the tools list, find answers nothing, the taste tools abstain or answer empty, without errors', async () => {
  const client = new Client({ name: 'empty-site', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', base)));
  try {
    const { tools } = await client.listTools();
    assert.ok(tools.length > 0);
    const find = (await client.callTool({ name: 'taste.find', arguments: { collection: 'movies' } })) as {
      isError?: boolean;
      structuredContent?: { canonicalIds: string[] };
    };
    assert.notEqual(find.isError, true, JSON.stringify(find));
    assert.deepEqual(find.structuredContent?.canonicalIds, []);
    const recommend = (await client.callTool({ name: 'taste.recommend', arguments: { intent: 'a tense crime film from the nineties' } })) as {
      isError?: boolean;
      structuredContent?: { abstained: boolean; recommendations: unknown[] };
    };
    assert.notEqual(recommend.isError, true, JSON.stringify(recommend));
    assert.equal(recommend.structuredContent?.abstained, true);
    assert.deepEqual(recommend.structuredContent?.recommendations, []);
    const summary = (await client.callTool({ name: 'taste.summarize', arguments: {} })) as {
      isError?: boolean;
      structuredContent?: { counts: { collectionCount: number; returnedCount: number }; examples: unknown[] };
    };
    assert.notEqual(summary.isError, true, JSON.stringify(summary));
    assert.equal(summary.structuredContent?.counts.collectionCount, 0);
    assert.deepEqual(summary.structuredContent?.examples, []);
    const intersect = (await client.callTool({
      name: 'music.intersect',
      arguments: {
        profile: { schemaVersion: '1', music: { artists: [{ name: 'Radiohead', stance: 'love' }], recordings: [], albums: [], genres: [], notes: [] } },
      },
    })) as { isError?: boolean; structuredContent?: { abstained: boolean } };
    assert.notEqual(intersect.isError, true, JSON.stringify(intersect));
    assert.equal(intersect.structuredContent?.abstained, true);
  } finally {
    await client.close();
  }
});

test('RPC: a selection of an empty collection has no records', async () => {
  const api = newHttpBatchRpcSession<Root>(new URL('/api/rpc', base).href);
  const s = api.content.movies.first(5);
  const [info, records] = await Promise.all([s.info(), s.records()]);
  assert.deepEqual(records, []);
  assert.equal((info as { endCursor?: unknown }).endCursor ?? null, null);
});

test('calendars are valid and empty; GeoJSON, KML and GPX are valid and empty', async () => {
  for (const path of ['/calendar.ics', '/concerts.ics', '/sports.ics']) {
    const res = await get(path);
    assert.equal(res.status, 200, path);
    const calendar = new ICAL.Component(ICAL.parse(await res.text()) as unknown[]);
    assert.equal(calendar.name, 'vcalendar');
    assert.equal(calendar.getAllSubcomponents('vevent').length, 0, path);
  }
  const geo = await get('/places.geojson');
  assert.equal(geo.status, 200);
  const collection = checkGeoJson(await geo.text()) as { type: string; features: unknown[] };
  assert.deepEqual(collection.features, []);
  const kml = await get('/places.kml');
  assert.equal(kml.status, 200);
  await assertValidXml(await kml.text(), 'kml', 'places.kml');
  const gpx = await get('/places.gpx');
  assert.equal(gpx.status, 200);
  await assertValidXml(await gpx.text(), 'gpx', 'places.gpx');
  const photos = await get('/api/photos.json', 'application/geo+json');
  assert.equal(photos.status, 200);
});

test('JSON Feed and Atom are valid and empty, authored by the new owner; the sitemap is well formed', async () => {
  const feed = (await (await get('/feed.json')).json()) as { items: unknown[]; authors: { name: string }[] };
  assert.deepEqual(feed.items, []);
  assert.deepEqual(
    feed.authors.map((a) => a.name),
    ['Ada Lovelace'],
  );
  const atom = await (await get('/feed.xml')).text();
  await assertWellFormedXml(atom, 'feed.xml');
  assert.doesNotMatch(atom, /<entry>/);
  assert.match(atom, /<name>Ada Lovelace<\/name>/);
  const sitemap = await get('/sitemap.xml');
  assert.equal(sitemap.status, 200);
  await assertWellFormedXml(await sitemap.text(), 'sitemap.xml');
});

test('the taste summary and the taste profile answer', async () => {
  const summary = await get('/api/taste/summary.json');
  assert.equal(summary.status, 200);
  const body = (await summary.json()) as { counts: { collectionCount: number; returnedCount: number }; examples: unknown[] };
  assert.equal(body.counts.collectionCount, 0);
  assert.deepEqual(body.examples, []);
  const profile = await get('/.well-known/taste-profile.json');
  assert.equal(profile.status, 200);
  await profile.json();
});

test('the home page is the new owner’s; every collection page says how to add the first record', async () => {
  const home = await (await get('/', 'text/html')).text();
  assert.match(home, /Ada Lovelace/);
  assert.doesNotMatch(home, /Inês/);
  const robots = await (await get('/robots.txt')).text();
  assert.match(robots, /Content-Signal: search=yes,ai-input=yes,ai-train=no/);
  assert.match(robots, /Sitemap: https:\/\/ada\.example\/sitemap\.xml/);
  for (const c of collections.filter((c) => !c.compose && c.name !== 'blog')) {
    const page = await get(`/${c.name}/`, 'text/html');
    assert.equal(page.status, 200, c.name);
    const html = await page.text();
    assert.match(html, new RegExp(`npm run new -- ${c.name} `), c.name);
    const twin = await (await get(`/${c.name}/`, 'text/markdown')).text();
    assert.match(twin, new RegExp(`npm run new -- ${c.name} `), `${c.name} twin`);
  }
  assert.match(await (await get('/movies/', 'text/html')).text(), /npm run import -- letterboxd/);
  assert.match(await (await get('/code/', 'text/html')).text(), /npm run sync/);
});
