/**
 * Pre-serialized records (src/rpc/preserialized.ts), as a property (issue 42): for any
 * batch — pushes of calls and property reads on the root and on earlier pushes, over any
 * collection, search and the feed, with good and bad arguments (filters, page sizes,
 * cursors, sort keys, members that do not exist); pulls of any export, released ones
 * included; `records()` answers only pulled, or read, passed on, mapped or released; lines
 * that are not capnweb messages — a handler that pre-serializes answers exactly as one
 * that leaves every batch to capnweb: the same status, headers and bytes.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import fc from '../helpers/fc.ts';
import { createRpcHandler } from '../../functions/rpc.ts';
import { collection } from '../../src/collections/index.ts';
import { Image } from '../../src/core/image.ts';
import { parseQuery } from '../../src/core/params.ts';
import { QueryCore } from '../../src/core/query.ts';
import type { Answer } from '../../src/http/answer.ts';
import { paths } from '../../src/paths.ts';
import { preserializable } from '../../src/rpc/preserialized.ts';

const image = new Image(paths.image);
after(() => image.close());
const core = new QueryCore(image);
const options = { sessions: Number.MAX_SAFE_INTEGER, cacheBytes: 0, now: () => 1_000_000 };
const fast = createRpcHandler(core, options);
const capnweb = createRpcHandler(core, { ...options, preserialize: false });

const comparable = (answer: Answer) => ({
  status: answer.status,
  headers: Object.entries(answer.headers),
  body: answer.body === null ? null : Buffer.from(answer.body).toString(),
});

const answer = (handler: typeof fast, body: string) =>
  handler.batch(
    {
      facts: { method: 'POST', url: new URL('http://runtime.invalid/api/rpc'), header: () => null },
      body: Buffer.from(body),
      request: () => {
        throw new Error('a batch is answered without a Web request');
      },
    },
    'client',
  );

/** A real cursor of the demo image (the movies' second page). */
const realCursor = core.run(parseQuery(collection('movies')!, new URLSearchParams({ limit: '2' }))).next!;

const collections = ['movies', 'books', 'tweets', 'places', 'events', 'feed-items', 'nope'];
const filters = fc.oneof(
  fc.constantFrom({ genre: 'Drama' }, { genre: 'Comedy' }, { type: 'movie' }, {}, { genre: [['Drama', 'Comedy']] }, { q: 'the' }),
  fc.constantFrom({ limit: 2 }, { nope: 'x' }, { genre: [[]] }, { genre: ['Drama', 'Comedy'] }, { genre: { x: 1 } }, { since: '2020-01-01' }, { year: 1999 }),
);
/** An argument list, good or bad, as capnweb writes it (arrays escaped as `[[…]]`). */
const argsOf = fc.oneof(
  fc.constant([]),
  filters.map((f) => [f]),
  fc.constantFrom([1], [2], [5], [0], [101], ['5'], [2.5], [null], [['undefined']]),
  fc.constantFrom([[[{ field: 'title', direction: 'asc' }]]], [[[{ field: 'nope' }]]], [[[]]], ['title']),
  fc.constantFrom(['not-a-cursor'], ['not-a-cursor', 2], [realCursor], [realCursor, 3]),
  fc.constantFrom([{ query: 'the' }], [{ query: 'night', collections: [['movies', 'books']] }], [{ query: 5 }]),
  fc.constantFrom([{ format: 'json', limit: 3 }], [{ format: 'csv', limit: 2 }], [{ format: 'nope' }]),
  fc.constantFrom([{ collections: [['movies']] }], [{ since: ['date', 1577836800000] }], [{}]),
);
const rootPaths = fc.oneof(
  fc.constantFrom(...collections).map((c) => ['content', c]),
  fc.constantFrom(...collections).map((c) => ['content', c, 'records']),
  fc.constantFrom(['service', 'describe'], ['service', 'health'], ['discovery', 'search'], ['feed', 'select'], ['open'], ['content'], ['service']),
);
const members = fc.constantFrom(
  'records',
  'records',
  'records',
  'info',
  'info',
  'items',
  'matching',
  'first',
  'orderedBy',
  'pageAfter',
  'next',
  'export',
  'nope',
  'constructor',
  '0',
  'title',
  'length',
);

interface PushShape {
  onRoot: boolean;
  target: number;
  rootPath: readonly string[];
  member: string[];
  call: boolean;
  args: readonly unknown[];
  passes: number | null;
}
type Generated = { tag: 'push'; p: PushShape } | { tag: 'pull'; id: number } | { tag: 'release'; id: number } | { tag: 'raw'; text: string };

/** A push on the root or an earlier push (its `target`, resolved below to an export ID). */
const push: fc.Arbitrary<PushShape> = fc.record({
  onRoot: fc.boolean(),
  target: fc.nat(12),
  rootPath: rootPaths,
  member: fc.array(members, { minLength: 1, maxLength: 2 }),
  call: fc.boolean(),
  args: argsOf,
  // Sometimes an argument is an earlier push (a records() answer passed on, or a selection).
  passes: fc.option(fc.nat(12), { freq: 6 }),
});
const message: fc.Arbitrary<Generated> = fc.oneof(
  { weight: 6, arbitrary: push.map((p) => ({ tag: 'push' as const, p })) },
  { weight: 4, arbitrary: fc.nat(14).map((id) => ({ tag: 'pull' as const, id })) },
  { weight: 1, arbitrary: fc.nat(14).map((id) => ({ tag: 'release' as const, id })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        '["push",["remap",1,[],[],[["pipeline",0,["records"],[]]]]]',
        '["push",[[["pipeline",1,["records"],[]]]]]',
        '["pull","1"]',
        '["abort",["error","Error","x"]]',
        '',
        '["push",["pipeline",99,["records"],[]]]',
        '["push",["pipeline",0,["content","movies","records"],[]]]',
      )
      .map((text) => ({ tag: 'raw' as const, text })),
  },
);

