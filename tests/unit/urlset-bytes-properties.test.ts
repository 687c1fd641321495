/**
 * A record sitemap written as bytes (`urlsetBytes`, what a rebuild under a running server
 * writes) is the same file as the urlset text encoded as UTF-8 (`urlsetOf`, what a full
 * build's page writes), for lines made as record lines are made: a URL's serialization of
 * any path and site, however far from ASCII, XML-escaped.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { urlLine, urlsetBytes, urlsetOf } from '../../src/site/sitemap.ts';
import fc from '../helpers/fc.ts';

const line = fc
  .record({
    host: fc.constantFrom('example.com', 'bücher.example', 'xn--caf-dma.example', '127.0.0.1:4321'),
    path: fc.string({ unit: 'grapheme', maxLength: 40 }),
  })
  .map(({ host, path }) => urlLine(new URL(`/${path}`, `https://${host}/`).href));

test('urlsetBytes writes the bytes of urlsetOf', () => {
  fc.assert(
    fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
      assert.deepEqual(urlsetBytes(lines), Buffer.from(urlsetOf(lines)));
    }),
    { numRuns: 300 },
  );
});
