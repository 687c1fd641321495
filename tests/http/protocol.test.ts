/**
 * The HTTP protocol of the collection endpoints over the wire: the header set, methods,
 * conditional requests, negotiation (checked with csv-parse and @placemarkio/check-geojson),
 * versioning and the problem shape of each refusal.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { check as checkGeoJson } from '@placemarkio/check-geojson';
import { parse as parseCsv } from 'csv-parse/sync';
import { parseDictionary, parseList } from 'structured-headers';
import { collection, restCollections } from '../../src/collections/index.ts';
import { csvColumns } from '../../src/formats/index.ts';
import { contractFetch } from '../helpers/contract.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

let server: RunningServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => contractFetch(server.base + path, { method, headers });

async function problem(response: Response, status: number, slug: string): Promise<Record<string, unknown>> {
  assert.equal(response.status, status);
  assert.equal(response.headers.get('content-type'), 'application/problem+json');
  const body = (await response.json()) as Record<string, unknown>;
  assert.equal(body.type, `/problems/${slug}`);
  return body;
}

test('every list answer carries the full header set', async () => {
  for (const c of restCollections) {
    const r = await get(`/api/${c.name}.json?limit=2`);
    assert.equal(r.status, 200);
    const h = r.headers;
    assert.equal(h.get('api-version'), '1.0.0');
    assert.equal(h.get('content-usage'), 'train-ai=n, search=y');
    assert.equal(h.get('content-signal'), 'search=yes, ai-input=yes, ai-train=no');
    assert.equal(h.get('ratelimit-policy'), '"collections";q=1000;w=60');
    assert.equal(h.get('ratelimit-limit'), '1000');
    // Negotiated by Accept, so private (no shared cache stores it): it may carry the client's count.
    assert.match(h.get('cache-control')!, /private/);
    assert.match(h.get('ratelimit')!, /^"collections";r=\d+;t=\d+$/);
    assert.match(h.get('etag')!, /^"[\w-]+"$/);
    assert.match(h.get('cache-control')!, /max-age=\d+/);
    assert.match(h.get('x-total-count')!, /^\d+$/);
    assert.match(h.get('link')!, /rel="self"/);
    assert.match(h.get('link-template')!, new RegExp(`^"/api/${c.name}\\.json\\{\\?[a-zA-Z,*]+\\}"; rel="search"$`));
    assert.match(h.get('last-modified')!, /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    assert.equal(h.get('vary'), 'Accept');
    assert.equal(h.get('access-control-allow-origin'), '*');
    for (const exposed of ['Link', 'Link-Template', 'ETag', 'Last-Modified', 'Content-Usage', 'Content-Signal', 'X-Total-Count']) {
      assert.ok(h.get('access-control-expose-headers')!.split(', ').includes(exposed), exposed);
    }
    assert.equal(h.get('deprecation'), null, 'nothing is scheduled for deprecation');
  }
});

test('HEAD answers the GET status and headers without a body, also for 304 and 400', async () => {
  const path = '/api/books.json?limit=3';
  const [getR, headR] = [await get(path), await get(path, {}, 'HEAD')];
  assert.equal(headR.status, 200);
  for (const name of ['etag', 'content-length', 'content-type', 'x-total-count', 'link', 'last-modified'])
    assert.equal(headR.headers.get(name), getR.headers.get(name), name);
  assert.equal(await headR.text(), '');
  assert.equal((await get(path, { 'If-None-Match': getR.headers.get('etag')! }, 'HEAD')).status, 304);
  assert.equal((await get('/api/books.json?limit=x', {}, 'HEAD')).status, 400);
});

test('OPTIONS is the CORS preflight; other methods are 405 with Allow', async () => {
  const pre = await get(
    '/api/movies.json',
    { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'api-version' },
    'OPTIONS',
  );
  assert.equal(pre.status, 204);
  assert.equal(pre.headers.get('access-control-allow-origin'), '*');
  assert.match(pre.headers.get('access-control-allow-methods')!, /GET/);
  assert.match(pre.headers.get('access-control-allow-headers')!, /API-Version/);
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    const r = await get('/api/movies.json', {}, method);
    await problem(r, 405, 'method-not-allowed');
    assert.equal(r.headers.get('allow'), 'GET, HEAD, OPTIONS');
  }
});

test('If-None-Match (lists, *, weak tags) wins over If-Modified-Since; a match is 304 keeping cache headers', async () => {
  const first = await get('/api/places.json?city=Lisbon');
  const etag = first.headers.get('etag')!;
  const lastModified = first.headers.get('last-modified')!;
  for (const inm of [etag, `W/${etag}`, `"a", ${etag}`, '*']) {
    const r = await get('/api/places.json?city=Lisbon', { 'If-None-Match': inm });
    assert.equal(r.status, 304, inm);
    assert.equal(await r.text(), '');
    for (const name of ['etag', 'cache-control', 'vary', 'last-modified']) assert.equal(r.headers.get(name), first.headers.get(name), name);
  }
  assert.equal((await get('/api/places.json?city=Lisbon', { 'If-Modified-Since': lastModified })).status, 304);
  assert.equal((await get('/api/places.json?city=Lisbon', { 'If-Modified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' })).status, 200);
  assert.equal((await get('/api/places.json?city=Lisbon', { 'If-Modified-Since': 'not a date' })).status, 200);
  // A non-matching If-None-Match decides, even though If-Modified-Since alone would match.
  assert.equal((await get('/api/places.json?city=Lisbon', { 'If-None-Match': '"other"', 'If-Modified-Since': lastModified })).status, 200);
});

test('Accept negotiates JSON, CSV and GeoJSON with q-values and wildcards; anything else is 406 naming what exists', async () => {
  const type = async (accept: string, path = '/api/places.json') => (await get(path, { Accept: accept })).headers.get('content-type');
  assert.equal(await type('*/*'), 'application/json');
  assert.equal(await type('text/*'), 'text/csv; charset=utf-8; header=present');
  assert.equal(await type('application/json;q=0.5, text/csv'), 'text/csv; charset=utf-8; header=present');
  assert.equal(await type('text/csv;q=0.2, application/geo+json;q=0.9'), 'application/geo+json');
  assert.equal(await type('application/*, text/csv;q=0.1'), 'application/json');
  const refused = await get('/api/movies.json', { Accept: 'application/geo+json' });
  const body = await problem(refused, 406, 'not-acceptable');
  assert.match(String(body.detail), /application\/json, text\/csv/);
  await problem(await get('/api/places.json', { Accept: 'image/png' }), 406, 'not-acceptable');
  await problem(await get('/api/places.json', { Accept: 'application/json;q=0' }), 406, 'not-acceptable');
  const json = await get('/api/places.json');
  const csv = await get('/api/places.json', { Accept: 'text/csv' });
  assert.notEqual(csv.headers.get('etag'), json.headers.get('etag'));
});

