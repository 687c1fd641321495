/**
 * The dispatcher routes a plain path without parsing it (`plainPath`, src/runtime/dispatch.ts):
 * for any target, a plain path is the path the URL parser reads (`targetUrl`), and a
 * target that is not plain is left to the parser.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from '../helpers/fc.ts';
import { plainPath, targetUrl } from '../../src/runtime/dispatch.ts';

const pieces = [
  '/',
  '//',
  '.',
  '..',
  '/.',
  '/..',
  '%2e',
  '%2F',
  '?',
  '#',
  '\\',
  ' ',
  'a',
  'Z',
  '0',
  '-',
  '_',
  '~',
  '@',
  ':',
  '!',
  "'",
  'é',
  '\t',
  'graphql',
  'api',
  'rpc',
  '.json',
];
const targetArbitrary = fc.oneof(
  fc.array(fc.constantFrom(...pieces), { maxLength: 8 }).map((parts) => `/${parts.join('')}`),
  fc.string({ maxLength: 24 }),
);

test('a plain path is the path the URL parser reads; any other target is parsed', () => {
  fc.assert(
    fc.property(targetArbitrary, (target) => {
      const plain = plainPath(target);
      if (plain === undefined) return;
      assert.equal(plain, targetUrl(target)?.pathname, target);
    }),
    { numRuns: 5000 },
  );
  for (const target of ['/graphql', '/api/rpc', '/api/movies.json', '//x', '/a-b_c~d/e.f/']) assert.equal(plainPath(target), target);
  for (const target of ['/graphql?x', '/a/../b', '/./a', '/.well-known/x', '/a%2Fb', 'http://h/graphql', '*', '/a b', '/a\\b'])
    assert.equal(plainPath(target), undefined);
});
