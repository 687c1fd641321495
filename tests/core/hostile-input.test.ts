/**
 * Hostile query strings against every list, in process over the built image (issue 12,
 * D3): arbitrary Unicode — lone surrogates, NUL and every other control character,
 * quotes, FTS5 operators, very long text — in every parameter of every collection
 * (its declared filters, q, sort, cursor, limit, facets), of search and of the taste
 * summary, and in parameter names. The answer is 200 or a 4xx problem whose type is under
 * /problems/, never a 5xx; a control character anywhere is refused as `invalid-query`
 * naming the parameter (`invalid-cursor` for a cursor). Below the parsers, any search
 * text whatever reaches the trigram index only as one FTS5 phrase: both plans agree.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import fc from '../helpers/fc.ts';
import { createGraphqlHandler } from '../../functions/graphql.ts';
import { createTasteSummaryHandler } from '../../functions/taste.ts';
import { createRestFetchHandler } from '../../functions/rest.ts';
import { contentCollections, restCollections } from '../../src/collections/index.ts';
import { PROBLEMS } from '../../src/core/problems.ts';
import { fold } from '../../src/core/fold.ts';
import { Image } from '../../src/core/image.ts';
import { LIMITS } from '../../src/core/limits.ts';
import { parseQuery } from '../../src/core/params.ts';
import { QueryCore } from '../../src/core/query.ts';
import { parseSearch, SearchCore, SEARCH_PARAMETERS } from '../../src/core/search.ts';
import { factsOf, webHandler } from '../../src/http/answer.ts';
import { paths } from '../../src/paths.ts';

const image = new Image(paths.image);
after(() => image.close());
const core = new QueryCore(image);
const rest = createRestFetchHandler(core, { cacheBytes: 0, quota: Number.MAX_SAFE_INTEGER });
const taste = webHandler(createTasteSummaryHandler(core));
const COMMON = ['q', 'sort', 'cursor', 'limit', 'facets'];
const NOT_TEXT = /[\p{Cc}\p{Cs}\uFFFD]/u;

const char = (min: number, max: number) => fc.integer({ min, max }).map((c) => String.fromCharCode(c));
/** Pieces hostile text is made of: any code point, lone surrogates, controls, FTS5 syntax, percent signs. */
const piece = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  char(0xd800, 0xdfff),
  fc.oneof(char(0x00, 0x1f), char(0x7f, 0x9f)),
  fc.constantFrom(
    '"',
    '""',
    '"a"',
    "'",
    '*',
    'ab*',
    '^ab',
    'NEAR(ab cd)',
    'NEAR/2',
    ' AND ',
    ' OR ',
    'NOT ',
    'title:abc',
    'search:abc',
    '{search head rest}: abc',
    '-abc',
    '+abc',
    '(',
    ')',
    ':',
    '\\',
    '%',
    '%00',
    '%ED%A0%80',
    ',',
  ),
  fc.constantFrom('1', 'true', 'yes', '2020', 'movie', 'food', 'drama', 'title:desc', 'year:asc,title', 'e', 'the', 'run'),
);
const hostile = fc.oneof(
  { weight: 6, arbitrary: fc.array(piece, { maxLength: 6 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 190, maxLength: 230 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 1500, maxLength: 5000 }) },
);

interface Problem {
  type: string;
  status: number;
  parameter?: string;
}

/** 200, or a 4xx problem of the catalog; returns the problem, if any. */
async function answered(response: Response, label: string): Promise<Problem | undefined> {
  assert.ok(response.status < 500, `${label} → ${response.status} ${await response.clone().text()}`);
  if (response.status === 200) {
    await response.arrayBuffer();
    return undefined;
  }
  assert.ok(response.status >= 400, `${label} → ${response.status}`);
  assert.equal(response.headers.get('content-type'), 'application/problem+json', label);
  const problem = (await response.json()) as Problem;
  assert.match(problem.type, /^\/problems\/[a-z-]+$/, label);
  assert.ok(problem.type.slice('/problems/'.length) in PROBLEMS, label);
  assert.equal(problem.status, response.status, label);
  return problem;
}

/** A control character anywhere (the query string being short enough to be parsed) is refused naming the first parameter that holds one. */
function refusedAsControl(pairs: readonly (readonly [string, string])[], search: string, problem: Problem | undefined, label: string): void {
  const decoded = [...new URLSearchParams(search)];
  const first = decoded.find(([name, value]) => NOT_TEXT.test(name) || NOT_TEXT.test(value));
  if (!first || Buffer.byteLength(search) + 1 > LIMITS.queryStringBytesMax) return;
  assert.ok(problem, `${label}: ${JSON.stringify(pairs)} was answered 200`);
  const slug = NOT_TEXT.test(first[0]) || first[0] !== 'cursor' ? 'invalid-query' : 'invalid-cursor';
  assert.equal(problem.type, `/problems/${slug}`, label);
  assert.equal(problem.parameter, first[0], label);
}