test('CSV is RFC 4180 with a header row and flattened arrays and objects (checked with csv-parse)', async () => {
  for (const c of restCollections) {
    const [json, csv] = await Promise.all([get(`/api/${c.name}.json?limit=20`), get(`/api/${c.name}.json?limit=20`, { Accept: 'text/csv' })]);
    const items = ((await json.json()) as { data: Record<string, unknown>[] }).data;
    const rows = parseCsv(await csv.text(), { columns: true, record_delimiter: '\r\n', relax_column_count: false }) as Record<string, string>[];
    assert.deepEqual(Object.keys(rows[0]!), csvColumns(c));
    assert.equal(rows.length, items.length);
    rows.forEach((row, i) => {
      assert.equal(row.canonicalId, items[i]!.canonicalId);
      for (const [field, value] of Object.entries(items[i]!)) {
        const expected = Array.isArray(value)
          ? value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join('; ')
          : typeof value === 'object'
            ? JSON.stringify(value)
            : String(value);
        assert.equal(row[field], expected, `${c.name} ${field}`);
      }
    });
  }
});

test('GeoJSON for places and photos is valid RFC 7946 (checked with @placemarkio/check-geojson)', async () => {
  for (const name of ['places', 'photos']) {
    const r = await get(`/api/${name}.json?limit=100`, { Accept: 'application/geo+json' });
    assert.equal(r.status, 200);
    const text = await r.text();
    const fc = checkGeoJson(text) as unknown as { type: string; features: { id: string; geometry: { coordinates: number[] } }[] };
    assert.equal(fc.type, 'FeatureCollection');
    assert.ok(fc.features.length > 0);
    const items = (
      (await (await get(`/api/${name}.json?limit=100`)).json()) as { data: { canonicalId: string; coordinates?: { latitude: number; longitude: number } }[] }
    ).data;
    for (const feature of fc.features) {
      const item = items.find((i) => i.canonicalId === feature.id)!;
      assert.deepEqual(feature.geometry.coordinates.slice(0, 2), [item.coordinates!.longitude, item.coordinates!.latitude]);
    }
  }
  assert.ok(collection('places'));
});

