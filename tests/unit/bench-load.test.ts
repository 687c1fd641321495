import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { luaString, ownRequests } from '../../bench/load.ts';

/** What Lua reads from the literal: decimal escapes are bytes. */
const luaReads = (literal: string) =>
  Buffer.from(
    literal.slice(1, -1).replace(/\\(\d{3})/g, (_, d: string) => String.fromCharCode(Number(d))),
    'latin1',
  ).toString('utf8');

test('wrk requests are written as Lua literals that read back as the same bytes, whatever they hold', () => {
  for (const text of ['["pull",4]', ']]', 'a]', 'QUERY /api/sql\r\n\tx "y" \\ 12', 'Ä ☃ 😀', '']) {
    const literal = luaString(text);
    assert.match(literal, /^"[A-Za-z0-9 \\]*"$/);
    assert.equal(luaReads(literal), text);
  }
});

test("autocannon connections split the requests as wrk's round robin does: every request sent, and when the connections divide them, by one connection only", () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 80 }), fc.integer({ min: 1, max: 80 }), (n, connections) => {
      const requests = Array.from({ length: n }, (_, i) => i);
      const lists = Array.from({ length: connections }, (_, k) => ownRequests(requests, k, connections));
      assert.deepEqual(
        [...new Set(lists.flat())].sort((a, b) => a - b),
        requests,
      );
      if (n % connections === 0) assert.equal(lists.flat().length, n);
    }),
  );
});