const pairsOf = (names: readonly string[]) =>
  fc.array(fc.tuple(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: hostile }), hostile), { minLength: 1, maxLength: 4 });

test('every parameter of every collection list: 200 or a 4xx problem, and control characters refused by name', async () => {
  for (const declaration of restCollections) {
    const names = [...COMMON, ...Object.keys(declaration.filters)];
    await fc.assert(
      fc.asyncProperty(pairsOf(names), async (pairs) => {
        const search = new URLSearchParams(pairs.map(([n, v]) => [n, v])).toString();
        const label = `${declaration.name}?${search.slice(0, 200)}`;
        const problem = await answered(await rest(new Request(`http://x/api/${declaration.name}.json?${search}`)), label);
        refusedAsControl(pairs, search, problem, label);
      }),
      { numRuns: 120 },
    );
  }
});

test('every parameter of search: 200 or a 4xx problem, and control characters refused by name', async () => {
  await fc.assert(
    fc.asyncProperty(pairsOf([...SEARCH_PARAMETERS, 'q', 'q']), async (pairs) => {
      const search = new URLSearchParams(pairs.map(([n, v]) => [n, v])).toString();
      const label = `search?${search.slice(0, 200)}`;
      const problem = await answered(await rest(new Request(`http://x/api/search.json?${search}`)), label);
      refusedAsControl(pairs, search, problem, label);
    }),
    { numRuns: 600 },
  );
});

test('the taste summary’s parameters: 200 or a 4xx problem, and control characters refused by name', async () => {
  await fc.assert(
    fc.asyncProperty(pairsOf(['collection', 'exampleLimit']), async (pairs) => {
      const search = new URLSearchParams(pairs.map(([n, v]) => [n, v])).toString();
      const label = `taste?${search.slice(0, 200)}`;
      const problem = await answered(await taste(new Request(`http://x/api/taste/summary.json?${search}`)), label);
      refusedAsControl(pairs, search, problem, label);
    }),
    { numRuns: 200 },
  );
});

test('raw query strings (stray %, invalid UTF-8, unencoded text) never give a 5xx', async () => {
  const raw = fc
    .array(fc.oneof(piece, fc.constantFrom('&', '=', '%', '%zz', '%C3', '%C3%28', '%F0%9F', '%ED%A0%80', '%EF%BF%BD', '%C2%85', '+', '#', '?')), {
      maxLength: 12,
    })
    .map((p) => p.join(''));
  const paths = [...restCollections.map((c) => `/api/${c.name}.json`), '/api/search.json'];
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...paths), raw, async (path, query) => {
      await answered(await rest(new Request(`http://x${path}?${query}`)), `${path}?${query}`);
    }),
    { numRuns: 1000 },
  );
});

test('D3: a NUL in q is a 400 naming q, on collections and search (was an FTS5 500)', async () => {
  for (const path of ['/api/movies.json?q=a%00b', '/api/search.json?q=a%00b', '/api/places.json?q=%00%00%00', '/api/search.json?q=abc%00']) {
    const response = await rest(new Request(`http://127.0.0.1:4321${path}`));
    assert.equal(response.status, 400, path);
    const problem = (await response.json()) as Problem & { detail: string };
    assert.equal(problem.type, '/problems/invalid-query', path);
    assert.equal(problem.parameter, 'q', path);
    assert.match(problem.detail, /U\+0000/, path);
  }
  const cases: [string, string, string][] = [
    ['/api/movies.json?genre=Dra%09ma', 'invalid-query', 'genre'],
    ['/api/movies.json?sort=title%0A', 'invalid-query', 'sort'],
    ['/api/movies.json?limit=1%1F', 'invalid-query', 'limit'],
    ['/api/movies.json?facets=1%C2%85', 'invalid-query', 'facets'],
    ['/api/movies.json?q=a%ED%A0%80b', 'invalid-query', 'q'],
    ['/api/movies.json?q=%FF%FE', 'invalid-query', 'q'],
    ['/api/movies.json?x%00y=1', 'invalid-query', 'x\u0000y'],
    ['/api/movies.json?cursor=abc%00', 'invalid-cursor', 'cursor'],
    ['/api/search.json?q=run&collection=books%7F', 'invalid-query', 'collection'],
    ['/api/feed-items.json?since=2024-01-01%00', 'invalid-query', 'since'],
  ];
  for (const [path, slug, parameter] of cases) {
    const response = await rest(new Request(`http://x${path}`));
    const problem = (await response.json()) as Problem;
    assert.deepEqual([response.status, problem.type, problem.parameter], [400, `/problems/${slug}`, parameter], path);
  }
  const summary = await taste(new Request('http://x/api/taste/summary.json?exampleLimit=1%00'));
  assert.deepEqual([summary.status, ((await summary.json()) as Problem).parameter], [400, 'exampleLimit']);
});

