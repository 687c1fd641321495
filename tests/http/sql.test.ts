/**
 * The public SQL surface over the wire, through the real server and the SQL image the
 * build wrote: a QUERY answers rows, the body bound holds, other methods are refused.
 * (The grammar matrix, limits and properties run in tests/sql against the handler.)
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parse as parseCsv } from 'csv-parse/sync';
import { startServer, type RunningServer } from '../helpers/server.ts';

let server: RunningServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

const query = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${server.base}/api/sql`, { method: 'QUERY', headers: { 'Content-Type': 'application/sql', ...headers }, body });

test('QUERY /api/sql answers the demo writing, as JSON and CSV, never cached', async () => {
  const r = await query('SELECT title, published_at FROM public.writing ORDER BY published_at DESC LIMIT 3');
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('cache-control'), 'no-store');
  const body = (await r.json()) as { columns: { name: string }[]; rows: unknown[][]; truncated: boolean };
  assert.deepEqual(body.columns.map((c) => c.name), ['title', 'published_at']);
  assert.equal(body.rows.length, 3);
  const list = (await (await fetch(`${server.base}/api/meta.json`)).json()) as { links: Record<string, string> };
  assert.equal(list.links.sqlProfile, '/api/sql/profile.json');
  const csv = await query('SELECT title FROM public.writing LIMIT 2', { Accept: 'text/csv' });
  assert.deepEqual(Object.keys((parseCsv(await csv.text(), { columns: true }) as Record<string, string>[])[0]!), ['title']);
});

test('an oversized body is 413, a write is refused without echo, GET is 405', async () => {
  const big = await query(`SELECT title FROM public.writing WHERE title = '${'x'.repeat(17_000)}'`);
  assert.equal(big.status, 413);
  const write = await query("DELETE FROM public.writing WHERE title = 'zqsecret'");
  assert.equal(write.status, 400);
  const text = await write.text();
  assert.ok(!text.includes('zqsecret') && !text.includes('DELETE'));
  const get = await fetch(`${server.base}/api/sql`);
  assert.equal(get.status, 405);
  assert.match(get.headers.get('allow')!, /QUERY/);
  const profile = await fetch(`${server.base}/api/sql/profile.json`);
  assert.equal(((await profile.json()) as { profileVersion: number }).profileVersion, 1);
});
