/**
 * Opaque keyset cursors. A cursor carries the sort-key values and canonicalId of the
 * last item of a page, plus a binding to the query that produced it (collection,
 * filters, search, sort). It is signed with HMAC-SHA-256, so a tampered, truncated,
 * foreign or mismatched cursor is recognised and refused as `invalid-cursor` instead of
 * silently starting somewhere else. The key comes from the image, so every replica and
 * the static page-one files agree on it, and the same content gives the same cursors.
 */
import { createHmac, hash, timingSafeEqual, type KeyObject } from 'node:crypto';
import { LIMITS } from './limits.ts';
import { PublicError } from './errors.ts';
import { CANONICAL_ID } from './image.ts';

/** The sort-key values of the last row of a page (null stands for a missing value) and its canonicalId. */
export interface Position {
  values: readonly (string | number | null)[];
  canonicalId: string;
}

const VERSION = 1;
const SIGNATURE_BYTES = 16;
const TOKEN = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

const invalid = () =>
  new PublicError(
    'invalid-cursor',
    'The cursor must be a valid opaque value returned by the API for this same query; start again from the first page.',
    'cursor',
  );

/** A short digest of everything a cursor must agree with (one-shot `hash`: half the cost of a Hash object, measured 1.9 → 1.0 µs). */
export function binding(parts: readonly string[]): string {
  return hash('sha256', parts.join('\u0000'), 'base64url').slice(0, 16);
}

function sign(key: KeyObject | Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(payload).digest().subarray(0, SIGNATURE_BYTES);
}

export function encodeCursor(key: KeyObject | Buffer, bound: string, position: Position): string {
  const values = position.values.map((v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v));
  const payload = Buffer.from(JSON.stringify([VERSION, bound, values, position.canonicalId])).toString('base64url');
  return `${payload}.${sign(key, payload).toString('base64url')}`;
}

/** Checks signature, binding and shape; `arity` is the number of sort keys of the current query. */
export function decodeCursor(key: KeyObject | Buffer, bound: string, arity: number, token: string): Position {
  if (token.length > LIMITS.cursorCharsMax || !TOKEN.test(token)) throw invalid();
  const dot = token.indexOf('.');
  const payload = token.slice(0, dot);
  // Compare the signature as text: base64 decoders ignore stray characters and spare bits.
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(sign(key, payload).toString('base64url'));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(decoded) || decoded.length !== 4) throw invalid();
  const [version, cursorBinding, values, canonicalId] = decoded as unknown[];
  if (version !== VERSION || cursorBinding !== bound) throw invalid();
  if (typeof canonicalId !== 'string' || !CANONICAL_ID.test(canonicalId)) throw invalid();
  if (!Array.isArray(values) || values.length !== arity) throw invalid();
  for (const v of values) if (v !== null && typeof v !== 'string' && typeof v !== 'number') throw invalid();
  return { values: values as (string | number | null)[], canonicalId };
}
