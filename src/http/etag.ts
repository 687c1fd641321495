/**
 * Strong entity tags from exact body bytes (RFC 9110 §8.8.3): the same bytes always give
 * the same tag, so rebuilt static files and runtime answers agree and caches survive
 * rebuilds of unchanged content.
 */
import { hash } from 'node:crypto';

/** One-shot `hash`, which builds no Hash object per answer. */
export function strongEtag(body: string | Uint8Array): string {
  return `"${hash('sha256', body, 'base64url').slice(0, 32)}"`;
}
