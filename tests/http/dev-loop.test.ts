/**
 * The dev loop against a running server and a content folder of the test's own (a copy
 * of the demo content the build was made from): an edit is seen on every surface that
 * shows it — REST (the item and page one's ETag), the record page, GraphQL, search, SQL
 * (`public.writing`), the JSON and Atom feeds, the calendars, the map exports, the home
 * page — while documents it does not touch keep their ETags; a deletion disappears
 * everywhere; an invalid edit leaves every answer as it was and prints every problem,
 * and fixing it recovers; and a loopback load across several swaps gets no answer but a
 * 2xx. Files are written as the owner lane writes them (src/owner/content-file.ts).
 *
 * @slow: a dev server rebuilds after each of a series of saves (scripts/test.ts starts it first, in a process of its own).
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import autocannon from 'autocannon';
import { createRequire } from 'node:module';
import { removeContentFile, writeContentFile } from '../../src/owner/content-file.ts';
import { startDevServer, type DevServer } from '../helpers/dev-server.ts';

let server: DevServer;
let content: string;
const unlimited = { RATE_LIMIT_REQUESTS: '100000000', SQL_RATE_LIMIT_REQUESTS: '100000000', GRAPHQL_COST_BUDGET: '100000000000' };

before(async () => {
  content = join(mkdtempSync(join(tmpdir(), 'dev-loop-')), 'content');
  cpSync('content', content, { recursive: true });
  server = await startDevServer(content, unlimited);
});
after(async () => {
  await server.stop();
  rmSync(join(content, '..'), { recursive: true, force: true });
});

/** Writes a content file and waits until the server serves the generation it makes. */
async function save(file: string, text: string | null): Promise<string> {
  const from = server.lines.length;
  if (text === null) removeContentFile(join(content, file));
  else writeContentFile(join(content, file), text);
  return (await server.waitFor(/generation \d+ serving .*changed: (.*)$/, from))[1]!;
}

const edit = (file: string, from: string | RegExp, to: string) => {
  const text = readFileSync(join(content, file), 'utf8');
  const edited = text.replace(from, to);
  assert.notEqual(edited, text, `${file}: nothing to replace`);
  return save(file, edited);
};

async function get(path: string, init: RequestInit = {}): Promise<{ status: number; etag: string | null; body: string }> {
  const response = await fetch(server.base + path, init);
  return { status: response.status, etag: response.headers.get('ETag'), body: await response.text() };
}

async function graphql(query: string): Promise<Record<string, { nodes: { canonicalId: string; [k: string]: unknown }[] }>> {
  const r = await get('/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query }),
  });
  assert.equal(r.status, 200, r.body);
  return (JSON.parse(r.body) as { data: Record<string, { nodes: { canonicalId: string }[] }> }).data;
}

async function sql(statement: string): Promise<unknown[][]> {
  const r = await get('/api/sql', { method: 'QUERY', headers: { 'Content-Type': 'application/sql' }, body: statement });
  assert.equal(r.status, 200, r.body);
  return (JSON.parse(r.body) as { rows: unknown[][] }).rows;
}

const items = (body: string) => (JSON.parse(body) as { data: { canonicalId: string; [k: string]: unknown }[] }).data;

test('a concert edit is seen on REST (item and ETag), the record page, GraphQL, search and the calendars; other documents keep their ETags', async () => {
  const before = {
    page: await get('/api/concerts.json'),
    books: await get('/api/books.json'),
    calendar: await get('/calendar.ics'),
    places: await get('/places.geojson'),
  };
  const changed = await edit(
    'concerts/radiohead-uber-arena-2025.md',
    'tour: 2025 European Tour\n',
    'tour: 2025 European Tour\ntitle: Kid A Mnesia Revisited\n',
  );
  for (const path of ['/api/concerts.json', '/calendar.ics', '/concerts.ics']) assert.ok(changed.split(' ').includes(path), `${path} in ${changed}`);
  const found = items((await get('/api/concerts.json?q=mnesia revisited')).body);
  assert.equal(found.length, 1);
  assert.equal(found[0]!.title, 'Kid A Mnesia Revisited');
  const page = await get('/api/concerts.json');
  assert.notEqual(page.etag, before.page.etag);
  assert.ok(items(page.body).some((item) => item.title === 'Kid A Mnesia Revisited'));
  assert.match((await get(`/concerts/${found[0]!.canonicalId}`)).body, /Kid A Mnesia Revisited/);
  assert.deepEqual((await graphql('{ concerts(first: 5, filter: { q: "mnesia revisited" }) { nodes { canonicalId } } }')).concerts!.nodes, [
    { canonicalId: found[0]!.canonicalId },
  ]);
  assert.ok(items((await get('/api/search.json?q=mnesia revisited')).body).some((hit) => hit.canonicalId === found[0]!.canonicalId));
  const calendar = await get('/calendar.ics');
  assert.notEqual(calendar.etag, before.calendar.etag);
  assert.match(calendar.body, /Kid A Mnesia Revisited/);
  assert.match((await get('/concerts.ics')).body, /Kid A Mnesia Revisited/);
  assert.equal((await get('/api/books.json')).etag, before.books.etag);
  assert.equal((await get('/places.geojson')).etag, before.places.etag);
  // A conditional request with the old ETag gets the new document, with the new one a 304.
  assert.equal((await get('/calendar.ics', { headers: { 'If-None-Match': before.calendar.etag! } })).status, 200);
  assert.equal((await get('/calendar.ics', { headers: { 'If-None-Match': calendar.etag! } })).status, 304);
});

