/**
 * Remembered RPC batch answers, as a property (issue 42): for any sequence of batch
 * bodies — pipelined calls over any collection and filter, a call that fails, a body
 * that is not capnweb's format, one with too many operations, one over the size bound,
 * bytes that are not UTF-8 — a remembering handler answers each exactly as a handler that
 * remembers nothing: the same status, headers (the session count included: both admit the
 * same sessions on the same clock) and bytes, through to the 429 of a spent quota.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import fc from '../helpers/fc.ts';
import { createRpcHandler } from '../../functions/rpc.ts';
import { Image } from '../../src/core/image.ts';
import { LIMITS } from '../../src/core/limits.ts';
import { QueryCore } from '../../src/core/query.ts';
import type { Answer } from '../../src/http/answer.ts';
import { paths } from '../../src/paths.ts';

const image = new Image(paths.image);
after(() => image.close());
const core = new QueryCore(image);

const comparable = (answer: Answer) => ({
  status: answer.status,
  headers: Object.entries(answer.headers),
  body: answer.body === null ? null : Buffer.from(answer.body).toString('base64'),
});

/** What the capnweb client sends for `content[name].matching(filters).first(n)`, then `records()` and `info()`, pipelined. */
const pipelined = (name: string, filters: object, n: number) =>
  [
    `["push",["pipeline",0,["content",${JSON.stringify(name)},"matching"],[${JSON.stringify(filters)}]]]`,
    `["push",["pipeline",1,["first"],[${n}]]]`,
    '["push",["pipeline",2,["records"],[]]]',
    '["push",["pipeline",2,["info"],[]]]',
    '["pull",3]',
    '["pull",4]',
  ].join('\n');

/**
 * A batch whose filter value is `unit` a third of the size bound times: 0xFF (one byte
 * each, within the bound) and U+FFFD (three, past it) decode to the same text.
 */
const invalidUtf8 = (unit: Buffer) => {
  const [before, after] = pipelined('movies', { genre: '@' }, 2).split('@') as [string, string];
  return Buffer.concat([Buffer.from(before), Buffer.alloc(Math.ceil(LIMITS.rpcBatchBytesMax / 3) * unit.length, unit), Buffer.from(after)]);
};

const bodyArbitrary = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .tuple(fc.constantFrom('movies', 'books', 'tweets'), fc.constantFrom({ genre: 'Drama' }, { genre: 'Comedy' }, {}, { limit: 2 }), fc.constantFrom(2, 3, 0))
      .map(([name, filters, n]) => Buffer.from(pipelined(name, filters, n))),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      Buffer.from('["push",["pipeline",0,["service","describe"],[]]]\n["pull",1]'),
      Buffer.from('not capnweb'),
      Buffer.from(Array.from({ length: LIMITS.rpcBatchOperationsMax + 1 }, () => '["push",["pipeline",0,["service","health"],[]]]').join('\n')),
      // Bytes that are not UTF-8 read as the text of a remembered batch, once decoded; and one over the bound that does too.
      Buffer.concat([Buffer.from(pipelined('movies', { genre: 'Drama' }, 2).replace('Drama', 'Dr')), Buffer.from([0xff]), Buffer.from('ma')]),
      Buffer.from(pipelined('movies', { genre: 'Dr\ufffdma' }, 2)),
      invalidUtf8(Buffer.from([0xff])),
      invalidUtf8(Buffer.from('\ufffd')),
    ),
  },
);

test('a remembering handler answers every batch as a handler that remembers nothing, session quota and all', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(bodyArbitrary, { minLength: 1, maxLength: 20 }), async (bodies) => {
      // A small session quota, so some runs spend it and the 429 is compared too; one clock for both.
      const options = { sessions: 12, now: () => 1_000_000 };
      const remembering = createRpcHandler(core, { ...options, cacheBytes: 1 << 22 });
      const cold = createRpcHandler(core, { ...options, cacheBytes: 0 });
      for (const body of bodies) {
        const exchange = {
          facts: { method: 'POST', url: new URL('http://runtime.invalid/api/rpc'), header: () => null },
          body,
          request: () => {
            throw new Error('a batch is answered without a Web request');
          },
        };
        const [replayed, computed] = [await remembering.batch(exchange, 'client'), await cold.batch(exchange, 'client')];
        assert.deepEqual(comparable(replayed), comparable(computed), body.toString().slice(0, 200));
      }
    }),
    { numRuns: 40 },
  );
});
