/**
 * Idempotent retries of the owner's writes: a call with a `requestId` already journaled
 * under the same grant — one installation's authorization, not its client_id, which a
 * Client ID Metadata Document gives every install of an app alike — and the same tool
 * and arguments (their digest is journaled with it) is answered with the first call's
 * result and changes nothing; with other arguments it is refused as a conflict, never
 * replayed. The memory of results is rebuilt from the journal at start-up and kept up to
 * date from it (src/owner/journal.ts), including what another process journaled.
 */
import { digestOf, type JournalEntry } from './journal.ts';
import { WriteRefused, type WriteResult } from './refused.ts';

/** JSON with object keys sorted at every level, so equal arguments digest alike whatever their order. */
export const canonicalJson = (value: unknown): string =>
  Array.isArray(value)
    ? `[${value.map(canonicalJson).join(',')}]`
    : value !== null && typeof value === 'object'
      ? `{${Object.keys(value)
          .sort()
          .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
          .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : JSON.stringify(value);

/** The digest a `requestId` is stored with: the tool and every argument but the id itself. */
export const argsDigestOf = (tool: string, input: { requestId?: string }) => {
  const { requestId: _, ...args } = input;
  return digestOf(canonicalJson({ tool, args }));
};

/** The key of a retried call: the grant and the `requestId`. */
const retryKey = (grant: string, requestId: string) => `${grant}\n${requestId}`;

export class Retries {
  /** Results (and the digest of the call's arguments) by grant and requestId. */
  private readonly done = new Map<string, { result: WriteResult; argsDigest: string | undefined }>();

  /** An applied (or reverted) journal entry: its requestId is answered with its result (or no longer, once reverted). */
  remember(entry: JournalEntry): void {
    // Entries journaled before grants were recorded cannot be matched to an installation: never replayed.
    if (!entry.requestId || !entry.grant) return;
    const key = retryKey(entry.grant, entry.requestId);
    if (entry.reverted) this.done.delete(key);
    else
      this.done.set(key, {
        result: { collection: entry.collection, canonicalId: entry.canonicalId, revision: entry.revision, file: entry.file, swapped: true },
        argsDigest: entry.argsDigest,
      });
  }

  /** A result to remember for a call just done. */
  record(grant: string, requestId: string, result: WriteResult, argsDigest: string | undefined): void {
    this.done.set(retryKey(grant, requestId), { result, argsDigest });
  }

  /**
   * The first call's result for a retry (with `canonicalId` filled in by `cidOfFile` when
   * the journal did not know it: a new record's id is the build's), undefined for a new
   * call; a reused id with other arguments is refused.
   */
  replay(grant: string, requestId: string | undefined, argsDigest: string, cidOfFile: (file: string) => string): WriteResult | undefined {
    if (requestId === undefined) return undefined;
    const earlier = this.done.get(retryKey(grant, requestId));
    if (!earlier) return undefined;
    if (earlier.argsDigest !== argsDigest) {
      throw new WriteRefused(
        'conflict',
        `The requestId ${requestId.slice(0, 40)} was already used for another call (another tool or other arguments); nothing was written. Give a new change a new requestId.`,
      );
    }
    const canonicalId = earlier.result.canonicalId || cidOfFile(earlier.result.file);
    return { ...earlier.result, canonicalId, replayed: true };
  }
}
