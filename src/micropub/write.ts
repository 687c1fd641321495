/**
 * The one place Micropub changes anything (issue 40): every create, update, delete and
 * undelete becomes a call of the owner lane's writes (src/owner/writes.ts) — the same
 * schema validation, revision check, journal, atomic file write, rebuild and swap as an
 * MCP owner tool's — and nothing here touches a file but the list of deleted posts.
 *
 * - create: the post type maps the post onto record fields; a record with the same
 *   canonicalId already kept (a rewatch, a book moving from reading to finished, a
 *   second visit) is updated in its `repeatFields` rather than written twice; anything
 *   else is a new record, placed and written by `OwnerWrites.log` like every new record.
 * - update: the record's fields are read back as properties (`toProperties`), the
 *   `replace`/`add`/`delete` operations apply to those (Micropub §3.4.2), and the post
 *   type maps them onto fields again; the fields that differ are set, under the revision
 *   just read, so a hand edit in between is never overwritten.
 * - delete: the record is marked `visibility: private`, which takes it off every surface,
 *   and remembered (in STATE_DIR) by its URL; undelete marks it public again.
 */
import { isDeepStrictEqual } from 'node:util';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { collection } from '../collections/index.ts';
import { canonicalIdOf } from '../compile/content/records.ts';
import { writeContentFile } from '../owner/content-file.ts';
import type { ImageType } from './media.ts';
import { WriteRefused, type OwnerWrites, type RecordRead, type WriteCaller } from '../owner/writes.ts';
import { recordUrl } from '../urls.ts';
import type { Mf2Object } from './mf2.ts';
import type { PostType } from './post-type.ts';
import { postTypeFor, postTypeOf } from './types/index.ts';

/** A refusal the client can act on, as Micropub §3.8 names it. */
export class MicropubRefused extends Error {
  readonly error: 'invalid_request' | 'forbidden';
  readonly status: 400 | 403 | 409 | 503;
  constructor(description: string, status: 400 | 403 | 409 | 503 = 400, error: 'invalid_request' | 'forbidden' = 'invalid_request') {
    super(description);
    this.status = status;
    this.error = error;
  }
}

/** What a write did: the record's URL, whether it is new, and the properties nothing holds. */
export interface Written {
  url: string;
  created: boolean;
  /** False when nothing changed (a repeat post that says nothing new, an empty update). */
  changed: boolean;
  ignored: string[];
}

export const DELETED_FILE = 'micropub-deleted.json';

interface Tombstone {
  collection: string;
  canonicalId: string;
  file: string;
  entry: number | null;
}

/** The refusal a write's own refusal becomes: a conflict is 409 (reread and retry), the rest 400. */
function refusedBy(error: unknown): never {
  if (error instanceof WriteRefused) {
    if (error.code === 'unavailable') throw new MicropubRefused(error.message, 503);
    throw new MicropubRefused(error.message, error.code === 'conflict' ? 409 : 400);
  }
  throw error;
}

const now = () => new Date().toISOString();

export class MicropubWriter {
  private readonly writes: OwnerWrites;
  private readonly siteUrl: string;
  private readonly deletedPath: string;

  constructor(writes: OwnerWrites, siteUrl: string, stateDir: string) {
    this.writes = writes;
    this.siteUrl = siteUrl.replace(/\/+$/, '');
    this.deletedPath = join(stateDir, DELETED_FILE);
  }

  /** The absolute URL of a record's page: what `Location` names. */
  urlOf(collectionName: string, canonicalId: string): string {
    return `${this.siteUrl}${recordUrl(collectionName, canonicalId)}`;
  }

