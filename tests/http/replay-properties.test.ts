/**
 * The REST handler's replay, as a property (issue 31): for any words a request may hold —
 * a target with any query (valid or not, spelled any way), any `Accept`, any
 * `API-Version`, GET or HEAD, with or without a validator — asking a remembering handler
 * again and again gives exactly what a handler that remembers nothing gives: the same
 * status, headers and bytes. Only the client's count differs, and it falls by one per
 * request (none for a 304), whether the answer was computed or replayed.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import fc from '../helpers/fc.ts';
import { createRestHandler } from '../../functions/rest.ts';
import { restCollections } from '../../src/collections/index.ts';
import { Image } from '../../src/core/image.ts';
import { QueryCore } from '../../src/core/query.ts';
import type { Answer, RequestFacts } from '../../src/http/answer.ts';
import { paths } from '../../src/paths.ts';

const image = new Image(paths.image);
after(() => image.close());
const core = new QueryCore(image);
const QUOTA = 1_000_000;
const remembering = createRestHandler(core, { quota: QUOTA });
const cold = createRestHandler(core, { cacheBytes: 0, quota: QUOTA });

const facts = (target: string, method: string, headers: Record<string, string>): RequestFacts => ({
  method,
  url: new URL(`http://runtime.invalid${target}`),
  target,
  header: (name) => headers[name.toLowerCase()] ?? null,
});

/** An answer as compared: all but the client's count, which `remaining` reads. */
const comparable = (answer: Answer) => {
  const { RateLimit: _count, ...headers } = answer.headers;
  return { status: answer.status, headers, body: answer.body === null ? null : Buffer.from(answer.body).toString('base64') };
};
const remaining = (answer: Answer) => Number(/;r=(\d+)/.exec(answer.headers.RateLimit ?? '')?.[1] ?? NaN);

const pieces = [
  'limit=2',
  'limit=02',
  'limit=0',
  'limit=x',
  'sort=year:desc',
  'sort=nope',
  'q=the',
  'q=%C3%A9',
  'q=',
  'year=2024',
  'cursor=abc',
  'facets=genre',
  '%zz',
  'a=b&a=c',
  '',
];
const targetArbitrary = fc
  .tuple(fc.constantFrom(...restCollections.map((c) => `/api/${c.name}.json`), '/api/search.json'), fc.array(fc.constantFrom(...pieces), { maxLength: 3 }))
  .map(([path, query]) => (query.length ? `${path}?${query.join('&')}` : path));
const acceptArbitrary = fc.option(
  fc.constantFrom(
    'application/json',
    'text/csv',
    'text/csv;q=0.5, application/json',
    'application/geo+json',
    'text/html',
    'image/png',
    '*/*',
    'application/*;q=0',
  ),
  { nil: undefined },
);
const versionArbitrary = fc.option(fc.constantFrom('1.0.0', ' 1.0.0 ', '2.0.0', ''), { nil: undefined });

test('asking a remembering handler again gives what a handler that remembers nothing gives, and counts each request once', () => {
  fc.assert(
    fc.property(targetArbitrary, acceptArbitrary, versionArbitrary, fc.boolean(), fc.boolean(), (target, accept, version, head, revalidate) => {
      const headers: Record<string, string> = {};
      if (accept !== undefined) headers.accept = accept;
      if (version !== undefined) headers['api-version'] = version;
      const method = head ? 'HEAD' : 'GET';
      const expected = cold(facts(target, method, headers)) as Answer;
      let before: number | undefined;
      for (let i = 0; i < 3; i++) {
        const answer = remembering(facts(target, method, headers)) as Answer;
        assert.deepEqual(comparable(answer), comparable(expected), `${target} ${JSON.stringify(headers)} #${i}`);
        if (before !== undefined) assert.equal(remaining(answer), before - 1, 'one unit per request');
        before = remaining(answer);
      }
      if (revalidate && expected.status === 200) {
        const validated = { ...headers, 'if-none-match': expected.headers.ETag! };
        const notModified = remembering(facts(target, method, validated)) as Answer;
        assert.equal(notModified.status, 304);
        assert.equal(remaining(notModified), before, 'a 304 spends nothing');
        assert.deepEqual(comparable(notModified), comparable(cold(facts(target, method, validated)) as Answer));
      }
    }),
    { numRuns: 300 },
  );
});
