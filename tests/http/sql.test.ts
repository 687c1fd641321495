/**
 * The public SQL surface over the wire, through the real server and the SQL image the
 * build wrote: a QUERY answers rows, the body bound holds, other methods are refused,
 * hostile statements (defect D2) are refused without holding the server, and a slow
 * statement runs in a worker while other clients' SQL and REST requests are answered.
 * (The grammar matrix, limits and properties run in tests/sql against the handler.)
 * Clients are told apart by X-Forwarded-For, the test being a trusted proxy.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parse as parseCsv } from 'csv-parse/sync';
import { LIMITS } from '../../src/core/limits.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

let server: RunningServer;
before(async () => {
  server = await startServer({ TRUSTED_PROXIES: '127.0.0.1' });
});
after(() => server.stop());

let clients = 0;
/** Each call is another client unless `X-Forwarded-For` is given. */
const query = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${server.base}/api/sql`, {
    method: 'QUERY',
    headers: { 'Content-Type': 'application/sql', 'X-Forwarded-For': `198.51.100.${++clients % 250}`, ...headers },
    body,
  });

test('QUERY /api/sql answers the demo writing, as JSON and CSV, never cached', async () => {
  const r = await query('SELECT title, published_at FROM public.writing ORDER BY published_at DESC LIMIT 3');
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('cache-control'), 'no-store');
  const body = (await r.json()) as { columns: { name: string }[]; rows: unknown[][]; truncated: boolean };
  assert.deepEqual(
    body.columns.map((c) => c.name),
    ['title', 'published_at'],
  );
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

test('defect D2: unclosed and deep parentheses and long token streams are 400 sql-limit at once, and the server answers on', async () => {
  const hostile = [
    `SELECT * FROM public.writing WHERE ${'('.repeat(30)}1=1`,
    `SELECT * FROM public.writing WHERE ${'('.repeat(5000)}1=1`,
    `SELECT * FROM public.writing WHERE ${'('.repeat(30)}1=1${')'.repeat(30)}`,
    `SELECT ${'zqcol, '.repeat(2000)}title FROM public.writing`,
  ];
  for (const sql of hostile) {
    const r = await query(sql);
    assert.equal(r.status, 400);
    const problem = (await r.json()) as { type: string; detail: string };
    assert.equal(problem.type, '/problems/sql-limit');
    assert.ok(!problem.detail.includes('zqcol') && !problem.detail.includes('1=1'));
  }
  assert.equal((await query('SELECT title FROM public.writing LIMIT 1')).status, 200);
  assert.equal((await fetch(`${server.base}/api/writing.json?limit=1`)).status, 200);
});

test("while one client's slow statement runs, other clients' SQL and REST requests are answered with their results", async () => {
  const depth = LIMITS.sqlParenDepthMax;
  // Within the lexical bounds, but seconds of parser backtracking: the worker's time budget ends it.
  const slow = `SELECT ${'NOT ('.repeat(depth)}title zqslow${')'.repeat(depth)} FROM public.writing`;
  const expected = (await (await query('SELECT canonical_id FROM public.writing ORDER BY canonical_id LIMIT 3')).json()) as { rows: string[][] };
  const page = (await (await fetch(`${server.base}/api/writing.json?limit=3`)).json()) as { data: { canonicalId: string }[] };
  let slowSettled = false;
  const pending = query(slow, { 'X-Forwarded-For': '203.0.113.7' }).finally(() => (slowSettled = true));
  const [sql, rest] = await Promise.all([
    query('SELECT canonical_id FROM public.writing ORDER BY canonical_id LIMIT 3', { 'X-Forwarded-For': '203.0.113.8' }),
    fetch(`${server.base}/api/writing.json?limit=3`),
  ]);
  assert.deepEqual(((await sql.json()) as { rows: string[][] }).rows, expected.rows);
  assert.deepEqual(
    ((await rest.json()) as { data: { canonicalId: string }[] }).data.map((i) => i.canonicalId),
    page.data.map((i) => i.canonicalId),
  );
  assert.equal(slowSettled, false, 'both were answered while the slow statement was still running');
  const refused = await pending;
  assert.equal(refused.status, 400);
  const text = await refused.text();
  assert.match(text, /sql-limit/);
  assert.ok(!text.includes('zqslow'));
  // Its worker was replaced: the same client is answered next.
  assert.equal((await query('SELECT title FROM public.writing LIMIT 1', { 'X-Forwarded-For': '203.0.113.7' })).status, 200);
});