  /** The collection and canonicalId a post's URL names (this site's record page), or a refusal. */
  located(url: string | undefined): { collection: string; canonicalId: string; type: PostType } {
    if (!url) throw new MicropubRefused('The request needs url: the post’s URL, as the Location of its creation named it.');
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new MicropubRefused('url is not an absolute URL.');
    }
    const match = /^\/([a-z][a-z-]*)\/([^/]+)$/.exec(parsed.pathname);
    if (parsed.origin !== new URL(this.siteUrl).origin || !match) throw new MicropubRefused('url is not the page of a record on this site.');
    const type = postTypeFor(match[1]!);
    if (!type) throw new MicropubRefused(`Records of ${match[1]!.slice(0, 40)} are not posts this endpoint takes.`);
    return { collection: match[1]!, canonicalId: decodeURIComponent(match[2]!), type };
  }

  /** The record's canonicalId once its fields are written: from the identity fields as the schema reads them. */
  private canonicalIdFor(collectionName: string, fields: Record<string, unknown>): string | undefined {
    const declaration = collection(collectionName)!;
    const { id, ...rest } = fields;
    const parsed = declaration.schema.safeParse(rest);
    return parsed.success ? canonicalIdOf(declaration, typeof id === 'string' ? id : undefined, parsed.data as Record<string, unknown>) : undefined;
  }

  private readOrNone(collectionName: string, canonicalId: string, caller: WriteCaller): RecordRead | undefined {
    try {
      return this.writes.read({ collection: collectionName, canonicalId }, caller);
    } catch (error) {
      if (error instanceof WriteRefused && error.code === 'not-found') return undefined;
      return refusedBy(error);
    }
  }

  /** A new post: a new record, or the record it repeats updated. `draftOnly`: the token may only create drafts. */
  /**
   * Keeps an image the media endpoint took (src/micropub/media.ts checked it) through the
   * owner's writes, and answers the absolute URL the build publishes it at; the same bytes
   * again answer the same URL and write nothing.
   */
  async media(caller: WriteCaller, bytes: Uint8Array, type: ImageType): Promise<{ url: string; written: boolean }> {
    const kept = await this.writes.media(caller, { bytes, extension: type.extension, year: new Date().getUTCFullYear() }).catch(refusedBy);
    return { url: `${this.siteUrl}${kept.url}`, written: kept.written };
  }

  async create(caller: WriteCaller, entry: Mf2Object, draftOnly: boolean): Promise<Written> {
    const type = postTypeOf(entry);
    if ('refused' in type) throw new MicropubRefused(type.refused);
    const mapped = type.toFields(entry, { now: now() });
    if (!mapped.ok) throw new MicropubRefused(mapped.description);
    const fields = draftOnly ? { ...mapped.fields, visibility: 'private' } : mapped.fields;
    const canonicalId = this.canonicalIdFor(type.collection, fields);
    const existing = canonicalId && this.readOrNone(type.collection, canonicalId, caller);
    if (existing && canonicalId) {
      // A second post of a kept record: its repeat fields, as this post gives them.
      const again = type.toFields(entry, { now: now(), base: existing.fields, repeat: true });
      if (!again.ok) throw new MicropubRefused(again.description);
      const change: Record<string, unknown> = {};
      for (const field of type.repeatFields) {
        const value = again.fields[field];
        if (value !== undefined && !isDeepStrictEqual(value, existing.fields[field])) change[field] = value;
      }
      if (Object.keys(change).length > 0)
        await this.writes
          .update(caller, 'micropub.create', { collection: type.collection, canonicalId, set: change, revision: existing.revision })
          .catch(refusedBy);
      return { url: this.urlOf(type.collection, canonicalId), created: false, changed: Object.keys(change).length > 0, ignored: mapped.ignored };
    }
    const result = await this.writes.log(caller, { collection: type.collection, fields }).catch(refusedBy);
    return { url: this.urlOf(type.collection, result.canonicalId || canonicalId || ''), created: true, changed: true, ignored: mapped.ignored };
  }

  /** Micropub §3.4: `replace`, `add` and `delete` on the properties of the record at `url`. */
  async update(
    caller: WriteCaller,
    url: string | undefined,
    operations: { replace?: unknown; add?: unknown; delete?: unknown },
  ): Promise<Written & { moved: boolean }> {
    const { collection: name, canonicalId, type } = this.located(url);
    const current = this.readOrNone(name, canonicalId, caller);
    if (!current) throw new MicropubRefused('No post is kept at this url (deleted, or never created here).');
    const post = type.toProperties(current.fields);
    const props = applyOperations(post.properties, operations);
    const mapped = type.toFields({ type: post.type, properties: props }, { now: now(), base: current.fields });
    if (!mapped.ok) throw new MicropubRefused(mapped.description);
    const change: Record<string, unknown> = {};
    const unset: string[] = [];
    for (const field of new Set([...type.mappedFields, ...Object.keys(mapped.fields)])) {
      const next = mapped.fields[field];
      const before = current.fields[field];
      if (isDeepStrictEqual(next, before)) continue;
      if (next !== undefined) change[field] = next;
      else if (before !== undefined) unset.push(field);
    }
    if (Object.keys(change).length === 0 && unset.length === 0) return { url: url!, created: false, changed: false, ignored: mapped.ignored, moved: false };
    // Lists, multi-line text and removed fields (Micropub's add, replace and delete) are the owner lane's `update`; the schema refuses a removed required field.
    await this.writes.update(caller, 'micropub.update', { collection: name, canonicalId, set: change, unset, revision: current.revision }).catch(refusedBy);
    // An identity field changed (a title's typo fixed): the record now lives at another URL.
    const after = this.canonicalIdFor(name, { ...current.fields, ...change }) ?? canonicalId;
    return { url: this.urlOf(name, after), created: false, changed: true, ignored: mapped.ignored, moved: after !== canonicalId };
  }

  /** Takes the record at `url` off every surface: marked private in its file, remembered for undelete. */
  async delete(caller: WriteCaller, url: string | undefined): Promise<void> {
    const { collection: name, canonicalId } = this.located(url);
    const key = this.urlOf(name, canonicalId);
    const deleted = this.tombstones();
    const current = this.readOrNone(name, canonicalId, caller);
    if (!current) {
      if (deleted[key]) return; // deleted already: the same answer again
      throw new MicropubRefused('No post is kept at this url.');
    }
    await this.writes
      .set(caller, 'micropub.delete', { collection: name, canonicalId, change: { visibility: 'private' }, revision: current.revision })
      .catch(refusedBy);
    deleted[key] = { collection: name, canonicalId, file: current.file, entry: current.entry ?? null };
    this.remember(deleted);
  }

  /** Restores a record deleted here: marked public again in its file. */
  async undelete(caller: WriteCaller, url: string | undefined): Promise<void> {
    const { collection: name, canonicalId } = this.located(url);
    const key = this.urlOf(name, canonicalId);
    const deleted = this.tombstones();
    const tombstone = deleted[key];
    if (!tombstone) {
      if (this.readOrNone(name, canonicalId, caller)) return; // not deleted: nothing to restore
      throw new MicropubRefused('No post deleted through this endpoint is at this url.');
    }
    await this.writes.setUnserved(caller, 'micropub.undelete', { ...tombstone, change: { visibility: 'public' } }).catch(refusedBy);
    delete deleted[key];
    this.remember(deleted);
  }

  /** `q=source` (Micropub §3.7.4): the post's properties, all or those named. */
  source(caller: WriteCaller, url: string | undefined, names: readonly string[]): Mf2Object | { properties: Record<string, unknown[]> } {
    const { collection: name, canonicalId, type } = this.located(url);
    const current = this.readOrNone(name, canonicalId, caller);
    if (!current) throw new MicropubRefused('No post is kept at this url.');
    const post = type.toProperties(current.fields);
    if (names.length === 0) return post;
    return { properties: Object.fromEntries(Object.entries(post.properties).filter(([property]) => names.includes(property))) };
  }

  private tombstones(): Record<string, Tombstone> {
    if (!existsSync(this.deletedPath)) return {};
    try {
      return JSON.parse(readFileSync(this.deletedPath, 'utf8')) as Record<string, Tombstone>;
    } catch {
      return {};
    }
  }

  private remember(deleted: Record<string, Tombstone>): void {
    writeContentFile(this.deletedPath, `${JSON.stringify(deleted, null, 1)}\n`);
  }
}

