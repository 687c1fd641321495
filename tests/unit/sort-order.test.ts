/**
 * The build numbers each collection's rows in its default order in JavaScript, and the
 * runtime pages through them in SQLite's order: the two must agree on every sort key,
 * whatever its characters (astral ones against U+E000–U+FFFF are where UTF-16 and UTF-8
 * order part).
 */
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import fc from '../helpers/fc.ts';
import { sqliteOrdered } from '../../src/core/image.ts';

const db = new DatabaseSync(':memory:');
db.exec('CREATE TABLE k (i INTEGER PRIMARY KEY, v)');
const insert = db.prepare('INSERT INTO k (i, v) VALUES (?, ?)');

function sqliteOrder(keys: readonly (string | number)[]): number[] {
  db.exec('DELETE FROM k');
  keys.forEach((v, i) => insert.run(i, v));
  return (db.prepare('SELECT i FROM k ORDER BY v, i').all() as { i: number }[]).map((r) => r.i);
}

function javascriptOrder(keys: readonly (string | number)[]): number[] {
  const ordered = keys.map(sqliteOrdered);
  return keys.map((_, i) => i).sort((a, b) => (ordered[a]! < ordered[b]! ? -1 : ordered[a]! > ordered[b]! ? 1 : a - b));
}

test('sort keys ordered by sqliteOrdered and < come out in SQLite’s ORDER BY order', () => {
  const text = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 6 }),
    fc.string({ unit: fc.constantFrom('a', 'é', '\uE000', '\uFFFD', '😀', '\u{10000}', 'Z'), maxLength: 4 }),
  );
  const number = fc.oneof(fc.double({ noNaN: true }), fc.integer(), fc.constant(-Infinity));
  fc.assert(
    fc.property(fc.oneof(fc.array(text, { maxLength: 30 }), fc.array(number, { maxLength: 30 })), (keys) => {
      assert.deepEqual(javascriptOrder(keys), sqliteOrder(keys));
    }),
    { numRuns: 500 },
  );
});
