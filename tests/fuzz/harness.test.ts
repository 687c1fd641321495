/**
 * The fuzz campaign's own honesty (bench/fuzz): a freeze is the server's event loop held,
 * never the fuzzer's. The 1,000,001-request run of seed 7 reported three "freezes" that
 * were the fuzzer itself: its music generator built bodies of up to 317 MB (48 s to
 * generate), its request timers fired before it read the answers that had arrived
 * meanwhile, and its heartbeat's gap was taken for the server's. Each test below shows
 * one of those fixed, by holding an event loop on purpose (durations here are lower
 * bounds that make a condition true, never limits on how fast anything must be).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { intersectionBody } from '../../bench/fuzz/gen/music.ts';
import { ROOT } from '../../bench/fuzz/spawn.ts';


test('music bodies stay bounded: grown arrays are capped and no longer share what a later change edits (seed 61 built a 26 MB body, the campaign 317 MB)', () => {
  const profile = JSON.parse(readFileSync(join(ROOT, 'dist/client/.well-known/taste-profile.json'), 'utf8')) as unknown;
  // Three changes, each adding at most GROWN_ARRAY_BYTES_MAX (256 Ki) characters of at most 3 UTF-8 bytes, to a small profile.
  const bound = 3 * 3 * 256 * 1024 + 256 * 1024;
  const bodies = fc.sample(intersectionBody(profile), { seed: 61, numRuns: 256 });
  const largest = Math.max(...bodies.map((b) => b.length));
  assert.ok(largest <= bound, `the largest body of seed 61 has ${largest} bytes`);
});
