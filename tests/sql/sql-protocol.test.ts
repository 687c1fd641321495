/**
 * Public SQL over HTTP: methods, preflight, media types, versions, headers, CSV, and every
 * documented limit at its boundary (one under or at it passes, one over fails).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { createSqlFetchHandler, createSqlHandler, sqlProfileBytes } from '../../functions/sql.ts';
import { LIMITS } from '../../src/core/limits.ts';
import { sqlImageBytes } from '../../src/sql/image.ts';

type Rec = Record<string, unknown>;
const pad = (i: number) => String(i).padStart(3, '0');
const records: Rec[] = Array.from({ length: 120 }, (_, i) => ({
  canonicalId: `w-${pad(i)}`,
  title: `Title ${pad(i)}`,
  url: `https://example.com/w/${pad(i)}`,
  publishedAt: `20${10 + (i % 15)}-01-${pad((i % 28) + 1).slice(1)}`,
  tags: i % 2 ? ['a, b', 'c"d'] : [],
  ...(i % 3 ? { summary: i % 6 === 1 ? '' : `line one\r\nline "two", ${i}` } : {}),
  ...(i % 4 ? { wordCount: i } : {}),
}));
const image = sqlImageBytes(records);
let clock = 1_000_000;
let client = 0;
const handler = await createSqlFetchHandler({ image, now: () => clock, clientOf: () => `c${client++}` });

function request(body: string | null, headers: Record<string, string> = {}, method = 'QUERY'): Promise<Response> {
  return handler(new Request('http://x/api/sql', { method, headers: { 'Content-Type': 'application/sql', ...headers }, body }));
}
const json = async (r: Response) => JSON.parse(await r.text());

test('OPTIONS answers the CORS preflight; other methods get 405 with Allow', async () => {
  const pre = await request(null, { Origin: 'https://a.example', 'Access-Control-Request-Method': 'QUERY' }, 'OPTIONS');
  assert.equal(pre.status, 204);
  assert.match(pre.headers.get('Access-Control-Allow-Methods')!, /QUERY/);
  assert.match(pre.headers.get('Access-Control-Allow-Headers')!, /Content-Type/);
  assert.match(pre.headers.get('Access-Control-Allow-Headers')!, /SQL-API-Version/);
  assert.equal(pre.headers.get('Access-Control-Allow-Origin'), '*');
  assert.equal(pre.headers.get('Accept-Query'), 'application/sql');
  for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']) {
    const response = await request(method === 'GET' ? null : 'SELECT title FROM public.writing', {}, method);
    assert.equal(response.status, 405, method);
    assert.equal(response.headers.get('Allow'), 'QUERY, OPTIONS');
    assert.equal((await json(response)).type, '/problems/method-not-allowed');
  }
});

test('the request media type is application/sql, charset utf-8 optional; anything else is 415 with Accept-Query', async () => {
  for (const type of ['application/sql', 'application/sql; charset=utf-8', 'Application/SQL;charset="UTF-8"']) {
    assert.equal((await request('SELECT title FROM public.writing LIMIT 1', { 'Content-Type': type })).status, 200, type);
  }
  for (const type of ['text/plain', 'application/json', 'application/sql; charset=latin1', 'application/sql; version=2', 'application/sqlx', '']) {
    const response = await request('SELECT title FROM public.writing LIMIT 1', { 'Content-Type': type });
    assert.equal(response.status, 415, type);
    assert.equal(response.headers.get('Accept-Query'), 'application/sql');
    assert.equal((await json(response)).type, '/problems/sql-media-type');
  }
});

test('SQL-API-Version: omitted, empty or 1.1.0 works; anything else is 400', async () => {
  for (const version of [undefined, '', '1.1.0', ' 1.1.0 ']) {
    const response = await request('SELECT title FROM public.writing LIMIT 1', version === undefined ? {} : { 'SQL-API-Version': version });
    assert.equal(response.status, 200, String(version));
    assert.equal(response.headers.get('SQL-API-Version'), '1.1.0');
  }
  for (const version of ['1.0.0', '2', '1.1', 'latest']) {
    const response = await request('SELECT title FROM public.writing LIMIT 1', { 'SQL-API-Version': version });
    assert.equal(response.status, 400);
    assert.equal((await json(response)).type, '/problems/unsupported-sql-api-version');
  }
});

test('answers are never cached and carry the common and quota headers', async () => {
  for (const body of ['SELECT title FROM public.writing LIMIT 1', 'SELECT nope FROM public.writing']) {
    const response = await request(body);
    assert.equal(response.headers.get('Cache-Control'), 'no-store');
    assert.equal(response.headers.get('Access-Control-Allow-Origin'), '*');
    assert.equal(response.headers.get('RateLimit-Policy'), '"sql";q=120;w=60');
    assert.match(response.headers.get('RateLimit')!, /^"sql";r=\d+;t=\d+$/);
    assert.ok(response.headers.get('Content-Usage'));
  }
});

test('Accept picks JSON or CSV; other types are 406', async () => {
  const sql = 'SELECT canonical_id, summary, tags, word_count FROM public.writing ORDER BY canonical_id LIMIT 12';
  const j = await json(await request(sql, { Accept: 'application/json' }));
  assert.deepEqual(j.columns, [
    { name: 'canonical_id', type: 'text' },
    { name: 'summary', type: 'text' },
    { name: 'tags', type: 'json' },
    { name: 'word_count', type: 'integer' },
  ]);
  const response = await request(sql, { Accept: 'text/csv' });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('Content-Type')!, /^text\/csv/);
  assert.equal(response.headers.get('SQL-Truncated'), 'false');
  const text = await response.text();
  assert.ok(text.endsWith('\r\n'));
  const table = parse(text, { relax_quotes: false }) as string[][];
  assert.deepEqual(table[0], ['canonical_id', 'summary', 'tags', 'word_count']);
  assert.equal(table.length, 13);
  for (let i = 0; i < 12; i++) {
    const row = j.rows[i] as unknown[];
    assert.deepEqual(
      table[i + 1],
      row.map((v) => (v === null ? '' : String(v))),
    );
  }
  // NULL is an empty unquoted field, the empty string is "".
  assert.match(text, /\r\nw-001,"",/);
  assert.match(text, /\r\nw-000,,/);
  assert.equal((await request(sql, { Accept: 'application/xml' })).status, 406);
  assert.equal((await request(sql, {})).headers.get('Content-Type'), 'application/json');
});

test('16 KiB request body: 16384 bytes pass, 16385 are 413 (Web handler and answer function)', async () => {
  const base = 'SELECT title FROM public.writing LIMIT 1 ';
  const exact = base + ' '.repeat(LIMITS.sqlRequestBytesMax - base.length);
  assert.equal(Buffer.byteLength(exact), 16384);
  assert.equal((await request(exact)).status, 200);
  const over = await request(`${exact} `);
  assert.equal(over.status, 413);
  assert.equal((await json(over)).type, '/problems/sql-too-large');
  const answer = createSqlHandler({ image });
  const facts = { method: 'QUERY', url: new URL('http://x/api/sql'), header: (n: string) => (n.toLowerCase() === 'content-type' ? 'application/sql' : null) };
  assert.equal((await answer(facts, Buffer.from(exact))).status, 200);
  assert.equal((await answer(facts, Buffer.from(`${exact} `))).status, 413);
  assert.equal((await answer(facts, Buffer.from([0xc3, 0x28]))).status, 400);
  assert.equal((await answer(facts, null)).status, 400);
});

async function status(sql: string): Promise<[number, string, Record<string, unknown>]> {
  const response = await request(sql);
  const body = await json(response);
  return [response.status, body.type ?? 'ok', body];
}

test('100 rows: the cap sets truncated; LIMIT 100 passes, 101 is sql-limit', async () => {
  const [, , all] = await status('SELECT canonical_id FROM public.writing');
  assert.equal((all.rows as unknown[]).length, 100);
  assert.equal(all.truncated, true);
  const [, , exactly] = await status("SELECT canonical_id FROM public.writing WHERE canonical_id < 'w-100'");
  assert.equal((exactly.rows as unknown[]).length, 100);
  assert.equal(exactly.truncated, false);
  const [, , one] = await status("SELECT canonical_id FROM public.writing WHERE canonical_id < 'w-101'");
  assert.equal(one.truncated, true);
  assert.deepEqual(await status('SELECT title FROM public.writing LIMIT 100').then((s) => s.slice(0, 2)), [200, 'ok']);
  assert.deepEqual(await status('SELECT title FROM public.writing LIMIT 101').then((s) => s.slice(0, 2)), [400, '/problems/sql-limit']);
});

test('24 returned columns pass, 25 are sql-limit', async () => {
  // public.writing has 12 columns: * twice is exactly the budget.
  const [ok, , body] = await status('SELECT *, * FROM public.writing LIMIT 1');
  assert.equal(ok, 200);
  assert.equal((body.columns as unknown[]).length, 24);
  assert.deepEqual((await status('SELECT *, *, title FROM public.writing LIMIT 1')).slice(0, 2), [400, '/problems/sql-limit']);
});

test('structural budgets: IN list, predicates, depth, ORDER BY keys', async () => {
  const list = (n: number) => `SELECT title FROM public.writing WHERE word_count IN (${Array.from({ length: n }, (_, i) => i).join(', ')})`;
  assert.equal((await status(list(LIMITS.sqlInListMax)))[0], 200);
  assert.deepEqual((await status(list(LIMITS.sqlInListMax + 1))).slice(0, 2), [400, '/problems/sql-limit']);
  const preds = (n: number) => `SELECT title FROM public.writing WHERE ${Array.from({ length: n }, (_, i) => `word_count <> ${i}`).join(' AND ')}`;
  assert.equal((await status(preds(LIMITS.sqlPredicatesMax)))[0], 200);
  assert.deepEqual((await status(preds(LIMITS.sqlPredicatesMax + 1))).slice(0, 2), [400, '/problems/sql-limit']);
  const nots = (n: number) => `SELECT title FROM public.writing WHERE ${'NOT '.repeat(n)}word_count = 3`;
  assert.equal((await status(nots(LIMITS.sqlExpressionDepthMax - 1)))[0], 200);
  assert.deepEqual((await status(nots(LIMITS.sqlExpressionDepthMax))).slice(0, 2), [400, '/problems/sql-limit']);
  // Alternating AND/OR: each change of operator is one level.
  const alternate = (levels: number) => {
    let expr = 'word_count = 1';
    for (let i = 1; i < levels; i++) expr = `(word_count = ${i + 1} ${i % 2 ? 'AND' : 'OR'} ${expr})`;
    return `SELECT title FROM public.writing WHERE ${expr}`;
  };
  assert.equal((await status(alternate(LIMITS.sqlExpressionDepthMax)))[0], 200);
  assert.deepEqual((await status(alternate(LIMITS.sqlExpressionDepthMax + 1))).slice(0, 2), [400, '/problems/sql-limit']);
  assert.equal((await status('SELECT title FROM public.writing ORDER BY title, url, published_at, canonical_id'))[0], 200);
  assert.deepEqual((await status('SELECT title FROM public.writing ORDER BY title, url, published_at, canonical_id, summary')).slice(0, 2), [
    400,
    '/problems/sql-limit',
  ]);
});

test('512 KiB response: an answer of exactly the budget is whole, one byte more cuts a row', async () => {
  const head = '{"columns":[{"name":"body","type":"text"}],"rows":[';
  const tail = '],"truncated":false}';
  const rowBytes = (s: string) => s.length + 4; // ["…"]
  const first = 'a'.repeat(200_000);
  const secondLength = LIMITS.sqlResponseBytesMax - head.length - tail.length - 1 - rowBytes(first) - 4;
  const make = (n: number) =>
    sqlImageBytes([
      { canonicalId: 'a', title: 't', url: 'https://e.x/a', publishedAt: '2020-01-01', tags: [], body: first },
      { canonicalId: 'b', title: 't', url: 'https://e.x/b', publishedAt: '2020-01-02', tags: [], body: 'b'.repeat(n) },
    ]);
  const facts = { method: 'QUERY', url: new URL('http://x/api/sql'), header: (n: string) => (n.toLowerCase() === 'content-type' ? 'application/sql' : null) };
  const sql = Buffer.from('SELECT body FROM public.writing');
  const whole = await createSqlHandler({ image: make(secondLength) })(facts, sql);
  assert.equal(whole.status, 200);
  assert.equal(whole.body!.length, LIMITS.sqlResponseBytesMax);
  assert.equal(JSON.parse(Buffer.from(whole.body!).toString()).rows.length, 2);
  const cut = await createSqlHandler({ image: make(secondLength + 1) })(facts, sql);
  const parsed = JSON.parse(Buffer.from(cut.body!).toString());
  assert.equal(parsed.rows.length, 1);
  assert.equal(parsed.truncated, true);
  assert.equal(cut.headers['SQL-Truncated'], 'true');
  const huge = await createSqlHandler({
    image: sqlImageBytes([{ canonicalId: 'a', title: 't', url: 'https://e.x/a', publishedAt: '2020-01-01', tags: [], body: 'x'.repeat(600_000) }]),
  })(facts, sql);
  assert.equal(huge.status, 400);
  assert.equal(JSON.parse(Buffer.from(huge.body!).toString()).type, '/problems/sql-limit');
});

test('120 requests per 60 s per client: the 121st is 429 with Retry-After and RateLimit fields', async () => {
  let now = 6_000_000;
  const answer = createSqlHandler({ image, now: () => now, clientOf: () => 'one' });
  const facts = { method: 'QUERY', url: new URL('http://x/api/sql'), header: (n: string) => (n.toLowerCase() === 'content-type' ? 'application/sql' : null) };
  const sql = Buffer.from('SELECT title FROM public.writing LIMIT 1');
  for (let i = 1; i <= LIMITS.sqlRequestsPerWindow; i++) assert.equal((await answer(facts, sql)).status, 200, String(i));
  const limited = await answer(facts, sql);
  assert.equal(limited.status, 429);
  assert.equal(limited.headers['Retry-After'], '60');
  assert.match(limited.headers.RateLimit!, /^"sql";r=0;t=\d+$/);
  assert.equal(limited.headers['RateLimit-Policy'], '"sql";q=120;w=60');
  // The window slides in 5-second slots: the quota is back once the oldest counted slot has left it.
  now += 65_000;
  assert.equal((await answer(facts, sql)).status, 200);
});

test('a quota the operator raises (SQL_RATE_LIMIT_REQUESTS) is the one the RateLimit fields advertise', async () => {
  const answer = createSqlHandler({ image, quota: 500, clientOf: () => 'two' });
  const facts = { method: 'QUERY', url: new URL('http://x/api/sql'), header: (n: string) => (n.toLowerCase() === 'content-type' ? 'application/sql' : null) };
  const ok = await answer(facts, Buffer.from('SELECT title FROM public.writing LIMIT 1'));
  assert.equal(ok.status, 200);
  assert.equal(ok.headers['RateLimit-Policy'], '"sql";q=500;w=60');
  assert.equal(ok.headers['RateLimit-Limit'], '500');
  assert.match(ok.headers.RateLimit!, /^"sql";r=499;t=\d+$/);
});

test('the profile is version 1 and states the budgets the checks use', () => {
  const profile = JSON.parse(Buffer.from(sqlProfileBytes()).toString());
  assert.equal(profile.profileVersion, 1);
  assert.deepEqual(
    profile.relations.map((r: { name: string }) => r.name),
    ['public.writing', 'information_schema.tables', 'information_schema.columns'],
  );
  assert.equal(profile.budgets.rows.value, 100);
  assert.equal(profile.budgets.returnedColumns.value, 24);
  assert.equal(profile.budgets.requestBytes.value, 16384);
  assert.equal(profile.budgets.responseBytes.value, 524288);
  assert.equal(profile.budgets.requestsPerWindow.value, 120);
  for (const key of ['expressionDepth', 'inListValues', 'predicates']) assert.ok(profile.budgets[key].why);
  assert.equal(profile.budgets.parenthesisDepth.value, LIMITS.sqlParenDepthMax);
  assert.equal(profile.budgets.tokens.value, LIMITS.sqlTokensMax);
  assert.equal(profile.budgets.timeMilliseconds.value, 250);
  assert.equal(profile.budgets.overrunCost.value, LIMITS.sqlOverrunCost);
  assert.equal(profile.budgets.statementsInFlightPerClient.value, LIMITS.sqlClientStatementsMax);
  assert.ok(profile.problems.includes('/problems/sql-busy'));
  assert.ok(profile.problems.includes('/problems/sql-client-busy'));
});

test('the image is deterministic and holds only the three relations', async () => {
  assert.deepEqual(sqlImageBytes(records), sqlImageBytes([...records].reverse()));
  const [, , body] = await status('SELECT table_schema, table_name FROM information_schema.tables');
  assert.deepEqual(body.rows, [
    ['public', 'writing'],
    ['information_schema', 'tables'],
    ['information_schema', 'columns'],
  ]);
  void clock;
});
