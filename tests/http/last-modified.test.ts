/**
 * `Last-Modified` and `meta.timestamp` (issue 26, item 4): never later than the build's
 * present (RFC 9110 §8.8.2.1 forbids a Last-Modified later than the answer's Date, and a
 * scheduled concert's date is not when the data changed), sent only where a dated record
 * says when the data changed (SPEC §4.1), and never 1 January 1970 — in the build's
 * header manifest (the static artifacts) and in the runtime's answers alike. The build's
 * present is passed in, as SOURCE_DATE_EPOCH fixes it, so the test means the same on any day.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createRestFetchHandler } from '../../functions/rest.ts';
import { compile } from '../../src/compile/compile.ts';
import { Image } from '../../src/core/image.ts';
import { QueryCore } from '../../src/core/query.ts';

const NOW = new Date('2026-11-23T00:00:00Z');
const EPOCH = new Date(0).toUTCString();

const heat = `---\ntitle: Heat\ntype: movie\nyear: 1995\naddedAt: 2024-01-03\ngenres: [Crime]\n---\nA heist film.\n`;
const concert = (date: string) => `---\nartist: Nils Frahm\nvenue: Tonhalle\ncity: Zürich\ncountry: Switzerland\ndate: ${date}\ntimezone: Europe/Zurich\n---\n`;
/** Books without `finishedAt`: a collection with records but no dated one. */
const books = `- title: Dune\n  author: Frank Herbert\n  status: reading\n- title: Emma\n  author: Jane Austen\n  status: reading\n`;

function build(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'last-modified-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, 'content', path, '..'), { recursive: true });
    writeFileSync(join(root, 'content', path), text);
  }
  const out = join(root, 'out');
  const result = compile({ contentDir: join(root, 'content'), imagePath: join(out, 'site.db'), clientDir: join(out, 'client'), secret: 's', now: NOW });
  const rest = createRestFetchHandler(new QueryCore(new Image(join(out, 'site.db'))), { cacheBytes: 0 });
  const get = (path: string, headers: Record<string, string> = {}) => rest(new Request(`http://example.test${path}`, { headers }));
  const timestampOf = (file: string) => (JSON.parse(readFileSync(join(out, 'client', file), 'utf8')) as { meta: { timestamp: string } }).meta.timestamp;
  return { manifest: result.manifest, get, timestampOf };
}

test('a scheduled concert does not date the data after the build: Last-Modified and meta.timestamp stop at the build’s present', async () => {
  const site = build({
    'movies/heat.md': heat,
    'concerts/ahead.md': concert('2027-02-18T19:30'),
    'concerts/past.md': concert('2024-05-01T19:30').replace('Tonhalle', 'Volkshaus'),
  });
  for (const path of ['/api/concerts.json', '/calendar.ics', '/concerts.ics']) {
    assert.equal(site.manifest[path]!.headers['Last-Modified'], NOW.toUTCString(), path);
  }
  for (const [path, entry] of Object.entries(site.manifest)) {
    const sent = entry.headers['Last-Modified'];
    if (sent === undefined) continue;
    assert.ok(Date.parse(sent) <= NOW.getTime(), `${path}: ${sent} is after the build`);
    assert.notEqual(sent, EPOCH, path);
  }
  assert.equal(site.timestampOf('api/concerts.json'), '2026-11-23T00:00:00Z');
  // The runtime's own answers (a query string is never a static file) say the same.
  for (const path of ['/api/concerts.json?limit=1', '/api/concerts.json?year=2027']) {
    const response = await site.get(path);
    assert.equal(response.status, 200, path);
    assert.equal(response.headers.get('last-modified'), NOW.toUTCString(), path);
    const { meta } = (await response.json()) as { meta: { timestamp: string } };
    assert.equal(meta.timestamp, '2026-11-23T00:00:00Z', path);
  }
  // The feed holds what happened: the concert ahead is not in it yet, the one in 2024 is.
  const feed = await site.get('/api/feed-items.json?limit=1');
  assert.equal(feed.headers.get('last-modified'), new Date('2024-05-01T17:30:00Z').toUTCString());
  assert.equal(site.manifest['/api/feed-items.json']!.headers['Last-Modified'], new Date('2024-05-01T17:30:00Z').toUTCString());
});

test('an empty collection, or one with no dated record, sends no Last-Modified and no 1970 timestamp', async () => {
  const site = build({ 'movies/heat.md': heat, 'books/list.yaml': books });
  assert.equal(site.manifest['/api/movies.json']!.headers['Last-Modified'], new Date('2024-01-03T00:00:00Z').toUTCString());
  for (const name of ['books', 'photos', 'concerts']) {
    const path = `/api/${name}.json`;
    assert.equal(site.manifest[path]!.headers['Last-Modified'], undefined, `${path}: no record says when its data changed`);
    // As of the site's newest data: true of an empty list, and the same on every build of the same content.
    assert.equal(site.timestampOf(path.slice(1)), '2024-01-03T00:00:00Z', path);
    const response = await site.get(`${path}?limit=5`);
    assert.equal(response.status, 200, path);
    assert.equal(response.headers.get('last-modified'), null, path);
    assert.equal(((await response.json()) as { meta: { timestamp: string } }).meta.timestamp, '2024-01-03T00:00:00Z', path);
  }
  for (const path of ['/calendar.ics', '/concerts.ics', '/sports.ics']) assert.equal(site.manifest[path]!.headers['Last-Modified'], undefined, path);
  // A conditional GET by date has nothing to compare with: the full answer, never a 304.
  const conditional = await site.get('/api/books.json?limit=5', { 'If-Modified-Since': NOW.toUTCString() });
  assert.equal(conditional.status, 200);
});
