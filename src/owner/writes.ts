/**
 * The owner's writes (issue 17, item 7): the only code that changes anything. A write
 * finds the record's source file through the image's sources table (canonicalId → file
 * and entry), checks that the file still holds the record the caller read (its revision:
 * the hash of the record's own lines, src/owner/edit.ts), edits the record's lines as
 * text — or, for a new record, writes a new file — validated by the collection's schema,
 * journals its intent in STATE_DIR, replaces the file atomically
 * (src/owner/content-file.ts), journals that it is applied, and then rebuilds and swaps
 * the generation. Writes run one at a time, in arrival order. A call with a `requestId`
 * already in the journal for the same grant — one installation's authorization, not its
 * client_id, which a Client ID Metadata Document gives every install of an app alike — and
 * the same tool and arguments (their digest is journaled with it) is answered with the
 * first call's result and changes nothing; with other arguments it is refused as a
 * conflict, never replayed. A rebuild that refuses the edited content puts the file back
 * as it was.
 *
 * Why the intent comes first: a process killed between the file's rename and a journal
 * line written after it would leave a changed file that no journal entry names, and the
 * client's retry with the same `requestId` would apply the change again (a second new
 * file for `taste.log`). With the intent (which names the file and the digest of the
 * bytes it will hold) flushed before the file is touched, a restart settles the one write
 * that can be in flight: the file holds those bytes → the write happened (the retry is
 * answered with its result); it does not → it never happened (the retry applies it, once).
 */
