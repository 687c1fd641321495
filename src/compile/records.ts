/**
 * Entries into published records: validated by the collection's schema, private ones
 * and drafts left out, derived fields added, and a stable canonicalId given to each. The ID comes
 * from the record's identity fields (folded, so a case fix keeps it) or from an explicit
 * `id` in the file, never from a position, so reordering files changes nothing and a
 * rename that keeps `id` keeps the ID. Every fault is collected, none stops the others.
 */
import { createHash } from 'node:crypto';
import { UNPUBLISHED, type CollectionDeclaration, type DeriveContext } from '../collections/define.ts';
import { fold } from '../core/fold.ts';
import type { LoadProblem, SourceEntry } from './load.ts';
import { CANONICAL_ID } from '../core/image.ts';

export interface PublishedRecord {
  canonicalId: string;
  origin: string;
  /** The published fields, canonicalId first, in the schema's order, derived fields last. */
  fields: Record<string, unknown>;
}

const EXPLICIT_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

const digest = (text: string) => `itm_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;

function identityValue(value: unknown): unknown {
  if (typeof value === 'string') return fold(value.trim());
  if (Array.isArray(value)) return value.map(identityValue);
  return value ?? null;
}

export function canonicalIdOf(collection: CollectionDeclaration, explicitId: string | undefined, record: Record<string, unknown>): string {
  if (explicitId !== undefined) return CANONICAL_ID.test(explicitId) ? explicitId : digest(`${collection.name}\u0000id\u0000${explicitId}`);
  return digest(JSON.stringify([collection.name, ...collection.identity.map((f) => identityValue(record[f]))]));
}

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

export function buildRecords(
  collection: CollectionDeclaration,
  entries: readonly SourceEntry[],
  context: DeriveContext = { siteUrl: 'http://localhost:4321' },
): { records: PublishedRecord[]; problems: LoadProblem[] } {
  const records: PublishedRecord[] = [];
  const problems: LoadProblem[] = [];
  const seen = new Map<string, string>();
  for (const entry of entries) {
    const { origin } = entry;
    if (typeof entry.data !== 'object' || entry.data === null || Array.isArray(entry.data)) {
      problems.push({ origin, field: '(record)', reason: 'expected a mapping of field: value' });
      continue;
    }
    const { id, ...data } = entry.data as Record<string, unknown>;
    if (id !== undefined && (typeof id !== 'string' || !EXPLICIT_ID.test(id))) {
      problems.push({ origin, field: 'id', reason: 'expected a slug of letters, digits, . _ : - (at most 128 characters)' });
      continue;
    }
    if (entry.body !== undefined) {
      if (collection.bodyField in data) {
        problems.push({ origin, field: collection.bodyField, reason: 'given both in the front matter and as the Markdown body' });
        continue;
      }
      data[collection.bodyField] = entry.body;
    }
    const parsed = collection.schema.safeParse(data);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const at = issue.path.map(String);
        if (issue.code === 'unrecognized_keys') {
          for (const key of issue.keys) problems.push({ origin, field: [...at, key].join('.'), reason: 'unknown field (check its spelling)' });
        } else {
          const reason = at.length && valueAt(data, at) === undefined ? 'required field is missing' : issue.message;
          problems.push({ origin, field: at.length ? at.join('.') : '(record)', reason });
        }
      }
      continue;
    }
    const record = parsed.data as Record<string, unknown>;
    // Private records and drafts never leave the owner's files: not in the image, pages or feeds.
    if (record.visibility === 'private' || record.draft === true) continue;
    const canonicalId = canonicalIdOf(collection, id as string | undefined, record);
    const other = seen.get(canonicalId);
    if (other !== undefined) {
      problems.push({ origin, field: id !== undefined ? 'id' : collection.identity.join('+'), reason: `same identity as ${other}; give one of them a distinct id` });
      continue;
    }
    seen.set(canonicalId, origin);
    records.push({ canonicalId, origin, fields: publish(collection, canonicalId, record, context) });
  }
  return { records, problems };
}
