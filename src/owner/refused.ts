/**
 * What the owner's writes answer and refuse, and what they need of the server: the
 * shapes every client of the writes (the MCP owner tools, Micropub, a sync) reads.
 * A refusal is data the caller can act on — a bad value, a record not found, a conflict
 * with a hand edit, writes unavailable — never a stack.
 */
import type { Image } from '../core/image.ts';

/** A write the caller can act on: a bad value, a record not found, a conflict with a hand edit. */
export class WriteRefused extends Error {
  readonly code: 'invalid' | 'not-found' | 'conflict' | 'unavailable';
  constructor(code: WriteRefused['code'], message: string) {
    super(message);
    this.code = code;
  }
}

export interface WriteResult {
  collection: string;
  canonicalId: string;
  /** The record's revision after the write: pass it back to the next write to guard it against hand edits. */
  revision: string;
  /** The content file, relative to the content folder. */
  file: string;
  /** Whether a new generation serves the change (false: nothing a reader sees changed). */
  swapped: boolean;
  /** A retried `requestId`: this is the first call's result, and nothing was written again. */
  replayed?: boolean;
}

/** What a write reads of the serving generation: its image (the sources table, the records as served). */
export interface ServedGeneration {
  readonly image: Image;
}

/** What the writes need of the running server (src/runtime/generations.ts): the serving generation, and rebuild-and-swap. */
export interface WriteHost {
  current(): ServedGeneration;
  /** Rebuilds what the content files at `paths` change and swaps the result in; `swapped`: whether a reader sees a change. */
  rebuild(paths: readonly string[]): Promise<{ swapped: boolean }>;
}

/** Who asks for a write: the token's grant (one installation) and its client. */
export interface WriteCaller {
  client: string;
  grant: string;
  /** The token's scopes; reading a private or draft record needs `taste:write`. */
  scopes?: readonly string[];
}

/** A record as its content file holds it now, with the revision a write checks. */
export interface RecordRead {
  collection: string;
  canonicalId: string;
  /** Pass it to a write of this record: the write is refused if the record's lines changed since. */
  revision: string;
  file: string;
  /** The record's fields as the content file holds them (a Markdown body not included). */
  fields: Record<string, unknown>;
  /** Where the record sits in its file (the item of a YAML list; null: the file's one record): what `setUnserved` needs once the image no longer names it. */
  entry?: number | null;
}
