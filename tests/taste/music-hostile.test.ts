/**
 * Hostile music bodies within the byte bounds: deep nesting (a 16k-deep array fills 32
 * KiB), unclosed nesting, thousands of keys. JSON.parse is iterative in V8 (no stack to
 * overflow) and the zod contract stops at the first value of the wrong shape without
 * descending into it, so each is a plain 4xx, found in one pass over the body; no value
 * or key is echoed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMusicFetchHandler } from '../../functions/music.ts';
import { LIMITS } from '../../src/core/limits.ts';
import { URLS } from '../../src/urls.ts';

const handler = createMusicFetchHandler([]);
const post = (path: string, body: string) => handler(new Request(`http://x${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }));

const profile = (artists: string) => `{"profile":{"schemaVersion":"1","music":{"artists":[${artists}],"recordings":[],"albums":[],"genres":[],"notes":[]}}}`;
const deep = (bytes: number) => '['.repeat(bytes / 2) + ']'.repeat(bytes / 2);
const objects = (n: number) => '{"zqkey":'.repeat(n) + '1' + '}'.repeat(n);

test('deep, unclosed and wide bodies within the byte bounds are 4xx, never 5xx, and echo nothing', async () => {
  for (const [path, max] of [
    [URLS.musicIntersections, LIMITS.musicIntersectionBytesMax],
    [URLS.musicStation, LIMITS.musicStationBytesMax],
  ] as const) {
    const bodies = [
      deep(max),
      '['.repeat(max),
      objects(Math.floor((max - 1) / 10)),
      profile(deep(max - 200)),
      profile(`{"name":"x","stance":"love","externalIds":{${Array.from({ length: 2000 }, (_, i) => `"zq${i}":"v"`).join(',')}}}`).slice(0, max),
      `{${Array.from({ length: 2000 }, (_, i) => `"zq${i}":1`).join(',')}}`,
    ];
    for (const body of bodies) {
      assert.ok(Buffer.byteLength(body) <= max, `${path}: ${Buffer.byteLength(body)} bytes`);
      const response = await post(path, body);
      assert.ok(response.status === 400 || response.status === 422, `${path}: ${body.slice(0, 40)} → ${response.status}`);
      const text = await response.text();
      assert.ok(!text.includes('zq'), text);
    }
  }
});
