/**
 * The GraphQL handler's remembered answers, as a property (issue 42): for any words a
 * request may hold — GET or POST, any `Accept` and `Content-Type`, any
 * `GraphQL-API-Version`, a query string or none, a body that is a valid operation (with
 * variables, an operation name, another spelling), an invalid one, or not JSON — asking a
 * remembering handler again and again gives exactly what a handler that remembers nothing
 * gives: the same status, headers (the client's count included: both charge the same cost
 * on the same clock) and bytes, through to the 429 of a spent budget.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import fc from '../helpers/fc.ts';
import { createGraphqlHandler } from '../../functions/graphql.ts';
import { Image } from '../../src/core/image.ts';
import { QueryCore } from '../../src/core/query.ts';
import type { Answer, RequestFacts } from '../../src/http/answer.ts';
import { paths } from '../../src/paths.ts';

const image = new Image(paths.image);
after(() => image.close());
const core = new QueryCore(image);

const facts = (method: string, search: string, headers: Record<string, string>): RequestFacts => ({
  method,
  url: new URL(`http://runtime.invalid/graphql${search}`),
  target: `/graphql${search}`,
  header: (name) => headers[name.toLowerCase()] ?? null,
});

const comparable = (answer: Answer) => ({
  status: answer.status,
  headers: Object.entries(answer.headers),
  body: answer.body === null ? null : Buffer.from(answer.body).toString('base64'),
});

const DOCUMENTS = [
  '{ movies(first: 2) { nodes { canonicalId title } totalCount } }',
  '{movies(first:2){nodes{canonicalId title}totalCount}}',
  'query Q($n: Int) { movies(first: $n) { nodes { title } pageInfo { hasNextPage endCursor } } }',
  '{ movies(first: 2) { nodes { nope } } }',
  '{ movies(first: 100) { nodes { title } } tweets(first: 100) { nodes { canonicalId } } }',
  'mutation { x }',
  '{ movies(first: 2',
];
/** Few spellings of each part, so the same words come back often and differ in one part only. */
const bodyArbitrary = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(JSON.stringify({ query: DOCUMENTS[0] }), JSON.stringify({ query: DOCUMENTS[2], variables: { n: 2 } })) },
  {
    weight: 2,
    arbitrary: fc
      .record(
        {
          query: fc.constantFrom(...DOCUMENTS),
          variables: fc.option(fc.constantFrom({ n: 1 }, { n: 'x' }, {}), { nil: undefined }),
          operationName: fc.option(fc.constantFrom('Q', 'R'), { nil: undefined }),
        },
        { requiredKeys: ['query'] },
      )
      .map((body) => JSON.stringify(body)),
  },
  { weight: 1, arbitrary: fc.constantFrom('', 'not json', '[]', '{"query": 1}', `{"query": ${JSON.stringify(DOCUMENTS[0])} }`) },
);
const requestArbitrary = fc.record({
  method: fc.constantFrom('POST', 'POST', 'POST', 'GET'),
  body: bodyArbitrary,
  search: fc.constantFrom('', '', '', '?query=%7B%20movies(first%3A%201)%20%7B%20totalCount%20%7D%20%7D', '?x=1'),
  accept: fc.option(fc.constantFrom('application/graphql-response+json', 'application/json', 'text/plain'), { nil: undefined }),
  contentType: fc.option(fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain'), { nil: undefined, freq: 6 }),
  version: fc.option(fc.constantFrom('1', '1.2', '2'), { nil: undefined, freq: 3 }),
});

test('asking a remembering handler again gives what a handler that remembers nothing gives, budget and all', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(requestArbitrary, { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 4 }), async (requests, times) => {
      // A small budget, so some runs spend it and the 429 is compared too; one clock for both.
      const options = { budget: 600, now: () => 1_000_000, clientOf: () => 'client' };
      const remembering = createGraphqlHandler(core, { ...options, cacheBytes: 1 << 20 });
      const cold = createGraphqlHandler(core, { ...options, cacheBytes: 0 });
      for (let round = 0; round < times; round++) {
        for (const r of requests) {
          const headers: Record<string, string> = {};
          if (r.accept !== undefined) headers.accept = r.accept;
          if (r.contentType !== undefined) headers['content-type'] = r.contentType;
          if (r.version !== undefined) headers['graphql-api-version'] = r.version;
          const request = facts(r.method, r.search, headers);
          const body = r.body === '' ? null : Buffer.from(r.body);
          const [replayed, computed] = [await remembering(request, body), await cold(request, body)];
          assert.deepEqual(comparable(replayed), comparable(computed), `${r.method} ${r.search} ${r.body}`);
        }
      }
    }),
    { numRuns: 80 },
  );
});

test('a repeated request is replayed: the same bytes, its cost charged again, its fixed fields named', async () => {
  const handler = createGraphqlHandler(core, { now: () => 0 });
  const request = facts('POST', '', { accept: 'application/graphql-response+json', 'content-type': 'application/json' });
  const body = Buffer.from(JSON.stringify({ query: DOCUMENTS[0] }));
  const answers = [await handler(request, body), await handler(request, body), await handler(request, body)];
  assert.equal(answers[0]!.fixedHeaders, undefined, 'computed the first two times (remembered from the second)');
  assert.ok(answers[2]!.fixedHeaders, 'replayed the third time');
  assert.deepEqual(Object.keys(answers[2]!.headers), Object.keys(answers[0]!.headers));
  assert.equal(Object.keys(answers[2]!.headers).at(-1), 'RateLimit', "the client's count comes last, after the fixed fields");
  const left = answers.map((a) => Number(/;r=(\d+)/.exec(a.headers.RateLimit ?? '')?.[1]));
  const cost = Number(answers[0]!.headers['GraphQL-Cost']);
  assert.deepEqual([left[0]! - left[1]!, left[1]! - left[2]!], [cost, cost]);
  for (const answer of answers) assert.deepEqual(Buffer.from(answer.body!), Buffer.from(answers[0]!.body!));
});

test('a GET is remembered by its query string: another query string is never answered with it', async () => {
  const handler = createGraphqlHandler(core, { now: () => 0 });
  const accept = { accept: 'application/graphql-response+json' };
  const one = facts('GET', `?query=${encodeURIComponent('{ movies(first: 1) { totalCount } }')}`, accept);
  const other = facts('GET', `?query=${encodeURIComponent('{ movies(first: 2) { nodes { title } } }')}`, accept);
  for (let i = 0; i < 3; i++) await handler(one, null);
  const [replayed, computed] = [await handler(one, null), await handler(other, null)];
  assert.ok(replayed.fixedHeaders, 'the first query string is replayed');
  assert.equal(computed.status, 200);
  assert.notDeepEqual(Buffer.from(computed.body!), Buffer.from(replayed.body!));
});
