import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import fc from '../helpers/fc.ts';
import { collection } from '../../src/collections/index.ts';
import { Image } from '../../src/core/image.ts';
import { ENTRY_OVERHEAD_BYTES, stringBytes } from '../../src/core/memo.ts';
import { parseQuery } from '../../src/core/params.ts';
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
  const cache = new AnswerCache(10_000);
  cache.set('ключ', a);
  assert.equal(cache.bytes, ENTRY_OVERHEAD_BYTES + 24 + 2 * 4 + answerBytes(a));
});

test('the answer cache replays what it holds and never exceeds its byte budget', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 20_000 }), fc.array(fc.tuple(fc.string({ maxLength: 8 }), fc.nat({ max: 4000 }), fc.string({ maxLength: 40 })), { maxLength: 60 }), (budget, puts) => {
      const cache = new AnswerCache(budget);
      for (const [key, size, link] of puts) {
        const a = answer(size, { Link: link });
        cache.set(key, a);
        assert.ok(cache.bytes <= budget, `${cache.bytes} > ${budget}`);
        if (charged(key, a) <= budget) assert.ok(cache.get(key), 'an answer that fits is held right after it is set');
        else assert.equal(cache.get(key), undefined);
      }
    }),
  );
});

test('the least recently used answer goes first; a zero budget holds nothing', () => {
  const one = charged('a', answer(99));
  const cache = new AnswerCache(2 * one + one / 2);
  cache.set('a', answer(99));
  cache.set('b', answer(99));
  cache.get('a');
  cache.set('c', answer(99));
  assert.ok(cache.get('a') && cache.get('c'));
  assert.equal(cache.get('b'), undefined);
  const off = new AnswerCache(0);
  off.set('a', answer(1));
  assert.equal(off.get('a'), undefined);
});

const image = new Image(paths.image);
after(() => image.close());

test('a flood of distinct searches never takes the cache past its budget (D6)', () => {
  const core = new QueryCore(image);
  const movies = collection('movies')!;
  const budget = 1024 * 1024;
  const cache = new AnswerCache(budget);
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ÄéПж';
  let seed = 12;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  let peak = 0;
  for (let i = 0; i < 3000; i++) {
    const q = Array.from({ length: 190 }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    const query = parseQuery(movies, new URLSearchParams({ q }));
    cache.set(`application/json movies?q=${q}`, listAnswer(core, query));
    peak = Math.max(peak, cache.bytes);
    assert.ok(cache.bytes <= budget, `${cache.bytes} bytes held after ${i + 1} queries`);
  }
  assert.ok(peak > budget * 0.9, 'the flood fills the budget');
  assert.ok(cache.size < 3000, 'old answers were evicted');
});