/** The capnweb text of a generated batch: pushes numbered 1, 2, 3… as capnweb numbers them. */
function render(messages: Generated[]): string {
  let pushes = 0;
  const lines: string[] = [];
  for (const m of messages) {
    if (m.tag === 'pull') lines.push(`["pull",${Math.min(m.id, pushes + 1)}]`);
    else if (m.tag === 'release') lines.push(`["release",${Math.min(m.id, pushes)},1]`);
    else if (m.tag === 'push') {
      const { onRoot, target, rootPath, member, call, args, passes } = m.p;
      const on = onRoot || pushes === 0 ? 0 : 1 + (target % pushes);
      const path = on === 0 ? [...rootPath, ...(rootPath.length === 1 ? member : [])] : member;
      const withPassed = passes === null || pushes === 0 ? args : [...args, ['pipeline', 1 + (passes % pushes)]];
      const expression = call ? ['pipeline', on, path, withPassed] : ['pipeline', on, path];
      lines.push(JSON.stringify(['push', expression]));
      pushes += 1;
    } else lines.push(m.text);
  }
  return lines.join('\n');
}

/** What a capnweb client sends for `content.<name>.matching(filters).first(n)`, then `records()` and `info()`, pipelined. */
const pipelined = fc
  .tuple(fc.constantFrom('movies', 'books', 'tweets', 'places', 'events', 'photos', 'feed-items'), filters, fc.constantFrom(1, 3, 50, 100, 0))
  .map(([name, f, n]) =>
    [
      `["push",["pipeline",0,["content",${JSON.stringify(name)},"matching"],[${JSON.stringify(f)}]]]`,
      `["push",["pipeline",1,["first"],[${n}]]]`,
      '["push",["pipeline",2,["records"],[]]]',
      '["push",["pipeline",2,["info"],[]]]',
      '["pull",3]',
      '["pull",4]',
    ].join('\n'),
  );
/** A search, its records pulled. */
const searched = fc
  .constantFrom('the', 'night', 'drama', 'zzzz')
  .map((q) => [`["push",["pipeline",0,["discovery","search"],[{"query":"${q}"}]]]`, '["push",["pipeline",1,["records"],[]]]', '["pull",2]'].join('\n'));

const batch = fc.oneof(
  { weight: 3, arbitrary: fc.array(message, { minLength: 1, maxLength: 10 }).map(render) },
  { weight: 1, arbitrary: pipelined },
  { weight: 1, arbitrary: searched },
);

test('a batch answers the same bytes whether its pulled records are pre-serialized or left to capnweb', async (t) => {
  // Unexpected failures are logged in the process (src/rpc/errors.ts); both handlers log the same ones.
  t.mock.method(console, 'error', () => {});
  let preserialized = 0;
  let withRecords = 0;
  await fc.assert(
    fc.asyncProperty(batch, async (body) => {
      if (preserializable(body.split('\n'))) preserialized += 1;
      const [expected, actual] = [await answer(capnweb, body), await answer(fast, body)];
      assert.deepEqual(comparable(actual), comparable(expected), body);
      if (preserializable(body.split('\n')) && (comparable(actual).body ?? '').includes('"canonicalId"')) withRecords += 1;
    }),
    { numRuns: 300 },
  );
  // The property is only worth its runs if many batches took the pre-serialized path.
  assert.ok(preserialized >= 60, `only ${preserialized} of 300 batches were pre-serialized`);
  assert.ok(withRecords >= 25, `only ${withRecords} of 300 batches answered pre-serialized records`);
});

test('only a batch whose records() answers are pulled and nothing else qualifies', () => {
  const lines = (...messages: string[]) => messages;
  const base = ['["push",["pipeline",0,["content","movies","matching"],[{}]]]', '["push",["pipeline",1,["records"],[]]]'];
  assert.equal(preserializable(lines(...base, '["pull",2]')), true);
  assert.equal(preserializable(lines(...base)), true);
  assert.equal(preserializable(lines(...base, '["push",["pipeline",2,["0"]]]', '["pull",3]')), false, 'a read of the answer');
  assert.equal(preserializable(lines(...base, '["push",["pipeline",0,["discovery","recommend"],[{"intent":"x"},["pipeline",2]]]]')), false, 'passed on');
  assert.equal(preserializable(lines(...base, '["release",2,1]')), false, 'a release');
  assert.equal(preserializable(lines(base[0]!, '["push",[[["pipeline",1,["records"],[]]]]]', '["pull",2]')), false, 'inside a literal');
  assert.equal(preserializable(lines(base[0]!, '["push",["remap",1,[],[],[]]]', '["pull",2]')), false, 'a map');
  assert.equal(preserializable(lines(base[0]!, '["pull",1]')), false, 'no records() at all');
  assert.equal(preserializable(lines(...base, '')), false, 'an empty line');
});
