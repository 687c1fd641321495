import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import fc from '../helpers/fc.ts';
import { collection } from '../../src/collections/index.ts';
import { Image } from '../../src/core/image.ts';
import { ENTRY_OVERHEAD_BYTES, stringBytes } from '../../src/core/memo.ts';
import { canonicalSearch, parseQuery } from '../../src/core/params.ts';
import { QueryCore } from '../../src/core/query.ts';
import { ANSWER_OVERHEAD_BYTES, AnswerCache, answerBytes } from '../../src/http/answer-cache.ts';
import { listAnswer } from '../../src/http/list.ts';
import { paths } from '../../src/paths.ts';

const answer = (bytes: number, headers: Record<string, string> = {}) => ({ body: Buffer.alloc(bytes), headers });
/** What the cache charges for one entry. */
const charged = (key: string, a: ReturnType<typeof answer>) => ENTRY_OVERHEAD_BYTES + stringBytes(key) + answerBytes(a);

test('an answer is charged its key as UTF-16, its body, every header name and value, and a fixed overhead', () => {
  const a = answer(100, { ETag: '"x"', Link: '</a>; rel="self"' });
  assert.equal(answerBytes(a), ANSWER_OVERHEAD_BYTES + 100 + stringBytes('ETag') + stringBytes('"x"') + stringBytes('Link') + stringBytes('</a>; rel="self"'));
  const cache = new AnswerCache(10_000, 0);
  cache.set('ключ', a);
  assert.equal(cache.bytes, ENTRY_OVERHEAD_BYTES + 24 + 2 * 4 + answerBytes(a));
});

test('the answer cache replays what it holds and never exceeds its byte budget', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 20_000 }),
      fc.array(fc.tuple(fc.string({ maxLength: 8 }), fc.nat({ max: 4000 }), fc.string({ maxLength: 40 })), { maxLength: 60 }),
      (budget, puts) => {
        const cache = new AnswerCache(budget, 0);
        for (const [key, size, link] of puts) {
          const a = answer(size, { Link: link });
          cache.set(key, a);
          assert.ok(cache.bytes <= budget, `${cache.bytes} > ${budget}`);
          if (charged(key, a) <= budget) assert.ok(cache.get(key), 'an answer that fits is held right after it is set');
          else assert.equal(cache.get(key), undefined);
        }
      },
    ),
  );
});

test('the least recently used answer goes first; a zero budget holds nothing', () => {
  const one = charged('a', answer(99));
  const cache = new AnswerCache(2 * one + one / 2, 0);
  cache.set('a', answer(99));
  cache.set('b', answer(99));
  cache.get('a');
  cache.set('c', answer(99));
  assert.ok(cache.get('a') && cache.get('c'));
  assert.equal(cache.get('b'), undefined);
  const off = new AnswerCache(0, 0);
  off.set('a', answer(1));
  assert.equal(off.get('a'), undefined);
});

test('an answer is remembered from the second time its query is asked', () => {
  const cache = new AnswerCache(100_000);
  cache.set('a', answer(10));
  assert.equal(cache.get('a'), undefined, 'a first request is only noted');
  cache.set('a', answer(10));
  assert.ok(cache.get('a'));
  const tiny = new AnswerCache(100_000, 1);
  tiny.set('x', answer(1));
  tiny.set('y', answer(1));
  tiny.set('x', answer(1));
  assert.equal(tiny.get('x'), undefined, 'y took the only slot, so x counts as new again');
});

const image = new Image(paths.image);
after(() => image.close());

/** 190 characters from a fixed sequence, some outside Latin-1 (percent-encoded keys, two-byte text). */
function searches(count: number): string[] {
  const alphabet = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ÄéПжλ日本'];
  let seed = 12;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () => Array.from({ length: 190 }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''));
}

test('a flood of distinct searches never takes the cache past its budget, and is not admitted at all (D6)', () => {
  const core = new QueryCore(image);
  const movies = collection('movies')!;
  const budget = 1024 * 1024;
  const admitAll = new AnswerCache(budget, 0);
  const doorkeeper = new AnswerCache(budget);
  let peak = 0;
  for (const q of searches(3000)) {
    const query = parseQuery(movies, new URLSearchParams({ q }));
    const key = `application/json movies${canonicalSearch(query)}`;
    const answer = listAnswer(core, query);
    admitAll.set(key, answer);
    doorkeeper.set(key, answer);
    peak = Math.max(peak, admitAll.bytes);
    assert.ok(admitAll.bytes <= budget, `${admitAll.bytes} bytes held`);
  }
  assert.ok(peak > budget * 0.9, 'the flood fills the budget');
  assert.ok(admitAll.size < 3000, 'old answers were evicted');
  assert.equal(doorkeeper.size, 0, 'no query was asked twice');
});

test('a flood of searches each asked twice fills the cache, never past its budget', () => {
  const core = new QueryCore(image);
  const movies = collection('movies')!;
  const budget = 512 * 1024;
  const cache = new AnswerCache(budget);
  for (const q of searches(1500)) {
    const query = parseQuery(movies, new URLSearchParams({ q }));
    const key = `application/json movies${canonicalSearch(query)}`;
    for (let i = 0; i < 2; i++) cache.set(key, listAnswer(core, query));
    assert.ok(cache.get(key), 'held once asked twice');
    assert.ok(cache.bytes <= budget, `${cache.bytes} bytes held`);
  }
  assert.ok(cache.bytes > budget * 0.9);
});
