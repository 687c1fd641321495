import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from '../helpers/fc.ts';
import { binding, decodeCursor, encodeCursor } from '../../src/core/cursor.ts';
import { isPublicError } from '../../src/core/errors.ts';

const key = Buffer.alloc(32, 7);
const bound = binding(['movies', 'genre=drama', 'q=', 'addedAt:desc']);
const position = { values: ['2024-01-03', -Infinity, 'heat'], canonicalId: 'itm_0123456789abcdef01234567' };

function rejects(fn: () => unknown): void {
  assert.throws(fn, (error: unknown) => isPublicError(error) && error.slug === 'invalid-cursor' && error.status === 400);
}

test('a cursor decodes to the position it encodes; a missing number travels as null', () => {
  const token = encodeCursor(key, bound, position);
  assert.deepEqual(decodeCursor(key, bound, 3, token), { values: ['2024-01-03', null, 'heat'], canonicalId: position.canonicalId });
});

test('a cursor of another query, another key or another sort arity is refused', () => {
  const token = encodeCursor(key, bound, position);
  rejects(() => decodeCursor(key, binding(['movies', 'genre=comedy', 'q=', 'addedAt:desc']), 3, token));
  rejects(() => decodeCursor(key, binding(['books', 'genre=drama', 'q=', 'addedAt:desc']), 3, token));
  rejects(() => decodeCursor(Buffer.alloc(32, 8), bound, 3, token));
  rejects(() => decodeCursor(key, bound, 2, token));
});

test('any change to a cursor makes it invalid, never another kind of error', () => {
  const token = encodeCursor(key, bound, position);
  fc.assert(
    fc.property(fc.nat({ max: token.length - 1 }), fc.string({ minLength: 1, maxLength: 3 }), (at, insert) => {
      const mangled = token.slice(0, at) + insert + token.slice(at + 1);
      fc.pre(mangled !== token);
      rejects(() => decodeCursor(key, bound, 3, mangled));
    }),
    { numRuns: 500 },
  );
  fc.assert(fc.property(fc.nat({ max: token.length - 1 }), (cut) => rejects(() => decodeCursor(key, bound, 3, token.slice(0, cut)))));
});

test('arbitrary strings are refused as invalid cursors', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 2000 }), (s) => rejects(() => decodeCursor(key, bound, 3, s))),
    { numRuns: 500 },
  );
  fc.assert(
    fc.property(fc.json(), fc.base64String(), (json, sig) => {
      rejects(() => decodeCursor(key, bound, 3, `${Buffer.from(json).toString('base64url')}.${sig}`));
    }),
  );
});
