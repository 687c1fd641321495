/**
 * Entries into published records: validated by the collection's schema, then by its
 * cross-field rules (which may settle fields, e.g. a status from the date), private ones
 * and drafts left out, derived fields added, and a stable canonicalId given to each. The ID comes
 * from the record's identity fields (folded, so a case fix keeps it) or from an explicit
 * `id` in the file, never from a position, so reordering files changes nothing and a
 * rename that keeps `id` keeps the ID. Every fault is collected, none stops the others.
 */
import type { z } from 'zod';
import { UNPUBLISHED, type CollectionDeclaration, type DeriveContext, type FieldProblem } from '../../collections/define.ts';
import type { LoadProblem, SourceEntry } from './load.ts';
import { canonicalIdOf, EXPLICIT_ID } from './record-text.ts';
import { buildNow } from './now.ts';

export interface PublishedRecord {
  canonicalId: string;
  origin: string;
  /** The published fields, canonicalId first, in the schema's order, derived fields last. */
  fields: Record<string, unknown>;
}

/** Identity is read where the rest of a record's text is (record-text.ts); re-exported for the code that named it here. */
export { canonicalIdOf, EXPLICIT_ID };

function publish(collection: CollectionDeclaration, canonicalId: string, record: Record<string, unknown>, context: DeriveContext): Record<string, unknown> {
  const fields: Record<string, unknown> = { canonicalId };
  for (const key of Object.keys(collection.schema.shape)) {
    if (!UNPUBLISHED.has(key) && record[key] !== undefined) fields[key] = record[key];
  }
  for (const [key, value] of Object.entries(collection.derive?.(record, context) ?? {})) {
    if (value !== undefined) fields[key] = value;
  }
  return fields;
}

function valueAt(data: unknown, path: readonly string[]): unknown {
  let value = data;
  for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

/** What building records knows besides the entries: the site's URL, and the build's present (`now`, ms). */
export interface BuildContext extends DeriveContext {
  /** Defaults to `buildNow()`: SOURCE_DATE_EPOCH, else the clock. */
  now?: number;
}

/** The schema's faults of one entry, as `field: reason`. */
export function schemaProblems(error: z.ZodError, data: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const issue of error.issues) {
    const at = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) problems.push({ field: [...at, key].join('.'), reason: 'unknown field (check its spelling)' });
    } else {
      const reason = at.length && valueAt(data, at) === undefined ? 'required field is missing' : issue.message;
      problems.push({ field: at.length ? at.join('.') : '(record)', reason });
    }
  }
  return problems;
}

/** The record once its collection's rules have run: what they settled, and what they found. */
function applyRules(collection: CollectionDeclaration, parsed: Record<string, unknown>, data: Record<string, unknown>, now: number) {
  let record = parsed;
  const problems: FieldProblem[] = [];
  const context = { now, given: (field: string) => data[field] !== undefined };
  for (const rule of collection.rules ?? []) {
    const outcome = rule.apply(record, context);
    if (outcome.problems) problems.push(...outcome.problems);
    if (outcome.settled) record = { ...record, ...outcome.settled };
  }
  return { record, problems };
}

/** Why two entries cannot both be published: they would be one record. */
export function sameRecord(collection: CollectionDeclaration, id: unknown, other: { origin: string; id: unknown }): FieldProblem {
  if (id !== undefined && id === other.id) return { field: 'id', reason: `${String(id)} is also the id of ${other.origin}; ids are unique in a collection, give one of them another id` };
  if (id !== undefined || other.id !== undefined) return { field: id !== undefined ? 'id' : collection.identity.join('+'), reason: `gives the same canonicalId as ${other.origin}; give one of them another id` };
  return {
    field: collection.identity.join('+'),
    reason: `same ${collection.identity.join(', ')} as ${other.origin}, so both would be one record: remove the copy, or give one of them an id`,
  };
}

/** Which canonicalIds are taken, and by what: a Map, or a store on disk for an import of many records. */
export interface SeenIds {
  get(canonicalId: string): { origin: string; id: unknown } | undefined;
  set(canonicalId: string, by: { origin: string; id: unknown }): void;
}

/** One entry checked: its problems, the fields its schema parsed, and the record it becomes (none when private, a draft, or faulty). */
export interface CheckedEntry {
  problems: LoadProblem[];
  parsed?: Record<string, unknown>;
  accepted?: { canonicalId: string; record: Record<string, unknown> };
}

