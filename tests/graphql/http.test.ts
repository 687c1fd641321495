/**
 * GraphQL over the wire, through the real server: graphql-http's own audit of the
 * GraphQL-over-HTTP specification, the version header, the document bound, the demand
 * limits and the cost budget with their headers, typed lookup results, REST's cursor
 * errors in GraphQL form, and the schema document.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { auditServer } from 'graphql-http';
import { buildSchema, getIntrospectionQuery, buildClientSchema, printSchema, type IntrospectionQuery } from 'graphql';
import { graphqlSdl } from '../../src/graphql/schema.ts';
import { LIMITS } from '../../src/core/limits.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

let server: RunningServer;
let small: RunningServer;
before(async () => {
  [server, small] = await Promise.all([startServer(), startServer({ GRAPHQL_COST_BUDGET: '60' })]);
});
after(() => Promise.all([server.stop(), small.stop()]));

interface GraphQLBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

const post = (query: string, init: { headers?: Record<string, string>; variables?: unknown; base?: string } = {}) =>
  fetch(`${init.base ?? server.base}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json', ...init.headers },
    body: JSON.stringify({ query, variables: init.variables }),
  });

test('every mandatory graphql-http audit of the GraphQL-over-HTTP spec passes', async () => {
  const results = await auditServer({ url: `${server.base}/graphql` });
  const failed = results.filter((r) => r.status !== 'ok' && r.name.startsWith('MUST'));
  assert.deepEqual(
    failed.map((r) => `${r.name}: ${r.status === 'ok' ? '' : r.reason}`),
    [],
  );
  const should = results.filter((r) => r.name.startsWith('SHOULD'));
  assert.ok(
    should.length > 0 && should.every((r) => r.status === 'ok'),
    should
      .filter((r) => r.status !== 'ok')
      .map((r) => r.name)
      .join('\n'),
  );
});

test('a GET query answers graphql-response+json with cost and budget headers; a GET mutation is 405', async () => {
  const query = encodeURIComponent('{ movies(first: 2) { nodes { title } totalCount } }');
  const r = await fetch(`${server.base}/graphql?query=${query}`, { headers: { Accept: 'application/graphql-response+json' } });
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type')!, /^application\/graphql-response\+json/);
  assert.equal(r.headers.get('graphql-cost'), '12');
  assert.equal(r.headers.get('graphql-api-version'), '1');
  assert.match(r.headers.get('ratelimit')!, /^"graphql";r=\d+;t=\d+$/);
  assert.equal(r.headers.get('ratelimit-policy'), `"graphql";q=${LIMITS.graphqlCostPerWindow};w=${LIMITS.graphqlWindowSeconds}`);
  const body = (await r.json()) as GraphQLBody;
  assert.equal((body.data!.movies as { nodes: unknown[] }).nodes.length, 2);

  const mutation = await fetch(`${server.base}/graphql?query=${encodeURIComponent('mutation { x }')}`, {
    headers: { Accept: 'application/graphql-response+json' },
  });
  assert.equal(mutation.status, 405);
  assert.equal(mutation.headers.get('allow'), 'POST');
  const posted = await post('mutation { x }');
  assert.equal(posted.status, 400, 'no mutation root: the document is invalid');
});

test('GraphQL-API-Version: absent, empty, 1 and 1.x work; another major is a clear error', async () => {
  for (const version of ['', ' 1 ', '1.0.0']) {
    const r = await post('{ __typename }', { headers: version ? { 'GraphQL-API-Version': version } : {} });
    assert.equal(r.status, 200, version);
  }
  const r = await post('{ __typename }', { headers: { 'GraphQL-API-Version': '2' } });
  assert.equal(r.status, 400);
  const body = (await r.json()) as GraphQLBody;
  assert.equal(body.errors![0]!.extensions!.code, 'UNSUPPORTED_API_VERSION');
  assert.match(body.errors![0]!.message, /version 1/);
});

test('bounds: a document over 64 KiB is 413, and token, alias and cost limits reject before execution (depth: tests/graphql/cost.test.ts)', async () => {
  const big = await post(`{ __typename ${' '.repeat(LIMITS.graphqlDocumentBytesMax)} }`);
  assert.equal(big.status, 413);
  const tokens = await post(`{ ${'__typename '.repeat(LIMITS.graphqlTokensMax)} }`);
  assert.equal(tokens.status, 400);
  assert.match(((await tokens.json()) as GraphQLBody).errors![0]!.message, /token/i);

  const aliases = await post(`{ ${Array.from({ length: LIMITS.graphqlAliasesMax + 1 }, (_, i) => `a${i}: __typename`).join(' ')} }`);
  assert.equal(aliases.status, 400);
  assert.equal(((await aliases.json()) as GraphQLBody).errors![0]!.extensions!.code, 'ALIAS_LIMIT');

  const costly = await post(
    `{ ${['movies', 'places', 'books', 'music', 'concerts'].map((c) => `${c}(first: 100, includeFacets: true) { nodes { __typename } facets { name values { value } } }`).join(' ')} }`,
  );
  assert.equal(costly.status, 400);
  assert.equal(costly.headers.get('graphql-cost') !== null, true, 'the rejected cost is reported');
  const error = ((await costly.json()) as GraphQLBody).errors![0]!;
  assert.equal(error.extensions!.code, 'COST_LIMIT');
  assert.ok(Number(costly.headers.get('graphql-cost')) > LIMITS.graphqlCostMax);
});

test('the cost budget of the window runs out into a 429 with Retry-After and RateLimit', async () => {
  const query = '{ movies(first: 20) { nodes { title } } }'; // 30 points
  const first = await post(query, { base: small.base });
  assert.equal(first.status, 200);
  assert.match(first.headers.get('ratelimit')!, /r=30;/);
  const second = await post(query, { base: small.base });
  assert.match(second.headers.get('ratelimit')!, /r=0;/);
  const third = await post(query, { base: small.base });
  assert.equal(third.status, 429);
  assert.ok(Number(third.headers.get('retry-after')) >= 1);
  assert.equal(((await third.json()) as GraphQLBody).errors![0]!.extensions!.code, 'RATE_LIMITED');
});

test('a bad cursor is a typed error naming the argument; a REST cursor works as `after`', async () => {
  const bad = (await (await post('{ movies(after: "bogus") { nodes { title } } }')).json()) as GraphQLBody;
  assert.deepEqual(bad.errors![0]!.extensions, { code: 'INVALID_CURSOR', type: '/problems/invalid-cursor', argument: 'after' });
  assert.ok(!JSON.stringify(bad).includes('stack'));
  const rest = (await (await fetch(`${server.base}/api/movies.json?limit=3`)).json()) as { links: { next: string } };
  const cursor = new URL(rest.links.next, server.base).searchParams.get('cursor');
  const page = (await (
    await post('query($c: String) { movies(first: 3, after: $c) { nodes { canonicalId } } }', { variables: { c: cursor } })
  ).json()) as GraphQLBody;
  const restPage = (await (await fetch(new URL(rest.links.next, server.base))).json()) as { data: { canonicalId: string }[] };
  assert.deepEqual(
    (page.data!.movies as { nodes: { canonicalId: string }[] }).nodes.map((n) => n.canonicalId),
    restPage.data.map((d) => d.canonicalId),
  );
});

test('contentLookup answers the record, or a typed PublicGraphQLError for a malformed or unknown ID', async () => {
  const rest = (await (await fetch(`${server.base}/api/places.json?limit=1`)).json()) as { data: { canonicalId: string; name: string }[] };
  const place = rest.data[0]!;
  const query = `query($id: ID!) { contentLookup(canonicalId: $id) { __typename
    ... on ContentLookupSuccess { collection canonicalId url item { ... on PlacesItem { name } } }
    ... on PublicGraphQLError { code message type } } }`;
  const lookup = async (id: string) => ((await (await post(query, { variables: { id } })).json()) as GraphQLBody).data!.contentLookup;
  assert.deepEqual(await lookup(place.canonicalId), {
    __typename: 'ContentLookupSuccess',
    collection: 'places',
    canonicalId: place.canonicalId,
    url: `/places/${place.canonicalId}`,
    item: { name: place.name },
  });
  assert.deepEqual(await lookup('itm_000000000000000000000000'), {
    __typename: 'PublicGraphQLError',
    code: 'NOT_FOUND',
    message: 'No public record has this canonical ID.',
    type: '/problems/not-found',
  });
  assert.equal(((await lookup('nope')) as { code: string }).code, 'INVALID_ID');
});

test('introspection is on: the served schema has no mutation or subscription root and holds the reserved AsyncJob types', async () => {
  const r = await post(getIntrospectionQuery({ schemaDescription: true, specifiedByUrl: true }));
  assert.equal(r.status, 200);
  const schema = buildClientSchema(((await r.json()) as { data: IntrospectionQuery }).data);
  assert.ok(!schema.getMutationType());
  assert.ok(!schema.getSubscriptionType());
  assert.ok(schema.getType('AsyncJob') && schema.getType('AsyncJobStatus'));
  const served = await fetch(`${server.base}/graphql/schema.graphql`);
  assert.equal(served.status, 200);
  const sdl = await served.text();
  assert.equal(sdl, graphqlSdl());
  // The document and introspection describe the same schema.
  assert.ok(printSchema(buildSchema(sdl)) === printSchema(schema), 'introspection and schema.graphql differ');
  assert.ok(readFileSync('src/graphql/schema.graphql', 'utf8').length > 0);
});

test('a repeated query is answered the same, byte for byte and per media type, and is charged its cost every time', async () => {
  const query = '{ movies(first: 3, orderBy: [{ field: YEAR, direction: DESC }]) { nodes { canonicalId title year } totalCount } }';
  const costs: number[] = [];
  const remaining: number[] = [];
  const bodies = new Map<string, string[]>();
  for (let i = 0; i < 4; i++) {
    for (const accept of ['application/graphql-response+json', 'application/json']) {
      const r = await post(query, { headers: { Accept: accept } });
      assert.equal(r.status, 200);
      assert.ok(r.headers.get('content-type')!.startsWith(accept), accept);
      costs.push(Number(r.headers.get('graphql-cost')));
      remaining.push(Number(/r=(\d+)/.exec(r.headers.get('ratelimit')!)![1]));
      bodies.set(accept, [...(bodies.get(accept) ?? []), await r.text()]);
    }
  }
  for (const [accept, seen] of bodies) assert.equal(new Set(seen).size, 1, `${accept}: one body whether computed or remembered`);
  assert.ok(costs.every((c) => c === costs[0] && c > 0));
  for (let i = 1; i < remaining.length; i++) assert.equal(remaining[i], remaining[i - 1]! - costs[0]!, 'each answer spends the cost, remembered or not');
  // Different variables are a different result.
  const one = await (await post('query($n: Int) { movies(first: $n) { nodes { title } } }', { variables: { n: 1 } })).json();
  const two = await (await post('query($n: Int) { movies(first: $n) { nodes { title } } }', { variables: { n: 2 } })).json();
  assert.equal(((one as GraphQLBody).data!.movies as { nodes: unknown[] }).nodes.length, 1);
  assert.equal(((two as GraphQLBody).data!.movies as { nodes: unknown[] }).nodes.length, 2);
});

test('variables nested deeper than the stack allows are refused with an error, not a 500 (found by the fuzz campaign)', async () => {
  const deep = `{"query":"query($v: Int) { movies(first: $v) { totalCount } }","variables":{"v":${'['.repeat(20_000)}${']'.repeat(20_000)}}}`;
  const r = await fetch(`${server.base}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json' },
    body: deep,
  });
  assert.ok(r.status < 500, String(r.status));
  assert.ok(((await r.json()) as GraphQLBody).errors?.length, 'the variable is refused with an error');
});
