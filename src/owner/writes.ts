/**
 * The owner's writes (issue 17, item 7; issue 39, item 1): the operations every client of
 * the content calls — the MCP owner tools, Micropub, a scheduled sync — over the one
 * content writer (src/owner/writer.ts: queue, lock, journal, atomic write, rebuild and
 * put-back). An operation finds the record (src/owner/locate.ts), checks that the file
 * still holds the record the caller read (its revision: the hash of the record's own
 * lines, src/owner/edit.ts), edits the record's lines as text — or places a new record
 * (src/owner/placement.ts) rendered the one way (src/compile/content/render.ts) —
 * validates it with the collection's schema, and hands the file to the writer. A retried
 * `requestId` is answered from the journal (src/owner/retries.ts).
 *
 * `log`, `set` and `read` are the owner tools' calls; `update` writes any field (a list, a
 * multi-line text) and removes fields; `media` keeps an uploaded image; `batch` writes many records at once, all or none
 * (an archive) or skipping and reporting each bad one (a sync), in one commit and one
 * rebuild.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { CollectionDeclaration } from '../collections/define.ts';
import { isContentFile } from '../compile/content/load.ts';
import { buildNow } from '../compile/content/now.ts';
import { EXPLICIT_ID, identityOf, markdownBody, parseYaml } from '../compile/content/record-text.ts';
import { recordChecker } from '../compile/content/records.ts';
import { renderItem, renderRecord } from '../compile/content/render.ts';
import { recordsTable } from '../core/image.ts';
import { LIMITS } from '../core/limits.ts';
import { SCOPE } from '../oauth/scopes.ts';
import { MEDIA_FOLDER } from '../paths.ts';
import { uploadedMediaUrl } from '../urls.ts';
import { blockRevision, EditError, editFields, readRecord, recordBlock, type FieldChange } from './edit.ts';
import { digestOf, type JournalEntry } from './journal.ts';
import { cidOfFile, heldRecord, locate, ownCollection, sourceOf, withBodyOf, type Located } from './locate.ts';
import { mergeItems, ownFile, type Placement } from './placement.ts';
import { WriteRefused, type RecordRead, type ServedGeneration, type WriteCaller, type WriteHost, type WriteResult } from './refused.ts';
import { argsDigestOf, Retries } from './retries.ts';
import { BuildRefused, ContentWriter, StagedBatch } from './writer.ts';

// The shapes other code imports from here (they lived in this file before it was split).
export { JOURNAL_FILE, type JournalEntry } from './journal.ts';
export { WriteRefused, type RecordRead, type ServedGeneration, type WriteCaller, type WriteHost, type WriteResult } from './refused.ts';
export type { Placement } from './placement.ts';

/** One change of a batch: a new record, or fields of an existing one set or removed. */
export type RecordChange =
  | {
      op: 'create';
      collection: string;
      fields: Record<string, unknown>;
      /** A service's list file and order (an importer's or a sync's); absent: a file of its own (src/owner/placement.ts). */
      placement?: Placement;
    }
  | {
      op: 'update';
      collection: string;
      canonicalId: string;
      set?: Record<string, unknown>;
      unset?: readonly string[];
      /** The revision the caller read; a record changed since is a conflict. Absent: fields the file holds otherwise than served are a conflict. */
      revision?: string;
    };

export interface BatchOptions {
  /** `all-or-none`: one refused change refuses the batch (an archive). `skip-and-report`: it is skipped and reported, the others land (a sync). */
  mode: 'all-or-none' | 'skip-and-report';
  /** What writes, for the journal: `sync.letterboxd`, `micropub.create`. */
  tool: string;
}

/** What became of one change of a batch, by its index in the batch. */
export type ChangeOutcome =
  { index: number; status: 'written'; result: WriteResult } | { index: number; status: 'skipped'; code: WriteRefused['code']; message: string };

export interface BatchReport {
  outcomes: ChangeOutcome[];
  /** The files written (relative to the content folder), sorted. */
  files: string[];
  swapped: boolean;
}

/** A refused batch (all-or-none): which change, and why; nothing was written. */
export class BatchRefused extends WriteRefused {
  readonly index: number;
  constructor(index: number, refusal: WriteRefused) {
    super(refusal.code, `Change ${index} of the batch: ${refusal.message} Nothing was written.`);
    this.index = index;
  }
}

