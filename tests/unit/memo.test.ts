import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from '../helpers/fc.ts';
import { BoundedCache, BoundedMemo, ENTRY_OVERHEAD_BYTES, stringBytes } from '../../src/core/memo.ts';
import { collection } from '../../src/collections/index.ts';
import { Image } from '../../src/core/image.ts';
import { parseQuery } from '../../src/core/params.ts';
import { QueryCore } from '../../src/core/query.ts';
import { MemoryCounterStore } from '../../src/http/rate-limit.ts';
import { paths } from '../../src/paths.ts';

const size = (key: string, value: string) => ENTRY_OVERHEAD_BYTES + stringBytes(key) + stringBytes(value);

test('a bounded cache holds at most its bytes and entries, least recently used out first', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 4000 }),
      fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined }),
      fc.array(fc.tuple(fc.boolean(), fc.string({ maxLength: 3 }), fc.string({ maxLength: 300 })), { maxLength: 80 }),
      (bytes, entries, operations) => {
        const cache = new BoundedCache<string>({ bytes, entries, valueBytes: (v) => stringBytes(v) });
        // A model: entries in recency order, oldest first.
        let model: [string, string][] = [];
        for (const [write, key, value] of operations) {
          if (write) {
            model = model.filter(([k]) => k !== key);
            if (size(key, value) <= bytes && (entries ?? 1) >= 1) {
              model.push([key, value]);
              const total = () => model.reduce((n, [k, v]) => n + size(k, v), 0);
              while (total() > bytes || model.length > (entries ?? Infinity)) model.shift();
            }
            cache.set(key, value);
          } else {
            const found = model.findIndex(([k]) => k === key);
            assert.equal(cache.get(key), found < 0 ? undefined : model[found]![1]);
            if (found >= 0) model.push(...model.splice(found, 1));
          }
          assert.equal(cache.size, model.length);
          assert.equal(
            cache.bytes,
            model.reduce((n, [k, v]) => n + size(k, v), 0),
          );
          assert.ok(cache.bytes <= bytes);
        }
      },
    ),
  );
});

test('a memo computes once per key within its bounds, and recomputes what it dropped', () => {
  let calls = 0;
  const memo = new BoundedMemo<string>(2, (k) => (calls++, k.toUpperCase()), { bytes: 10_000, valueBytes: (v) => stringBytes(v) });
  assert.equal(memo.get('a'), 'A');
  assert.equal(memo.get('a'), 'A');
  assert.equal(calls, 1);
  memo.get('b');
  memo.get('c');
  assert.equal(calls, 3);
  memo.get('a');
  assert.equal(calls, 4, 'a was the least recently used of three, past the two-entry bound');
  const tiny = new BoundedMemo<string>(100, (k) => k, { bytes: size('k', 'k'), valueBytes: (v) => stringBytes(v) });
  tiny.get('k');
  assert.ok(tiny.bytes <= size('k', 'k'));
  tiny.get('a much longer key than the budget allows');
  assert.ok(tiny.bytes <= size('k', 'k'));
});

test('rate-limit counters: keys of any length stay within the store’s byte budget', () => {
  const budget = 64 * 1024;
  const store = new MemoryCounterStore(100_000, budget);
  const spend = { amount: 1, limit: 10, windowMs: 60_000 };
  for (let i = 0; i < 2000; i++) {
    // X-Forwarded-For behind a trusted proxy can make client keys long.
    store.spend(`198.51.100.${i}`.padEnd(200 + (i % 300), '.'), spend, 0);
    assert.ok(store.bytes <= budget);
  }
  assert.equal(store.spend('198.51.100.1', spend, 0).remaining, 9, 'a forgotten client starts again');
  assert.equal(store.spend('198.51.100.1', spend, 0).remaining, 8);
});

test('prepared statements: many query shapes stay within the statement budget, and answers are unchanged', () => {
  const budget = 64 * 1024;
  const small = new Image(paths.image, { statementCacheBytes: budget });
  const image = new Image(paths.image);
  try {
    const movies = collection('movies')!;
    const fields = Object.keys(movies.sort);
    let shapes = 0;
    for (const a of fields)
      for (const b of fields)
        for (const da of ['asc', 'desc'])
          for (const db of ['asc', 'desc'])
            for (const filter of ['', 'genre=Drama', 'q=the', 'q=th']) {
              if (a === b) continue;
              const query = parseQuery(movies, new URLSearchParams(`sort=${a}:${da},${b}:${db}&limit=3&${filter}`));
              assert.deepEqual(new QueryCore(small).run(query).canonicalIds, new QueryCore(image).run(query).canonicalIds);
              assert.ok(small.statementBytes <= budget, `${small.statementBytes} bytes of statements`);
              shapes++;
            }
    assert.ok(shapes > 100 && image.statementBytes > budget, 'the shapes need more than the small budget');
  } finally {
    small.close();
    image.close();
  }
});