test('a writing edit is seen on SQL (public.writing), REST, and the JSON and Atom feeds', async () => {
  const feeds = { json: await get('/feed.json'), atom: await get('/feed.xml') };
  await edit('writing/2026-four-cities.md', 'title: "Four cities"', 'title: "Five cities, counted again"');
  assert.deepEqual(await sql("SELECT title FROM public.writing WHERE title = 'Five cities, counted again'"), [['Five cities, counted again']]);
  assert.deepEqual(await sql("SELECT title FROM public.writing WHERE title = 'Four cities'"), []);
  assert.equal(items((await get('/api/writing.json?q=five cities')).body).length, 1);
  const json = await get('/feed.json');
  const atom = await get('/feed.xml');
  assert.notEqual(json.etag, feeds.json.etag);
  assert.notEqual(atom.etag, feeds.atom.etag);
  assert.match(json.body, /Five cities, counted again/);
  assert.match(atom.body, /Five cities, counted again/);
  assert.doesNotMatch(json.body, /"Four cities"/);
});

test('a place edit is seen on the GeoJSON, KML and GPX exports', async () => {
  const geojson = await get('/places.geojson');
  await edit('places/tokyo.yaml', '- name: Golden Gai\n', '- name: Golden Gai Alleys\n');
  const after = await get('/places.geojson');
  assert.notEqual(after.etag, geojson.etag);
  const names = (JSON.parse(after.body) as { features: { properties: { name: string } }[] }).features.map((f) => f.properties.name);
  assert.ok(names.includes('Golden Gai Alleys'));
  assert.ok(!names.includes('Golden Gai'));
  assert.match((await get('/places.kml')).body, /Golden Gai Alleys/);
  assert.match((await get('/places.gpx')).body, /Golden Gai Alleys/);
});

const POST = `---
title: "Notes from a dev loop"
slug: notes-from-a-dev-loop
publishedAt: 2026-11-20
summary: "Saving a file and seeing it everywhere."
tags: [tools]
---
A post written while the server runs.
`;

test('a new post is seen on REST, GraphQL, SQL, the feeds, its page and the home count; deleting it removes it everywhere', async () => {
  const count = () => get('/').then((r) => Number(/>(\d+) public records/.exec(r.body)![1]));
  const before = await count();
  const added = await save('blog/2026-notes-from-a-dev-loop.md', POST);
  assert.ok(added.split(' ').includes('/blog/notes-from-a-dev-loop/'), added);
  const [post] = items((await get('/api/blog.json?q=notes from a dev loop')).body);
  assert.equal(post?.slug, 'notes-from-a-dev-loop');
  assert.equal((await graphql('{ blog(first: 5, filter: { q: "notes from a dev loop" }) { nodes { canonicalId } } }')).blog!.nodes.length, 1);
  assert.deepEqual(await sql("SELECT title FROM public.writing WHERE title = 'Notes from a dev loop'"), [['Notes from a dev loop']]);
  assert.match((await get('/feed.json')).body, /Notes from a dev loop/);
  assert.match((await get('/feed.xml')).body, /Notes from a dev loop/);
  const page = await get('/blog/notes-from-a-dev-loop/');
  assert.equal(page.status, 200);
  assert.match(page.body, /A post written while the server runs\./);
  assert.match((await get('/blog/')).body, /Notes from a dev loop/);
  assert.match((await get('/sitemap-pages.xml')).body, /\/blog\/notes-from-a-dev-loop\/<\/loc>/, 'the sitemap lists the new post');
  assert.equal(await count(), before + 2); // the post and the same post as writing (the feed repeats records, so the home total leaves it out)

  const removed = await save('blog/2026-notes-from-a-dev-loop.md', null);
  assert.ok(removed.split(' ').includes('/blog/notes-from-a-dev-loop/'), removed);
  assert.equal(items((await get('/api/blog.json?q=notes from a dev loop')).body).length, 0);
  assert.equal(items((await get('/api/search.json?q=notes from a dev loop')).body).length, 0);
  assert.equal((await graphql('{ blog(first: 5, filter: { q: "notes from a dev loop" }) { nodes { canonicalId } } }')).blog!.nodes.length, 0);
  assert.deepEqual(await sql("SELECT title FROM public.writing WHERE title = 'Notes from a dev loop'"), []);
  assert.doesNotMatch((await get('/feed.json')).body, /Notes from a dev loop/);
  assert.doesNotMatch((await get('/feed.xml')).body, /Notes from a dev loop/);
  assert.equal((await get('/blog/notes-from-a-dev-loop/')).status, 404);
  assert.doesNotMatch((await get('/blog/')).body, /Notes from a dev loop/);
  assert.doesNotMatch((await get('/sitemap-pages.xml')).body, /notes-from-a-dev-loop/);
  assert.equal(await count(), before);
  assert.equal((await get(`/blog/${post!.canonicalId}`)).status, 404);
});