/** A schema's refusal as `field: reason; …`. */
const issuesText = (issues: readonly { path: readonly PropertyKey[]; message: string }[]) =>
  issues.map((i) => `${i.path.map(String).join('.') || '(record)'}: ${i.message}`).join('; ');

/**
 * A record's faults as the build will find them — its schema and its collection's
 * cross-field rules (src/compile/content/records.ts) — so that a batch refuses (or, in
 * skip-and-report, skips) the one bad record itself instead of the build refusing the
 * whole batch.
 */
function buildProblems(declaration: CollectionDeclaration, data: Record<string, unknown>, body?: string): string | undefined {
  const { problems } = recordChecker(declaration, buildNow())({ origin: 'the record', data, ...(body ? { body } : {}) });
  return problems.length ? problems.map((p) => `${p.field}: ${p.reason}`).join('; ') : undefined;
}

/** A file a batch is writing: its text as the changes so far leave it. */
interface PlannedFile {
  path: string;
  before: string | undefined;
  text: string;
}

export class OwnerWrites {
  readonly contentDir: string;
  readonly journalPath: string;
  /** The one content writer of this process: importers and sync run in the same server hand their files to it. */
  readonly writer: ContentWriter;
  private host: WriteHost | undefined;
  private readonly retries = new Retries();
  /** The content files the journal names: what a server started on a build older than them rebuilds first. */
  private readonly journaled = new Set<string>();

  constructor(options: { contentDir: string; stateDir: string; writer?: ContentWriter }) {
    this.writer =
      options.writer ?? new ContentWriter({ contentDir: options.contentDir, stateDir: options.stateDir, holder: `the server (pid ${process.pid})` });
    this.contentDir = this.writer.contentDir;
    this.journalPath = this.writer.journal.path;
    // The journal is settled and read by the writer's first write (under the lock); what
    // another process (a command-line import) journals later is read as the writer catches up.
    this.writer.onStart((entries) => entries.forEach((e) => this.remember(e)));
    this.writer.onForeign((entries) => entries.filter((e) => !e.pending).forEach((e) => this.remember(e)));
  }

  private remember(entry: JournalEntry): void {
    this.journaled.add(entry.file);
    this.retries.remember(entry);
  }

  /** Connects the writes to the server's generations (src/runtime/generations.ts). */
  attach(host: WriteHost): void {
    this.host = host;
    this.writer.attach((paths) => host.rebuild(paths));
  }

  /**
   * Rebuilds the files earlier writes edited: a server starts on `dist/`, which may be
   * older than they are (a restart after writes, without a build in between). What the
   * build already holds changes nothing. A file the build refuses is reported and left
   * to the owner; the build keeps serving. It is the writer's first write: the journal is
   * settled first (src/owner/writer.ts), and a lock another process holds past the wait is
   * reported, the server starting on its build.
   */
  async catchUp(log: (error: unknown) => void = console.error): Promise<void> {
    await this.writer
      .exclusive(async () => {
        const files = [...this.journaled].filter(isContentFile).map((file) => join(this.contentDir, file));
        if (files.length === 0 || !this.host) return;
        await this.host.rebuild(files).catch(log);
      })
      .catch(log);
  }

  /** Adds a record to a collection: a new content file holding `fields`, validated by the collection's schema. */
  log(caller: WriteCaller, input: { collection: string; fields: Record<string, unknown>; requestId?: string }): Promise<WriteResult> {
    const argsDigest = argsDigestOf('taste.log', input);
    return this.serialized(caller, input.requestId, argsDigest, () => this.logNow(caller, argsDigest, input));
  }

  /** Sets fields of a record (`rating`, `recommended`, `stance`: one-line scalars), guarded by the revision the caller read, when given. */
  set(
    caller: WriteCaller,
    tool: string,
    input: { collection: string; canonicalId: string; change: Record<string, unknown>; revision?: string; requestId?: string },
  ): Promise<WriteResult> {
    const argsDigest = argsDigestOf(tool, input);
    const change = { op: 'update' as const, collection: input.collection, canonicalId: input.canonicalId, set: input.change, revision: input.revision };
    return this.serialized(caller, input.requestId, argsDigest, () => this.updateNow(caller, argsDigest, tool, input.requestId, change, true));
  }

