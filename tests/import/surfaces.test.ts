/**
 * Item 8 (and the dev loop of item 5): a Letterboxd export imported into a copy of the
 * demo content while `npm run dev`'s server runs on it is served at once, and found with
 * the importer's fields intact through REST, GraphQL, MCP `taste.find` (the SDK client),
 * the record's site page and the JSON and Atom feeds. Films the demo already has (by
 * title and year) are kept as the owner wrote them, not duplicated. Needs `npm run build`
 * on the demo content first (as `npm test` does).
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startDevServer, type DevServer } from '../helpers/dev-server.ts';
import { FIXTURES, runImport } from './harness.ts';

let server: DevServer;
let root: string;
let content: string;
let imported: { status: number | null; stdout: string; stderr: string };

const URI = 'https://boxd.it/1TWy';

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'import-surfaces-'));
  content = join(root, 'content');
  cpSync('content', content, { recursive: true });
  // The fixture export, with the film that is new to the demo logged last week, so it is among the feeds' newest items.
  const exportDir = join(root, 'letterboxd');
  cpSync(join(FIXTURES, 'letterboxd', 'export'), exportDir, { recursive: true });
  for (const name of ['watched.csv', 'diary.csv']) {
    const path = join(exportDir, name);
    writeFileSync(
      path,
      readFileSync(path, 'utf8').replace('2024-05-10,"Crouching Tiger', '2026-11-20,"Crouching Tiger').replace('4.5,Yes,,2025-11-19', '4.5,Yes,,2026-11-21'),
    );
  }
  server = await startDevServer(content, { RATE_LIMIT_REQUESTS: '100000000', GRAPHQL_COST_BUDGET: '100000000000' });
  const from = server.lines.length;
  imported = runImport(['letterboxd', exportDir], content);
  await server.waitFor(/generation \d+ serving /, from);
});
after(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

async function get(path: string, init: RequestInit = {}) {
  const response = await fetch(server.base + path, init);
  return { status: response.status, body: await response.text() };
}

let canonicalId = '';

test('the import keeps the demo’s own films and adds the new one', () => {
  assert.equal(imported.status, 0, imported.stderr);
  assert.match(imported.stdout, /1 new, 0 same, 0 changed, 0 in conflict, 3 kept/);
});

test('REST finds the imported film with the importer’s fields', async () => {
  const r = await get('/api/movies.json?q=crouching');
  assert.equal(r.status, 200);
  const items = (JSON.parse(r.body) as { data: Record<string, unknown>[] }).data;
  assert.equal(items.length, 1);
  assert.equal(items[0]!.letterboxdUri, URI);
  assert.equal(items[0]!.watchedAt, '2026-11-21');
  assert.equal(items[0]!.rating, 4.5);
  assert.deepEqual(items[0]!.director ?? [], [], 'no director invented');
  canonicalId = String(items[0]!.canonicalId);
  const all = (JSON.parse((await get('/api/movies.json?q=past%20lives')).body) as { data: unknown[] }).data;
  assert.equal(all.length, 1, 'a film the demo has is not duplicated');
});

test('GraphQL finds it', async () => {
  const r = await get('/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query: '{ movies(first: 5, filter: { q: "crouching" }) { nodes { canonicalId letterboxdUri watchedAt } } }' }),
  });
  assert.equal(r.status, 200, r.body);
  assert.deepEqual(JSON.parse(r.body).data.movies.nodes, [{ canonicalId, letterboxdUri: URI, watchedAt: '2026-11-21' }]);
});

test('MCP taste.find finds it (the SDK client)', async () => {
  const client = new Client({ name: 'import-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', server.base)));
  try {
    const result = (await client.callTool({ name: 'taste.find', arguments: { collection: 'movies', q: 'crouching' } })) as {
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
  assert.match(page.body, /Crouching Tiger, Hidden Dragon/);
  const json = await get('/feed.json');
  assert.equal(json.status, 200);
  assert.ok(
    (JSON.parse(json.body) as { items: { id: string; title?: string; url?: string }[] }).items.some(
      (i) => `${i.id} ${i.url} ${i.title}`.includes(canonicalId) || /Crouching Tiger/.test(String(i.title)),
    ),
    'in the JSON feed',
  );
  const atom = await get('/feed.xml');
  assert.match(atom.body, /Crouching Tiger, Hidden Dragon/);
});