/**
 * The check `buildRecords` makes of each entry, one entry at a time: its id, body, schema
 * and rules, then its canonicalId against those of the entries checked before it
 * (`seen`). The importer checks an export's records with it as they stream by.
 */
export function recordChecker(collection: CollectionDeclaration, now: number, seen: SeenIds = new Map()): (entry: SourceEntry) => CheckedEntry {
  return (entry) => {
    const { origin } = entry;
    if (typeof entry.data !== 'object' || entry.data === null || Array.isArray(entry.data)) {
      return { problems: [{ origin, field: '(record)', reason: 'expected a mapping of field: value' }] };
    }
    // Every fault of the entry is reported at once: its id, its body, its schema, its rules.
    const faults: FieldProblem[] = [];
    const { id, ...data } = entry.data as Record<string, unknown>;
    if (id !== undefined && (typeof id !== 'string' || !EXPLICIT_ID.test(id))) {
      faults.push({ field: 'id', reason: 'expected a slug of letters, digits, . _ : - (at most 128 characters)' });
    }
    if (entry.body !== undefined) {
      if (collection.bodyField in data) faults.push({ field: collection.bodyField, reason: 'given both in the front matter and as the Markdown body' });
      else data[collection.bodyField] = entry.body;
    }
    const parsed = collection.schema.safeParse(data);
    if (!parsed.success) faults.push(...schemaProblems(parsed.error, data));
    const ruled = parsed.success ? applyRules(collection, parsed.data as Record<string, unknown>, data, now) : undefined;
    if (ruled) faults.push(...ruled.problems);
    if (faults.length || !ruled) return { problems: faults.map((f) => ({ origin, ...f })) };
    const fields = parsed.data as Record<string, unknown>;
    const { record } = ruled;
    // Private records and drafts never leave the owner's files: not in the image, pages or feeds.
    if (record.visibility === 'private' || record.draft === true) return { problems: [], parsed: fields };
    // The ID comes from the fields as the owner wrote them, before any rule settled them,
    // so a rule (a time given its zone's offset) never moves a record to another ID.
    const canonicalId = canonicalIdOf(collection, id as string | undefined, fields);
    const other = seen.get(canonicalId);
    if (other !== undefined) return { problems: [{ origin, ...sameRecord(collection, id, other) }], parsed: fields };
    seen.set(canonicalId, { origin, id });
    return { problems: [], parsed: fields, accepted: { canonicalId, record } };
  };
}

export function buildRecords(
  collection: CollectionDeclaration,
  entries: readonly SourceEntry[],
  context: BuildContext = { siteUrl: 'http://localhost:4321' },
): { records: PublishedRecord[]; problems: LoadProblem[] } {
  const check = recordChecker(collection, context.now ?? buildNow());
  const records: PublishedRecord[] = [];
  const problems: LoadProblem[] = [];
  for (const entry of entries) {
    const checked = check(entry);
    problems.push(...checked.problems);
    if (checked.accepted) {
      const { canonicalId, record } = checked.accepted;
      records.push({ canonicalId, origin: entry.origin, fields: publish(collection, canonicalId, record, context) });
    }
  }
  return { records, problems };
}

/** Why a record may not take a canonicalId another record (at `other`) has. */
export const sharedIdReason = (canonicalId: string, other: string) =>
  `${canonicalId} is already the canonicalId of ${other}; canonicalIds are unique across the site, give this record another id`;

/**
 * A canonicalId names one record on every surface, and the cross-collection lists (the
 * feed, writing with the blog's posts) hold records of several collections side by side:
 * an explicit `itm_…` id given in two collections, or copied from another collection's
 * record, would be two records under one name.
 */
export function sharedCanonicalIds(collections: readonly { collection: CollectionDeclaration; records: readonly PublishedRecord[] }[]): LoadProblem[] {
  const owner = new Map<string, string>();
  const problems: LoadProblem[] = [];
  for (const { records } of collections) {
    for (const { canonicalId, origin } of records) {
      const other = owner.get(canonicalId);
      if (other === undefined) owner.set(canonicalId, origin);
      else problems.push({ origin, field: 'id', reason: sharedIdReason(canonicalId, other) });
    }
  }
  return problems;
}