  /**
   * Sets any fields of a record (lists, multi-line text included) and removes others
   * (`unset`), guarded as `set` is: what Micropub's update (replace, add, delete) and a
   * sync's update write.
   */
  update(
    caller: WriteCaller,
    tool: string,
    input: { collection: string; canonicalId: string; set?: Record<string, unknown>; unset?: readonly string[]; revision?: string; requestId?: string },
  ): Promise<WriteResult> {
    const argsDigest = argsDigestOf(tool, input);
    const { requestId, ...rest } = input;
    return this.serialized(caller, requestId, argsDigest, () => this.updateNow(caller, argsDigest, tool, requestId, { op: 'update', ...rest }, false));
  }

  /**
   * Writes many records in one commit and one rebuild (see `BatchOptions` for the two
   * modes). Updates are planned before new records, so that a record inserted into a
   * list never moves an item another change of the batch edits; outcomes keep the
   * batch's indexes.
   */
  batch(caller: WriteCaller, changes: readonly RecordChange[], options: BatchOptions): Promise<BatchReport> {
    if (changes.length > LIMITS.writeBatchRecordsMax)
      return Promise.reject(
        new WriteRefused('invalid', `A batch holds at most ${LIMITS.writeBatchRecordsMax} records (writeBatchRecordsMax); this one holds ${changes.length}.`),
      );
    return this.writer.exclusive(() => this.batchNow(caller, changes, options));
  }

  /**
   * Keeps an uploaded image (Micropub's media endpoint) in the content's media folder, at
   * `media/uploads/<year>/<hash>.<extension>`, which the build publishes at
   * `uploadedMediaUrl(year, name)`: named after the SHA-256 of its bytes, so a client's
   * retry of the same upload finds the file already there and writes nothing. Through the
   * writer (queue, lock, journal, atomic write); no record changes, so nothing is rebuilt.
   * `extension` is the sniffed type's, never the client's file name.
   */
  media(caller: WriteCaller, input: { bytes: Uint8Array; extension: string; year: number }): Promise<{ url: string; file: string; written: boolean }> {
    this.hostOrRefuse();
    const name = `${digestOf(input.bytes).slice(0, 32)}.${input.extension}`;
    const url = uploadedMediaUrl(input.year, name);
    const path = join(this.contentDir, MEDIA_FOLDER, ...url.split('/').filter(Boolean));
    return this.writer.exclusive(() => {
      const { written, entry } = this.writer.writeBinary(
        {
          client: caller.client,
          grant: caller.grant,
          tool: 'micropub.media',
          collection: MEDIA_FOLDER,
          canonicalId: '',
          change: { bytes: input.bytes.length },
          revision: '',
        },
        path,
        input.bytes,
      );
      return { url, file: entry.file, written };
    });
  }