test('FTS5 syntax in q is text: quotes, operators, column filters and prefixes find what a substring test finds', async () => {
  for (const q of [
    '"',
    '"""',
    'a"b',
    'NEAR(the man)',
    'the OR man',
    'NOT the',
    'AND',
    'title:the',
    'search : the',
    '^the',
    'the*',
    '{search}:the',
    '-the',
    '+the',
    '(the)',
  ]) {
    const response = await rest(new Request(`http://x/api/movies.json?${new URLSearchParams({ q })}`));
    assert.equal(response.status, 200, q);
    const search = await rest(new Request(`http://x/api/search.json?${new URLSearchParams({ q })}`));
    assert.equal(search.status, 200, q);
  }
});

/** Below the parser: any text at all as the search of a query, index plan against scan plan. */
test('any search text reaches the trigram index as one phrase: the index and the scan agree, for lists and search', () => {
  const scanning = new QueryCore(image, { dense: { matches: 0, share: 0 } });
  const searchIndexed = new SearchCore(image);
  const searchScanning = new SearchCore(image, { scan: true });
  const names = contentCollections.map((c) => c.name);
  const text = fc.oneof(
    fc.array(piece, { minLength: 1, maxLength: 5 }).map((p) => p.join('')),
    fc.constantFrom('the', 'an', 'e"s', 'a\u0000b', '\u0000\u0000\u0000', 'ma*', 'NEAR(th e)'),
  );
  fc.assert(
    fc.property(fc.constantFrom(...restCollections), text, (declaration, raw) => {
      const q = { value: raw, key: fold(raw) };
      fc.pre(q.key.length > 0);
      const query = { ...parseQuery(declaration, new URLSearchParams({ limit: '100' })), q };
      const a = core.run(query);
      const b = scanning.run(query);
      assert.deepEqual([a.totalCount, a.canonicalIds], [b.totalCount, b.canonicalIds], JSON.stringify(raw));
      const s = { ...parseSearch(names, new URLSearchParams({ q: 'x', limit: '100' })), q };
      const c = searchIndexed.run(s);
      const d = searchScanning.run(s);
      assert.deepEqual([c.totalCount, c.canonicalIds], [d.totalCount, d.canonicalIds], JSON.stringify(raw));
    }),
    { numRuns: 400 },
  );
});

test('GraphQL GET (graphql-http parses its query string): a NUL is a syntax error, or reaches the REST parser and is refused there, never a 5xx', async () => {
  const graphql = createGraphqlHandler(core);
  const get = async (search: string) => {
    const answer = await graphql(factsOf(new Request(`http://x/graphql?${search}`, { headers: { Accept: 'application/graphql-response+json' } })), null);
    return {
      status: answer.status,
      body: JSON.parse(Buffer.from(answer.body!).toString()) as { errors?: { extensions?: { code?: string; type?: string } }[] },
    };
  };
  const byVariable = 'query($q: String) { movies(filter: {q: $q}) { nodes { title } } }';
  const outside = await get(`query=${encodeURIComponent('{\u0000 movies { nodes { title } } }')}`);
  assert.equal(outside.status, 400);
  for (const search of [
    `query=${encodeURIComponent('{ movies(filter: {q: "a\u0000b"}) { nodes { title } } }')}`,
    `query=${encodeURIComponent('{ movies(filter: {q: "a\\u0000b"}) { nodes { title } } }')}`,
    `query=${encodeURIComponent(byVariable)}&variables=${encodeURIComponent(JSON.stringify({ q: 'a\u0000b' }))}`,
    `query=${encodeURIComponent(byVariable)}&variables=${encodeURIComponent('{"q":"a\\ud800b"}')}`,
  ]) {
    const { status, body } = await get(search);
    assert.equal(status, 200, search);
    assert.deepEqual(
      body.errors?.map((e) => e.extensions?.type),
      ['/problems/invalid-query'],
      search,
    );
  }
  for (const search of ['query=%7Bmovies%7Bnodes%7Btitle%7D%7D%7D&operationName=%00', 'query=%7Bmovies%7Bnodes%7Btitle%7D%7D%7D&x%00=%00']) {
    assert.ok((await get(search)).status < 500, search);
  }
});