import { createHash } from 'node:crypto';
import { appendFileSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { collection } from '../collections/index.ts';
import type { CollectionDeclaration } from '../collections/define.ts';
import { canonicalIdOf, EXPLICIT_ID, markdownBody } from '../compile/content/record-text.ts';
import { renderRecord } from '../compile/content/render.ts';
import { isDeepStrictEqual } from 'node:util';
import { recordsTable, SOURCES_TABLE, type Image } from '../core/image.ts';
import { SCOPE } from '../oauth/scopes.ts';
import { removeContentFile, writeContentFile } from './content-file.ts';
import { blockRevision, EditError, readRecord, recordBlock, setFields } from './edit.ts';

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

export interface JournalEntry {
  at: string;
  client: string;
  /** The grant the write was made under: a `requestId` is unique within it. */
  grant?: string;
  requestId?: string;
  /** SHA-256 (hex) of the tool and its arguments: a reused `requestId` with other arguments is a conflict. */
  argsDigest?: string;
  tool: string;
  collection: string;
  canonicalId: string;
  file: string;
  change: Record<string, unknown>;
  revisionBefore?: string;
  revision: string;
  /** A write the build refused: the file was put back, and the entry it follows is void. */
  reverted?: boolean;
  /** SHA-256 (hex) of the content file's bytes after the write: how a restart tells whether an intent reached the file. */
  digest?: string;
  /** The intent, journaled before the file changes; the same entry without it follows once the file holds the change. */
  pending?: boolean;
  /** On a put-back's intent (`reverted` and `pending`): the bytes the file is put back to, null to remove it, so a restart can finish it. */
  before?: string | null;
}

export const JOURNAL_FILE = 'owner-writes.jsonl';

const digestOf = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/** JSON with object keys sorted at every level, so equal arguments digest alike whatever their order. */
const canonicalJson = (value: unknown): string =>
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
const argsDigestOf = (tool: string, input: { requestId?: string }) => {
  const { requestId: _, ...args } = input;
  return digestOf(canonicalJson({ tool, args }));
};

/** The key of a retried call: the grant and the `requestId`. */
const retryKey = (grant: string, requestId: string) => `${grant}\n${requestId}`;

const sourceOf = (served: ServedGeneration, collectionName: string, canonicalId: string) =>
  served.image.db.prepare(`SELECT file, entry FROM ${SOURCES_TABLE} WHERE collection = ? AND cid = ?`).get(collectionName, canonicalId) as
    { file: string; entry: number | null } | undefined;

/** A Markdown file's body is its collection's body field: the record as the schema reads it. */
function bodyOf(declaration: CollectionDeclaration, text: string, markdown: boolean) {
  const body = markdown ? markdownBody(text) : '';
  return (record: Record<string, unknown>) => (body ? { ...record, [declaration.bodyField!]: body } : record);
}

/** The record's fields at the entry the last build found it, refused when the file holds another record there now (a hand edit moved or replaced it). */
function heldRecord(
  declaration: CollectionDeclaration,
  file: string,
  text: string,
  markdown: boolean,
  entry: number | null,
  canonicalId: string,
): Record<string, unknown> {
  const record = readRecord(text, markdown, entry);
  const { id, ...fields } = record;
  const parsed = declaration.schema.safeParse(bodyOf(declaration, text, markdown)(fields));
  if (!parsed.success || canonicalIdOf(declaration, typeof id === 'string' ? id : undefined, parsed.data as Record<string, unknown>) !== canonicalId) {
    throw new WriteRefused(
      'conflict',
      `The file ${file} no longer holds this record where the last build found it (edited by hand?); rebuild, reread and try again.`,
    );
  }
  return record;
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
}

export class OwnerWrites {
  readonly contentDir: string;
  readonly journalPath: string;
  private host: WriteHost | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** Results (and the digest of the call's arguments) by grant and requestId, from the journal. */
  private readonly done = new Map<string, { result: WriteResult; argsDigest: string | undefined }>();
  /** The content files the journal names: what a server started on a build older than them rebuilds first. */
  private readonly journaled = new Set<string>();

  constructor(options: { contentDir: string; stateDir: string }) {
    this.contentDir = resolve(options.contentDir);
    mkdirSync(options.stateDir, { recursive: true });
    this.journalPath = join(options.stateDir, JOURNAL_FILE);
    if (existsSync(this.journalPath)) {
      // Writes are serialized, so only the journal's last intent can lack its outcome (the line after it).
      let pending: JournalEntry | undefined;
      for (const line of readFileSync(this.journalPath, 'utf8').split('\n')) {
        // A line cut short by a crash is the last one, and its write was never acknowledged.
        let entry: JournalEntry;
        try {
          entry = JSON.parse(line) as JournalEntry;
        } catch {
          continue;
        }
        // A journal names files of the content folder only; a line naming one outside it was not
        // written by this code, and is never read back, restored or rebuilt.
        if (typeof entry.file !== 'string' || !this.inContent(entry.file)) continue;
        if (entry.pending) {
          pending = entry;
          continue;
        }
        pending = undefined;
        this.remember(entry);
      }
      if (pending?.reverted) {
        // A put-back cut short: the build refused the change, so the file must not keep it
        // (unless it no longer holds it: then someone edited it since, and it is theirs).
        if (this.fileHolds(pending)) this.restore(join(this.contentDir, pending.file), pending.before ?? undefined);
        const { pending: _, before: __, ...reverted } = pending;
        this.append(reverted);
        this.remember(reverted);
      } else if (pending && this.fileHolds(pending)) {
        const { pending: _, ...applied } = pending;
        this.append(applied);
        this.remember(applied);
      }
    }
  }

  /** Whether a journal's relative `file` resolves inside the content folder. */
  private inContent(file: string): boolean {
    return resolve(this.contentDir, file).startsWith(`${this.contentDir}${sep}`);
  }

  /** An applied (or reverted) journal entry: its file is rebuilt on catch-up, its requestId answered with its result. */
  private remember(entry: JournalEntry): void {
    this.journaled.add(entry.file);
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

  /** Whether the content file holds the bytes an intent was about to write. */
  private fileHolds(intent: JournalEntry): boolean {
    try {
      return intent.digest !== undefined && digestOf(readFileSync(join(this.contentDir, intent.file))) === intent.digest;
    } catch {
      return false;
    }
  }

  /** Connects the writes to the server's generations (src/runtime/generations.ts). */
  attach(host: WriteHost): void {
    this.host = host;
  }

  /**
   * Rebuilds the files earlier writes edited: a server starts on `dist/`, which may be
   * older than they are (a restart after writes, without a build in between). What the
   * build already holds changes nothing. A file the build refuses is reported and left
   * to the owner; the build keeps serving.
   */
  async catchUp(log: (error: unknown) => void = console.error): Promise<void> {
    const files = [...this.journaled].map((file) => join(this.contentDir, file));
    if (files.length === 0 || !this.host) return;
    await this.host.rebuild(files).catch(log);
  }

  /** Adds a record to a collection: a new content file holding `fields`, validated by the collection's schema. */
  log(caller: WriteCaller, input: { collection: string; fields: Record<string, unknown>; requestId?: string }): Promise<WriteResult> {
    const argsDigest = argsDigestOf('taste.log', input);
    return this.serialized(caller, input.requestId, argsDigest, () => this.logNow(caller, argsDigest, input));
  }

  /** Sets fields of a record (`rating`, `recommended`, `stance`), guarded by the revision the caller read, when given. */
  set(
    caller: WriteCaller,
    tool: string,
    input: { collection: string; canonicalId: string; change: Record<string, unknown>; revision?: string; requestId?: string },
  ): Promise<WriteResult> {
    const argsDigest = argsDigestOf(tool, input);
    return this.serialized(caller, input.requestId, argsDigest, () => this.setNow(caller, argsDigest, tool, input));
  }

  /**
   * Reads a record from its content file (not from the image: a hand edit not yet built
   * shows), with its revision. A record its file marks private or draft is the owner's
   * alone: read only for a caller holding `taste:write`.
   */
  read(input: { collection: string; canonicalId: string }, caller?: WriteCaller): RecordRead {
    const generation = this.hostOrRefuse().current();
    const { declaration, source, text, markdown } = this.locate(generation, input.collection, input.canonicalId);
    try {
      const fields = heldRecord(declaration, source.file, text, markdown, source.entry, input.canonicalId);
      // The compiler's rule (src/compile/content/records.ts): such a record never reaches the public surfaces.
      const unpublished = fields.visibility === 'private' || fields.draft === true;
      if (unpublished && !caller?.scopes?.includes(SCOPE.write)) {
        throw new WriteRefused('not-found', `The record's file ${source.file} now marks it private or draft: reading it needs the ${SCOPE.write} scope.`);
      }
      return {
        collection: input.collection,
        canonicalId: input.canonicalId,
        revision: blockRevision(text, recordBlock(text, markdown, source.entry)),
        file: source.file,
        fields,
      };
    } catch (error) {
      if (error instanceof EditError) throw new WriteRefused('conflict', `Cannot read ${source.file}: ${error.message}.`);
      throw error;
    }
  }

  private hostOrRefuse(): WriteHost {
    if (!this.host) throw new WriteRefused('unavailable', 'Writes are not available on this server (it does not rebuild its content).');
    return this.host;
  }

  private serialized(caller: WriteCaller, requestId: string | undefined, argsDigest: string, run: () => Promise<WriteResult>): Promise<WriteResult> {
    const key = requestId === undefined ? undefined : retryKey(caller.grant, requestId);
    const next = this.queue.then(async () => {
      const earlier = key === undefined ? undefined : this.done.get(key);
      if (earlier) {
        if (earlier.argsDigest !== argsDigest) {
          throw new WriteRefused(
            'conflict',
            `The requestId ${requestId!.slice(0, 40)} was already used for another call (another tool or other arguments); nothing was written. Give a new change a new requestId.`,
          );
        }
        const canonicalId = earlier.result.canonicalId || this.cidOfFile(earlier.result.file);
        return { ...earlier.result, canonicalId, replayed: true };
      }
      return run();
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  private locate(generation: ServedGeneration, collectionName: string, canonicalId: string) {
    const declaration = collection(collectionName);
    if (!declaration || declaration.compose)
      throw new WriteRefused('invalid', `No collection is named ${collectionName.slice(0, 40)} that holds records of its own.`);
    const source = sourceOf(generation, collectionName, canonicalId);
    if (!source) throw new WriteRefused('not-found', `No ${collectionName} record has the canonicalId ${canonicalId.slice(0, 80)}.`);
    const path = resolve(this.contentDir, source.file);
    if (!path.startsWith(`${this.contentDir}${sep}`)) throw new WriteRefused('not-found', 'The record has no content file here.');
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      throw new WriteRefused('conflict', `The record's file ${source.file} is gone (changed by hand?); reread the record.`);
    }
    return { declaration, source, path, text, markdown: path.endsWith('.md') };
  }

  private async setNow(
    caller: WriteCaller,
    argsDigest: string,
    tool: string,
    input: { collection: string; canonicalId: string; change: Record<string, unknown>; revision?: string; requestId?: string },
  ): Promise<WriteResult> {
    const host = this.hostOrRefuse();
    const generation = host.current();
    const { declaration, source, path, text, markdown } = this.locate(generation, input.collection, input.canonicalId);
    const withBody = bodyOf(declaration, text, markdown);
    let edited: ReturnType<typeof setFields>;
    let revisionBefore: string;
    try {
      revisionBefore = blockRevision(text, recordBlock(text, markdown, source.entry));
      if (input.revision !== undefined && input.revision !== revisionBefore) {
        throw new WriteRefused(
          'conflict',
          `The record was changed since revision ${input.revision.slice(0, 40)} (its file was edited; now ${revisionBefore}); reread it and decide again.`,
        );
      }
      const { id: _id, ...current } = heldRecord(declaration, source.file, text, markdown, source.entry, input.canonicalId);
      // Without a revision, the caller read the record as served: a field it changes that
      // the file holds otherwise was edited by hand since, and is not overwritten blindly.
      if (input.revision === undefined) {
        const served = JSON.parse(
          (generation.image.db.prepare(`SELECT json FROM ${recordsTable(input.collection)} WHERE cid = ?`).get(input.canonicalId) as { json: string }).json,
        ) as Record<string, unknown>;
        const edited = Object.keys(input.change).filter(
          (field) => current[field] !== undefined && served[field] !== undefined && !isDeepStrictEqual(current[field], served[field]),
        );
        if (edited.length > 0) {
          throw new WriteRefused(
            'conflict',
            `The file ${source.file} changed ${edited.join(', ')} of this record since it was served (edited by hand: ${edited.map((f) => `${f} is ${JSON.stringify(current[f])}`).join(', ')}); to write anyway, call again with revision ${revisionBefore}.`,
          );
        }
      }
      edited = setFields(text, markdown, source.entry, input.change);
    } catch (error) {
      if (error instanceof EditError) throw new WriteRefused('conflict', `Cannot edit ${source.file}: ${error.message}.`);
      throw error;
    }
    const { id: _edited, ...fields } = edited.record;
    const checked = declaration.schema.safeParse(withBody(fields));
    if (!checked.success)
      throw new WriteRefused(
        'invalid',
        `The change is not valid for ${input.collection}: ${checked.error.issues.map((i) => `${i.path.join('.') || '(record)'}: ${i.message}`).join('; ')}.`,
      );
    const revision = blockRevision(edited.text, recordBlock(edited.text, markdown, source.entry));
    return this.commit(
      host,
      caller,
      {
        tool,
        requestId: input.requestId,
        argsDigest,
        collection: input.collection,
        canonicalId: input.canonicalId,
        file: source.file,
        change: input.change,
        revisionBefore,
      },
      path,
      text,
      edited.text,
      revision,
    );
  }

  private async logNow(
    caller: WriteCaller,
    argsDigest: string,
    input: { collection: string; fields: Record<string, unknown>; requestId?: string },
  ): Promise<WriteResult> {
    const host = this.hostOrRefuse();
    const declaration = collection(input.collection);
    if (!declaration || declaration.compose)
      throw new WriteRefused('invalid', `No collection is named ${input.collection.slice(0, 40)} that holds records of its own.`);
    // An explicit `id` is the record's own, beside its schema's fields (as the compiler reads it).
    const { id, ...fields } = input.fields;
    if (id !== undefined && (typeof id !== 'string' || !EXPLICIT_ID.test(id)))
      throw new WriteRefused('invalid', 'The record is not valid: id: expected a slug of letters, digits, . _ : - (at most 128 characters).');
    const checked = declaration.schema.safeParse(fields);
    if (!checked.success)
      throw new WriteRefused(
        'invalid',
        `The record is not valid for ${input.collection}: ${checked.error.issues.map((i) => `${i.path.join('.') || '(record)'}: ${i.message}`).join('; ')}.`,
      );
    const named = String(input.fields.title ?? input.fields.name ?? 'record');
    const slug =
      named
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')
        .slice(0, 60) || 'record';
    let file = `${input.collection}/${slug}.yaml`;
    for (let n = 2; existsSync(join(this.contentDir, file)) || existsSync(join(this.contentDir, file.replace(/\.yaml$/, '.md'))); n++)
      file = `${input.collection}/${slug}-${n}.yaml`;
    const path = join(this.contentDir, file);
    const text = renderRecord(declaration, input.fields);
    const revision = blockRevision(text, recordBlock(text, false, null));
    return this.commit(
      host,
      caller,
      { tool: 'taste.log', requestId: input.requestId, argsDigest, collection: input.collection, canonicalId: '', file, change: input.fields },
      path,
      undefined,
      text,
      revision,
    );
  }

  private cidOfFile(file: string): string {
    const row = this.host?.current().image.db.prepare(`SELECT cid FROM ${SOURCES_TABLE} WHERE file = ?`).get(file) as { cid: string } | undefined;
    return row?.cid ?? '';
  }

  /**
   * Journals the intent (flushed), writes the file, journals that the file holds it
   * (flushed: from here on the write is durable and a retried requestId will not apply it
   * twice), rebuilds and swaps; on a refused rebuild, puts the file back and journals that.
   */
  private async commit(
    host: WriteHost,
    caller: WriteCaller,
    entry: Omit<JournalEntry, 'at' | 'client' | 'grant' | 'revision'>,
    path: string,
    before: string | undefined,
    after: string,
    revision: string,
  ): Promise<WriteResult> {
    const file = relative(this.contentDir, path).split(sep).join('/');
    const journal: JournalEntry = {
      at: new Date().toISOString(),
      client: caller.client,
      grant: caller.grant,
      ...entry,
      file,
      revision,
      digest: digestOf(after),
    };
    this.append({ ...journal, pending: true });
    try {
      writeContentFile(path, after);
    } catch (error) {
      this.append({ ...journal, at: new Date().toISOString(), reverted: true });
      throw error;
    }
    this.append(journal);
    let summary: { swapped: boolean };
    try {
      summary = await host.rebuild([path]);
    } catch (error) {
      // The put-back is journaled the same way: its intent (with the bytes to restore), then its outcome.
      const putBack: JournalEntry = { ...journal, at: new Date().toISOString(), reverted: true };
      this.append({ ...putBack, pending: true, before: before ?? null });
      this.restore(path, before);
      this.append(putBack);
      await host.rebuild([path]).catch(() => undefined);
      const detail =
        error instanceof Error && 'problems' in error
          ? (error as { problems: { field: string; reason: string }[] }).problems.map((p) => `${p.field}: ${p.reason}`).join('; ')
          : 'the rebuild failed';
      throw new WriteRefused('invalid', `The build refused the change (${detail.slice(0, 500)}); nothing was changed.`);
    }
    const canonicalId = entry.canonicalId || this.cidOfFile(file);
    const result: WriteResult = { collection: entry.collection, canonicalId, revision, file, swapped: summary.swapped };
    if (entry.requestId !== undefined) this.done.set(retryKey(caller.grant, entry.requestId), { result, argsDigest: entry.argsDigest });
    return result;
  }

  /** Puts a file back as it was before a write: its bytes, or no file. */
  private restore(path: string, before: string | undefined): void {
    if (before !== undefined) writeContentFile(path, before);
    else if (existsSync(path)) removeContentFile(path);
  }

  /** One line per write, flushed to disk before the write is acknowledged. */
  private append(entry: JournalEntry): void {
    appendFileSync(this.journalPath, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    const fd = openSync(this.journalPath, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}