  /**
   * Reads a record from its content file (not from the image: a hand edit not yet built
   * shows), with its revision. A record its file marks private or draft is the owner's
   * alone: read only for a caller holding `taste:write`.
   */
  read(input: { collection: string; canonicalId: string }, caller?: WriteCaller): RecordRead {
    const located = locate(this.contentDir, this.hostOrRefuse().current(), input.collection, input.canonicalId);
    const { source, text, markdown } = located;
    try {
      const fields = heldRecord(located, input.canonicalId);
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
        entry: source.entry,
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

  /** One write through the writer, answered from the journal when it is a retry. */
  private serialized(caller: WriteCaller, requestId: string | undefined, argsDigest: string, run: () => Promise<WriteResult>): Promise<WriteResult> {
    return this.writer.exclusive(() => {
      const replayed = this.retries.replay(caller.grant, requestId, argsDigest, (file) => (this.host ? cidOfFile(this.host.current(), file) : ''));
      return replayed ?? run();
    });
  }

  /**
   * A record's file with `change` applied: checked against the revision the caller read
   * (or, without one, against the record as served), edited as text, validated.
   */
  private edited(
    generation: ServedGeneration,
    located: Located,
    change: Extract<RecordChange, { op: 'update' }>,
    oneLine: boolean,
  ): { text: string; revisionBefore: string; revision: string } {
    const { declaration, source, text, markdown } = located;
    let edited: ReturnType<typeof editFields>;
    let revisionBefore: string;
    const fieldChange: FieldChange = { set: change.set ?? {}, unset: change.unset ?? [] };
    try {
      revisionBefore = blockRevision(text, recordBlock(text, markdown, source.entry));
      if (change.revision !== undefined && change.revision !== revisionBefore) {
        throw new WriteRefused(
          'conflict',
          `The record was changed since revision ${change.revision.slice(0, 40)} (its file was edited; now ${revisionBefore}); reread it and decide again.`,
        );
      }
      const { id: _id, ...current } = heldRecord(located, change.canonicalId);
      // Without a revision, the caller read the record as served: a field it changes that
      // the file holds otherwise was edited by hand since, and is not overwritten blindly.
      if (change.revision === undefined) {
        const row = generation.image.db.prepare(`SELECT json FROM ${recordsTable(change.collection)} WHERE cid = ?`).get(change.canonicalId) as
          { json: string } | undefined;
        const served = row ? (JSON.parse(row.json) as Record<string, unknown>) : {};
        const touched = [...Object.keys(fieldChange.set ?? {}), ...(fieldChange.unset ?? [])];
        const handEdited = touched.filter(
          (field) => current[field] !== undefined && served[field] !== undefined && !isDeepStrictEqual(current[field], served[field]),
        );
        if (handEdited.length > 0) {
          throw new WriteRefused(
            'conflict',
            `The file ${source.file} changed ${handEdited.join(', ')} of this record since it was served (edited by hand: ${handEdited.map((f) => `${f} is ${JSON.stringify(current[f])}`).join(', ')}); to write anyway, call again with revision ${revisionBefore}.`,
          );
        }
      }
      edited = editFields(text, markdown, source.entry, fieldChange, { oneLine });
    } catch (error) {
      if (error instanceof EditError) throw new WriteRefused('conflict', `Cannot edit ${source.file}: ${error.message}.`);
      throw error;
    }
    const { id: _edited, ...fields } = edited.record;
    const checked = declaration.schema.safeParse(withBodyOf(declaration, text, markdown)(fields));
    if (!checked.success) throw new WriteRefused('invalid', `The change is not valid for ${change.collection}: ${issuesText(checked.error.issues)}.`);
    return { text: edited.text, revisionBefore, revision: blockRevision(edited.text, recordBlock(edited.text, markdown, source.entry)) };
  }

  private async updateNow(
    caller: WriteCaller,
    argsDigest: string,
    tool: string,
    requestId: string | undefined,
    change: Extract<RecordChange, { op: 'update' }>,
    oneLine: boolean,
  ): Promise<WriteResult> {
    const host = this.hostOrRefuse();
    const generation = host.current();
    const located = locate(this.contentDir, generation, change.collection, change.canonicalId);
    const { text, revisionBefore, revision } = this.edited(generation, located, change, oneLine);
    const fieldChange = oneLine ? (change.set ?? {}) : { ...(change.set ? { set: change.set } : {}), ...(change.unset?.length ? { unset: change.unset } : {}) };
    return this.commit(
      caller,
      { tool, requestId, argsDigest, collection: change.collection, canonicalId: change.canonicalId, change: fieldChange, revisionBefore, revision },
      located.path,
      located.text,
      text,
    );
  }

  /** Validates a new record: its explicit id, its schema. */
  private checkedNew(declaration: CollectionDeclaration, input: Record<string, unknown>): void {
    // An explicit `id` is the record's own, beside its schema's fields (as the compiler reads it).
    const { id, ...fields } = input;
    if (id !== undefined && (typeof id !== 'string' || !EXPLICIT_ID.test(id)))
      throw new WriteRefused('invalid', 'The record is not valid: id: expected a slug of letters, digits, . _ : - (at most 128 characters).');
    const checked = declaration.schema.safeParse(fields);
    if (!checked.success) throw new WriteRefused('invalid', `The record is not valid for ${declaration.name}: ${issuesText(checked.error.issues)}.`);
  }

  private async logNow(
    caller: WriteCaller,
    argsDigest: string,
    input: { collection: string; fields: Record<string, unknown>; requestId?: string },
  ): Promise<WriteResult> {
    this.hostOrRefuse();
    const declaration = ownCollection(input.collection);
    this.checkedNew(declaration, input.fields);
    const file = ownFile(this.contentDir, input.collection, input.fields);
    const text = renderRecord(declaration, input.fields);
    const revision = blockRevision(text, recordBlock(text, false, null));
    return this.commit(
      caller,
      { tool: 'taste.log', requestId: input.requestId, argsDigest, collection: input.collection, canonicalId: '', change: input.fields, revision },
      join(this.contentDir, file),
      undefined,
      text,
    );
  }

  /** Hands one file to the writer; a refused build is a refused write. */
  private async commit(
    caller: WriteCaller,
    meta: Omit<JournalEntry, 'at' | 'client' | 'grant' | 'file'>,
    path: string,
    before: string | undefined,
    after: string,
  ): Promise<WriteResult> {
    let written: Awaited<ReturnType<ContentWriter['writeFile']>>;
    try {
      written = await this.writer.writeFile({ client: caller.client, grant: caller.grant, ...meta }, path, before, after);
    } catch (error) {
      if (error instanceof BuildRefused) throw new WriteRefused('invalid', error.message);
      throw error;
    }
    const { file } = written.entry;
    this.journaled.add(file);
    const canonicalId = meta.canonicalId || (this.host ? cidOfFile(this.host.current(), file) : '');
    const result: WriteResult = { collection: meta.collection, canonicalId, revision: meta.revision, file, swapped: written.swapped };
    if (meta.requestId !== undefined) this.retries.record(caller.grant, meta.requestId, result, meta.argsDigest);
    return result;
  }

  private async batchNow(caller: WriteCaller, changes: readonly RecordChange[], options: BatchOptions): Promise<BatchReport> {
    const host = this.hostOrRefuse();
    const generation = host.current();
    const files = new Map<string, PlannedFile>();
    const outcomes: ChangeOutcome[] = [];
    /** canonicalIds the batch creates, so a second record of one identity is refused as the build would. */
    const creating = new Set<string>();
    const fileNow = (file: string): PlannedFile => {
      let planned = files.get(file);
      if (!planned) {
        const path = join(this.contentDir, file);
        const before = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
        planned = { path, before, text: before ?? '' };
        files.set(file, planned);
      }
      return planned;
    };
    const refuse = (index: number, error: unknown) => {
      const refusal = error instanceof WriteRefused ? error : error instanceof EditError ? new WriteRefused('conflict', error.message) : undefined;
      if (!refusal) throw error;
      if (options.mode === 'all-or-none') throw new BatchRefused(index, refusal);
      outcomes.push({ index, status: 'skipped', code: refusal.code, message: refusal.message });
    };
    const order = changes
      .map((change, index) => ({ change, index }))
      .sort((a, b) => (a.change.op === b.change.op ? a.index - b.index : a.change.op === 'update' ? -1 : 1));
    const written: { index: number; result: WriteResult }[] = [];
    for (const { change, index } of order) {
      try {
        if (change.op === 'update') {
          const source = sourceOf(generation, change.collection, change.canonicalId);
          const planned = source ? files.get(source.file) : undefined;
          const located = locate(this.contentDir, generation, change.collection, change.canonicalId);
          // A file an earlier change of the batch edited is edited further, from its planned text.
          if (planned) located.text = planned.text;
          const { text, revision } = this.edited(generation, located, change, false);
          const record = readRecord(text, located.markdown, located.source.entry);
          const faults = buildProblems(located.declaration, record, located.markdown ? markdownBody(text) : undefined);
          if (faults) throw new WriteRefused('invalid', `The change is not valid for ${change.collection}: ${faults}.`);
          fileNow(located.source.file).text = text;
          written.push({
            index,
            result: { collection: change.collection, canonicalId: change.canonicalId, revision, file: located.source.file, swapped: false },
          });
        } else {
          const declaration = ownCollection(change.collection);
          this.checkedNew(declaration, change.fields);
          const faults = buildProblems(declaration, change.fields);
          if (faults) throw new WriteRefused('invalid', `The record is not valid for ${change.collection}: ${faults}.`);
          const canonicalId = identityOf(declaration, change.fields)!;
          if (creating.has(canonicalId) || sourceOf(generation, change.collection, canonicalId))
            throw new WriteRefused(
              'conflict',
              `A ${change.collection} record with this identity (${declaration.identity.join(', ')}) exists already: ${canonicalId}.`,
            );
          let file: string;
          let item: string;
          if (change.placement) {
            file = `${change.collection}/${change.placement.fileOf(change.fields)}`;
            item = renderItem(declaration, change.fields);
            const planned = fileNow(file);
            if (planned.before !== undefined && !file.endsWith('.md') && !Array.isArray(parseListOrUndefined(planned.text)))
              throw new WriteRefused('conflict', `${file} exists but is not a YAML list; move it aside.`);
            planned.text = mergeItems(planned.text, [{ key: change.placement.sortKeyOf(change.fields), text: item }], (fields) =>
              change.placement!.sortKeyOf(fields),
            );
          } else {
            file = ownFile(this.contentDir, change.collection, change.fields, new Set(files.keys()));
            item = renderRecord(declaration, change.fields);
            fileNow(file).text = item;
          }
          creating.add(canonicalId);
          written.push({
            index,
            result: {
              collection: change.collection,
              canonicalId,
              revision: blockRevision(item, { start: 0, end: item.length, indent: 0 }),
              file,
              swapped: false,
            },
          });
        }
      } catch (error) {
        refuse(index, error);
      }
    }
    const changed = [...files].filter(([, planned]) => planned.text !== (planned.before ?? '')).sort(([a], [b]) => (a < b ? -1 : 1));
    let swapped = false;
    if (changed.length) {
      const staged = new StagedBatch(this.contentDir);
      try {
        for (const [file, planned] of changed) staged.stage(file, planned.text);
        swapped = (
          await this.writer.commitBatch(
            {
              client: caller.client,
              grant: caller.grant,
              tool: options.tool,
              collection: '',
              canonicalId: '',
              change: { records: written.length },
              revision: '',
            },
            staged,
          )
        ).swapped;
      } catch (error) {
        staged.discard();
        if (error instanceof BuildRefused) throw new WriteRefused('invalid', error.message);
        throw error;
      }
      for (const [file] of changed) this.journaled.add(file);
    }
    for (const { index, result } of written) outcomes.push({ index, status: 'written', result: { ...result, swapped } });
    outcomes.sort((a, b) => a.index - b.index);
    return { outcomes, files: changed.map(([file]) => file), swapped };
  }

  // ── Micropub (issue 40): one addition, kept apart for the split of this file ──────────

  /**
   * Sets fields of a record the image no longer serves (a Micropub delete made it
   * private), found by the file and entry it was read at: what undelete writes. The file
   * must still hold that record there (its identity), and the change is validated and
   * journaled as every write is.
   */
  setUnserved(
    caller: WriteCaller,
    tool: string,
    input: { collection: string; canonicalId: string; file: string; entry: number | null; change: Record<string, unknown>; requestId?: string },
  ): Promise<WriteResult> {
    const argsDigest = argsDigestOf(tool, input);
    return this.serialized(caller, input.requestId, argsDigest, async () => {
      const generation = this.hostOrRefuse().current();
      const declaration = ownCollection(input.collection);
      const path = resolve(this.contentDir, input.file);
      if (!path.startsWith(`${this.contentDir}${sep}`)) throw new WriteRefused('not-found', 'The record has no content file here.');
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch {
        throw new WriteRefused('not-found', `The record's file ${input.file} is gone.`);
      }
      const located: Located = { declaration, source: { file: input.file, entry: input.entry }, path, text, markdown: path.endsWith('.md') };
      const change = { op: 'update' as const, collection: input.collection, canonicalId: input.canonicalId, set: input.change };
      const edited = this.edited(generation, located, change, true);
      return this.commit(
        caller,
        {
          tool,
          requestId: input.requestId,
          argsDigest,
          collection: input.collection,
          canonicalId: input.canonicalId,
          change: input.change,
          revisionBefore: edited.revisionBefore,
          revision: edited.revision,
        },
        path,
        text,
        edited.text,
      );
    });
  }
}

/** The parsed text of a list file, or undefined when it does not parse (the build will say why). */
function parseListOrUndefined(text: string): unknown {
  try {
    return text.trim() === '' ? [] : parseYaml(text);
  } catch {
    return undefined;
  }
}
