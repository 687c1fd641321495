/**
 * Finding a record in the owner's files: the serving generation's sources table maps a
 * canonicalId to its content file and entry (the item of a YAML list, or null for a file
 * of one record), and the file is read now — not the image — so a hand edit not yet built
 * is what a write sees. A file that no longer holds the record where the last build found
 * it (its identity there is another) is a conflict, never guessed around.
 */
import { readFileSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { CollectionDeclaration } from '../collections/define.ts';
import { collection } from '../collections/index.ts';
import { identityOf, markdownBody } from '../compile/content/record-text.ts';
import { SOURCES_TABLE } from '../core/image.ts';
import { readRecord } from './edit.ts';
import { WriteRefused, type ServedGeneration } from './refused.ts';

/** A collection that holds records of its own (not one composed of others), or a refusal. */
export function ownCollection(name: string): CollectionDeclaration {
  const declaration = collection(name);
  if (!declaration || declaration.compose) throw new WriteRefused('invalid', `No collection is named ${name.slice(0, 40)} that holds records of its own.`);
  return declaration;
}

/** The content file and entry of a record, as the serving generation's build found it. */
export const sourceOf = (served: ServedGeneration, collectionName: string, canonicalId: string) =>
  served.image.db.prepare(`SELECT file, entry FROM ${SOURCES_TABLE} WHERE collection = ? AND cid = ?`).get(collectionName, canonicalId) as
    { file: string; entry: number | null } | undefined;

/** The canonicalId the serving generation gives the (first) record of a file. */
export const cidOfFile = (served: ServedGeneration, file: string) =>
  (served.image.db.prepare(`SELECT cid FROM ${SOURCES_TABLE} WHERE file = ?`).get(file) as { cid: string } | undefined)?.cid ?? '';

/** A record's file as it is now: its declaration, where the build found it, and its text. */
export interface Located {
  declaration: CollectionDeclaration;
  source: { file: string; entry: number | null };
  path: string;
  text: string;
  markdown: boolean;
}

/** Finds a record's file (inside `contentDir`) and reads it. */
export function locate(contentDir: string, generation: ServedGeneration, collectionName: string, canonicalId: string): Located {
  const declaration = ownCollection(collectionName);
  const source = sourceOf(generation, collectionName, canonicalId);
  if (!source) throw new WriteRefused('not-found', `No ${collectionName} record has the canonicalId ${canonicalId.slice(0, 80)}.`);
  const path = resolve(contentDir, source.file);
  if (!path.startsWith(`${contentDir}${sep}`)) throw new WriteRefused('not-found', 'The record has no content file here.');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new WriteRefused('conflict', `The record's file ${source.file} is gone (changed by hand?); reread the record.`);
  }
  return { declaration, source, path, text, markdown: path.endsWith('.md') };
}

/** A Markdown file's body is its collection's body field: the record as the schema reads it. */
export function withBodyOf(declaration: CollectionDeclaration, text: string, markdown: boolean) {
  const body = markdown ? markdownBody(text) : '';
  return (record: Record<string, unknown>) => (body ? { ...record, [declaration.bodyField]: body } : record);
}

/** The record's fields at the entry the last build found it, refused when the file holds another record there now (a hand edit moved or replaced it). */
export function heldRecord(located: Located, canonicalId: string): Record<string, unknown> {
  const { declaration, source, text, markdown } = located;
  const record = readRecord(text, markdown, source.entry);
  if (identityOf(declaration, record, markdown ? markdownBody(text) : undefined) !== canonicalId) {
    throw new WriteRefused(
      'conflict',
      `The file ${source.file} no longer holds this record where the last build found it (edited by hand?); rebuild, reread and try again.`,
    );
  }
  return record;
}
