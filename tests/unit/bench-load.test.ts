import assert from 'node:assert/strict';
import { test } from 'node:test';
import { luaString } from '../../bench/load.ts';

/** What Lua reads from the literal: decimal escapes are bytes. */
const luaReads = (literal: string) => Buffer.from(literal.slice(1, -1).replace(/\\(\d{3})/g, (_, d: string) => String.fromCharCode(Number(d))), 'latin1').toString('utf8');

test('wrk requests are written as Lua literals that read back as the same bytes, whatever they hold', () => {
  for (const text of ['["pull",4]', ']]', 'a]', 'QUERY /api/sql\r\n\tx "y" \\ 12', 'Ä ☃ 😀', '']) {
    const literal = luaString(text);
    assert.match(literal, /^"[A-Za-z0-9 \\]*"$/);
    assert.equal(luaReads(literal), text);
  }
});
