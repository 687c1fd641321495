/**
 * The cases of a seed, in order, and each case made ready to send. Case i of seed S is
 * always the same case: the (i mod 256)-th value of `fc.sample` seeded from S and
 * i div 256. Its canary placeholders become tokens derived from (S, i), so a replayed case
 * carries the same bytes; the authority placeholder becomes the server's current address.
 */
import fc from 'fast-check';
import type { RawRequest } from './http.ts';
import type { Planted } from './oracle.ts';
import type { Case } from './surfaces.ts';
import { AUTHORITY, PLACEHOLDER, type CanaryClass } from './gen/common.ts';

const BATCH = 256;

/** A 32-bit mix of numbers (splitmix-like), for batch seeds and canary tokens. */
export function mix(...values: number[]): number {
  let h = 0x9e3779b9;
  for (const v of values) {
    h = Math.imul(h ^ (v >>> 0), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

export function* cases(arbitrary: fc.Arbitrary<Case>, seed: number): Generator<Case> {
  for (let batch = 0; ; batch++) yield* fc.sample(arbitrary, { seed: mix(seed, batch) | 0, numRuns: BATCH });
}

/** Case `index` of the seed alone. */
export function caseAt(arbitrary: fc.Arbitrary<Case>, seed: number, index: number): Case {
  return fc.sample(arbitrary, { seed: mix(seed, Math.floor(index / BATCH)) | 0, numRuns: BATCH })[index % BATCH]!;
}

/** The case's requests as sent, and the canaries planted in each. */
export function finalize(c: Case, seed: number, index: number, authority: string): { requests: RawRequest[]; planted: Planted[][] } {
  let k = 0;
  const tokens: Planted[] = [];
  const replace = (s: string) =>
    s.replaceAll(AUTHORITY, authority).replace(PLACEHOLDER, (_, cls: CanaryClass) => {
      const token = `CANARY${cls}${mix(seed, index, k).toString(16).padStart(8, '0')}${(mix(index, k++, seed) & 0xff).toString(16).padStart(2, '0')}`;
      tokens.push({ token, cls });
      return token;
    });
  const planted: Planted[][] = [];
  const requests = c.requests.map((r) => {
    const before = tokens.length;
    const request: RawRequest = {
      ...r,
      method: replace(r.method),
      target: replace(r.target),
      headers: r.headers.map(([n, v]) => [replace(n), replace(v)] as const),
      body: r.body ? Buffer.from(replace(r.body.toString('latin1')), 'latin1') : undefined,
    };
    planted.push(tokens.slice(before));
    return request;
  });
  return { requests, planted };
}
