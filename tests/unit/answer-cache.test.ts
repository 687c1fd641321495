import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from '../helpers/fc.ts';
import { AnswerCache } from '../../src/http/answer-cache.ts';

const answer = (bytes: number) => ({ body: Buffer.alloc(bytes), headers: {} });

test('the answer cache replays what it holds and never exceeds its byte budget', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 5000 }), fc.array(fc.tuple(fc.string({ maxLength: 8 }), fc.nat({ max: 2000 })), { maxLength: 60 }), (budget, puts) => {
      const cache = new AnswerCache(budget);
      const held = new Map<string, number>();
      for (const [key, size] of puts) {
        cache.set(key, answer(size));
        if (cache.get(key)) held.set(key, cache.get(key)!.body.length);
      }
      let total = 0;
      for (const [key] of held) {
        const got = cache.get(key);
        if (got) total += got.body.length + key.length;
      }
      assert.ok(total <= budget);
    }),
  );
});

test('the least recently used answer goes first; a zero budget holds nothing', () => {
  const cache = new AnswerCache(250);
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