test('API-Version: omitted, empty or 1.0.0 (whitespace ignored) works; anything else is a 400 problem', async () => {
  for (const v of ['', '1.0.0', '  1.0.0 ']) assert.equal((await get('/api/code.json', { 'API-Version': v })).status, 200, JSON.stringify(v));
  for (const v of ['2.0.0', '1.0', 'latest']) await problem(await get('/api/code.json', { 'API-Version': v }), 400, 'unsupported-api-version');
  assert.equal((await get('/api/code.json', { 'Idempotency-Key': 'abc-123' })).status, 200);
});

test('the structured header fields parse as RFC 9651 structured fields (checked with structured-headers)', async () => {
  const r = await get('/api/movies.json?limit=1');
  const [template] = parseList(r.headers.get('link-template')!);
  assert.equal(template![0], '/api/movies.json{?type,year,genre,director,actor,q,sort,limit,facets,cursor}');
  assert.equal((template![1] as Map<string, unknown>).get('rel'), 'search');
  const usage = parseDictionary(r.headers.get('content-usage')!);
  assert.equal(String(usage.get('train-ai')![0]), 'n');
  assert.equal(String(parseDictionary(r.headers.get('content-signal')!).get('ai-train')![0]), 'no');
  const [policy] = parseList(r.headers.get('ratelimit-policy')!);
  assert.equal(policy![0], 'collections');
  assert.deepEqual(
    [...(policy![1] as Map<string, unknown>)],
    [
      ['q', 1000],
      ['w', 60],
    ],
  );
  const sql = await fetch(`${server.base}/api/sql`, {
    method: 'QUERY',
    headers: { 'Content-Type': 'application/sql' },
    body: 'SELECT title FROM public.writing LIMIT 1',
  });
  const [limit] = parseList(sql.headers.get('ratelimit')!);
  assert.equal(limit![0], 'sql');
  const params = limit![1] as Map<string, number>;
  assert.ok(Number.isInteger(params.get('r')) && Number.isInteger(params.get('t')));
});

test('the preflights of the music POSTs, SQL, GraphQL and RPC allow Idempotency-Key (SPEC §9.7: accepted on every public operation)', async () => {
  const surfaces: [string, string][] = [
    ['/api/music/intersections.json', 'POST'],
    ['/api/music/station.json', 'POST'],
    ['/api/sql', 'QUERY'],
    ['/graphql', 'POST'],
    ['/api/rpc', 'POST'],
    ['/api/movies.json', 'GET'],
  ];
  for (const [path, method] of surfaces) {
    const pre = await fetch(server.base + path, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://elsewhere.example',
        'Access-Control-Request-Method': method,
        'Access-Control-Request-Headers': 'content-type,idempotency-key',
      },
    });
    assert.equal(pre.status, 204, path);
    const allowed = pre.headers
      .get('access-control-allow-headers')!
      .split(',')
      .map((h) => h.trim().toLowerCase());
    assert.ok(allowed.includes('idempotency-key'), `${path}: ${allowed.join(', ')}`);
    assert.ok(allowed.includes('content-type'), path);
  }
});

test('GraphQL limit errors are 400 under application/graphql-response+json and 200 under application/json (GraphQL over HTTP)', async () => {
  const aliases = Array.from({ length: 31 }, (_, i) => `a${i}: __typename`).join(' ');
  for (const [accept, status, type] of [
    ['application/graphql-response+json', 400, 'application/graphql-response+json'],
    ['application/json', 200, 'application/json'],
  ] as const) {
    const r = await fetch(`${server.base}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: accept },
      body: JSON.stringify({ query: `{ ${aliases} }` }),
    });
    assert.equal(r.status, status, accept);
    assert.match(r.headers.get('content-type')!, new RegExp(`^${type.replaceAll('+', '\\+')}`));
    const body = (await r.json()) as { data?: unknown; errors: { extensions?: { code?: string } }[] };
    assert.equal(body.data, undefined, 'nothing ran');
    assert.equal(body.errors[0]!.extensions?.code, 'ALIAS_LIMIT');
  }
});

test('KEEP_ALIVE_TIMEOUT_MS sets how long an idle connection is kept, as the Keep-Alive hint says', async () => {
  // The tests' servers keep idle connections ten minutes (tests/helpers/keep-alive.ts); a served runtime five seconds unless told.
  assert.equal((await fetch(`${server.base}/api/tweets.json`)).headers.get('keep-alive'), 'timeout=600');
  const other = await startServer({ KEEP_ALIVE_TIMEOUT_MS: '75000' });
  try {
    assert.equal((await fetch(`${other.base}/api/tweets.json`)).headers.get('keep-alive'), 'timeout=75');
  } finally {
    await other.stop();
  }
});
