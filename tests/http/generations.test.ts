/**
 * Generations in one process: a request under way when a rebuild swaps keeps the
 * generation it started with, which stays open until that request is done and only then
 * closes; the files a rebuild wrote leave with the last generation using them; quota
 * counters carry over to the new generation; an unchanged rebuild swaps nothing; pages
 * rendered again for a generation are the prerendered bytes. Runs on
 * the built `dist/` and a copy of the content it was built from.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import type { Server } from 'node:http';
import { Generations } from '../../src/runtime/generations.ts';
import { createNodeServer } from '../../src/runtime/node.ts';
import { TEST_KEEP_ALIVE_MS } from '../helpers/keep-alive.ts';
import { renderPage } from '../../src/site/render-page.ts';
import { Runtime } from '../../src/runtime/runtime.ts';
import { paths } from '../../src/paths.ts';

let content: string;
let generations: Generations;
let server: Server;
let port: number;

before(async () => {
  content = join(mkdtempSync(join(tmpdir(), 'generations-')), 'content');
  cpSync('content', content, { recursive: true });
  generations = await Generations.open({ distDir: paths.dist, contentDir: content, restQuota: 5 });
  server = createNodeServer(generations.dispatcher(), { keepAliveTimeoutMs: TEST_KEEP_ALIVE_MS });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as { port: number }).port;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
  await generations.shutdown();
  rmSync(join(content, '..'), { recursive: true, force: true });
});

const touch = (file: string, from: string, to: string) => {
  const path = join(content, file);
  const text = readFileSync(path, 'utf8');
  writeFileSync(path, text.replace(from, to));
  return path;
};

test('a request under way keeps its generation through a swap, and is answered by it; the generation closes after it', async () => {
  const first = generations.current();
  // A SQL request whose body is still arriving is under way; the rest is sent after the swap.
  const statement = "SELECT title FROM public.writing WHERE canonical_id IS NOT NULL AND title LIKE 'F% cities%'";
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  const closed = new Promise((done) => socket.on('close', done));
  // The dispatcher's listener runs first and binds the request to the generation of the moment.
  const underWay = new Promise((done) => server.once('request', done));
  socket.write(
    `QUERY /api/sql HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/sql\r\nContent-Length: ${Buffer.byteLength(statement)}\r\n\r\n${statement.slice(0, 10)}`,
  );
  await underWay;
  const result = await generations.rebuild([touch('writing/2026-four-cities.md', 'title: "Four cities"', 'title: "Five cities"')]);
  assert.equal(result.swapped, true);
  assert.ok(result.changed.includes('/api/sql'));
  assert.notEqual(generations.current(), first);
  assert.equal(first.image.db.isOpen, true, 'the old generation stays open while its request is under way');
  socket.write(statement.slice(10));
  // The whole answer, however long a loaded machine takes: the server closes after it (Connection: close).
  await closed;
  assert.match(answer, /^HTTP\/1\.1 200/);
  assert.match(answer, /Four cities/, 'answered from the generation it started with');
  assert.doesNotMatch(answer, /Five cities/);
  // The old generation closes once its last request has finished, which happens after the answer is written.
  for (let tries = 0; first.image.db.isOpen && tries < 1000; tries++) await new Promise((done) => setTimeout(done, 10));
  assert.equal(first.image.db.isOpen, false, 'the old generation closes after its last request');
  const now = await fetch(`http://127.0.0.1:${port}/api/sql`, { method: 'QUERY', headers: { 'Content-Type': 'application/sql' }, body: statement });
  assert.match(await now.text(), /Five cities/);
});

test('files a rebuild wrote leave with the last generation that uses them', async () => {
  const one = await generations.rebuild([touch('places/tokyo.yaml', '- name: Golden Gai\n', '- name: Golden Gai Alleys\n')]);
  const geojson = generations.current().build.manifest['/places.geojson']!.file;
  assert.ok(one.changed.includes('/places.geojson'));
  assert.ok(existsSync(resolve(paths.dist, geojson)));
  // The next edit changes concerts only: the GeoJSON file is still the one above.
  await generations.rebuild([touch('concerts/elbphilharmonie-2024.md', ', again', ', once more')]);
  assert.equal(generations.current().build.manifest['/places.geojson']!.file, geojson);
  assert.ok(existsSync(resolve(paths.dist, geojson)));
  // This one replaces it: once its generation closes, the old file goes.
  await generations.rebuild([touch('places/tokyo.yaml', '- name: Golden Gai Alleys\n', '- name: Golden Gai\n')]);
  assert.notEqual(generations.current().build.manifest['/places.geojson']!.file, geojson);
  assert.equal(existsSync(resolve(paths.dist, geojson)), false);
});

test('quota counters carry over to the new generation', async () => {
  const get = () => fetch(`http://127.0.0.1:${port}/api/books.json?limit=1`, { headers: { 'X-Test': '1' } });
  for (let i = 0; i < 5; i++) assert.equal((await get()).status, 200);
  await generations.rebuild([touch('concerts/elbphilharmonie-2024.md', ', once more', ', one last time')]);
  assert.equal((await get()).status, 429);
});

test('a rebuild that changes nothing swaps nothing', async () => {
  const current = generations.current();
  const result = await generations.rebuild([join(content, 'concerts/elbphilharmonie-2024.md'), join(content, 'not-a-collection/x.yaml')]);
  assert.equal(result.swapped, false);
  assert.deepEqual(result.changed, []);
  assert.equal(generations.current(), current);
});

test('pages rendered again for a generation are the bytes the build prerendered', async () => {
  const fresh = await Runtime.open({ distDir: paths.dist });
  try {
    const [post] = (JSON.parse(readFileSync(join(paths.dist, 'client/api/blog.json'), 'utf8')) as { data: { canonicalId: string; slug: string }[] }).data;
    const pages: [string, string][] = [
      ['/rerender/home', 'index.html'],
      ['/rerender/blog', 'blog/index.html'],
      [`/rerender/blog/${post!.canonicalId}`, `blog/${post!.slug}/index.html`],
      ['/rerender/sitemap', 'sitemap.xml'],
      ['/rerender/sitemap-pages', 'sitemap-pages.xml'],
      ['/rerender/sitemap-records/1', 'sitemap-records-1.xml'],
    ];
    for (const [route, file] of pages) {
      const body = await renderPage(fresh.pages, route, { core: fresh.core });
      assert.ok(body.equals(readFileSync(join(paths.dist, 'client', file))), `${route} differs from ${file}`);
    }
    await assert.rejects(renderPage(fresh.pages, '/rerender/nothing', { core: fresh.core }), /404/);
    await assert.rejects(renderPage(fresh.pages, '/rerender/sitemap-records/2', { core: fresh.core }), /404/);
  } finally {
    fresh.close();
  }
});