/**
 * Micropub §3.4.2 on a post's properties: `replace` and `add` take an object of arrays
 * (anything else is refused: micropub.rocks 405), `delete` an array of property names or
 * an object of values to remove.
 */
export function applyOperations(
  properties: Record<string, unknown[]>,
  operations: { replace?: unknown; add?: unknown; delete?: unknown },
): Record<string, unknown[]> {
  const next: Record<string, unknown[]> = { ...properties };
  const arrays = (value: unknown, operation: string): Record<string, unknown[]> => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new MicropubRefused(`${operation} must be an object of property: [values].`);
    for (const [name, values] of Object.entries(value))
      if (!Array.isArray(values)) throw new MicropubRefused(`${operation}.${name.slice(0, 40)} must be an array of values (Micropub §3.4.2).`);
    return value as Record<string, unknown[]>;
  };
  if (operations.replace !== undefined) for (const [name, values] of Object.entries(arrays(operations.replace, 'replace'))) next[name] = values;
  if (operations.add !== undefined) for (const [name, values] of Object.entries(arrays(operations.add, 'add'))) next[name] = [...(next[name] ?? []), ...values];
  if (operations.delete !== undefined) {
    if (Array.isArray(operations.delete)) {
      for (const name of operations.delete) {
        if (typeof name !== 'string') throw new MicropubRefused('delete must be an array of property names, or an object of values to remove.');
        delete next[name];
      }
    } else {
      for (const [name, values] of Object.entries(arrays(operations.delete, 'delete'))) {
        const left = (next[name] ?? []).filter((v) => !values.some((gone) => isDeepStrictEqual(gone, v)));
        if (left.length) next[name] = left;
        else delete next[name];
      }
    }
  }
  return next;
}