test('an invalid edit leaves every answer unchanged and prints every problem; fixing it recovers', async () => {
  const paths = ['/api/concerts.json', '/api/places.json', '/calendar.ics', '/places.geojson', '/feed.json', '/', '/api/meta.json', '/api/status.json'];
  const snapshot = async () => Promise.all(paths.map((path) => get(path).then((r) => ({ path, status: r.status, etag: r.etag, body: r.body }))));
  const state = async () => ({
    answers: await snapshot(),
    graphql: await graphql('{ concerts(first: 3) { nodes { canonicalId date } } }'),
    sql: await sql('SELECT title FROM public.writing ORDER BY published_at DESC LIMIT 3'),
  });
  const before = await state();
  const concert = readFileSync(join(content, 'concerts/radiohead-uber-arena-2025.md'), 'utf8');
  const places = readFileSync(join(content, 'places/tokyo.yaml'), 'utf8');
  const from = server.lines.length;
  writeContentFile(join(content, 'concerts/radiohead-uber-arena-2025.md'), concert.replace('date: 2025-12-08T20:00', 'date: the eighth of December'));
  writeContentFile(join(content, 'places/tokyo.yaml'), places.replace('category: bars', 'category: pubs'));
  await server.waitFor(/still serving the last good build/, from);
  const printed = server.lines.slice(from).join('\n');
  assert.match(printed, /concerts\/radiohead-uber-arena-2025\.md: date: /);
  assert.match(printed, /places\/tokyo\.yaml\[0\]: category: /);
  assert.deepEqual(await state(), before);
  // Fixing one file is not enough; fixing both serves both files' current content.
  const fixedOne = server.lines.length;
  writeContentFile(join(content, 'places/tokyo.yaml'), places);
  await server.waitFor(/still serving the last good build/, fixedOne);
  assert.deepEqual(await state(), before);
  await save('concerts/radiohead-uber-arena-2025.md', concert.replace('date: 2025-12-08T20:00', 'date: 2025-12-09T20:00'));
  assert.ok(items((await get('/api/concerts.json?q=radiohead')).body).some((c) => String(c.date).startsWith('2025-12-09T20:00')));
});

test('a loopback load across several swaps gets only 2xx answers', async () => {
  // autocannon checks methods against its own list, which predates QUERY.
  const methods = createRequire(import.meta.url)('autocannon/lib/httpMethods') as string[];
  if (!methods.includes('QUERY')) methods.push('QUERY');
  const file = 'concerts/elbphilharmonie-2024.md';
  const original = readFileSync(join(content, file), 'utf8');
  assert.ok(existsSync(join(content, file)));
  const load = autocannon({
    url: server.base,
    // Four, the most statements one client may have in flight on the SQL surface (sqlClientStatementsMax): more would be a 429 sql-client-busy by design.
    connections: 4,
    duration: 5,
    requests: [
      { method: 'GET', path: '/api/concerts.json' },
      { method: 'GET', path: '/api/concerts.json?q=elbphilharmonie' },
      { method: 'GET', path: '/api/search.json?q=concert' },
      { method: 'GET', path: '/calendar.ics' },
      { method: 'GET', path: '/' },
      {
        method: 'POST',
        path: '/graphql',
        headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json' },
        body: JSON.stringify({ query: '{ concerts(first: 10) { nodes { canonicalId title } } }' }),
      },
      { method: 'QUERY' as 'GET', path: '/api/sql', headers: { 'Content-Type': 'application/sql' }, body: 'SELECT title FROM public.writing LIMIT 5' },
    ],
  });
  const swaps: string[] = [];
  const editing = (async () => {
    for (let i = 1; i <= 4; i++) {
      await new Promise((resolve) => setTimeout(resolve, 700));
      swaps.push(await save(file, original.replace("title: Beethoven's Ninth", `title: Beethoven's Ninth, take ${i}`)));
    }
  })();
  const [result] = await Promise.all([load, editing]);
  await save(file, original);
  assert.equal(swaps.length, 4);
  // The load ran across the swaps (each connection sent every request at least once); how fast is the benchmark's to say.
  assert.ok(result.requests.total >= 4 * 7, `${result.requests.total} requests`);
  assert.equal(result.errors, 0, 'connection errors');
  assert.equal(result.timeouts, 0, 'timeouts');
  assert.equal(result.non2xx, 0, 'answers other than 2xx');
});
