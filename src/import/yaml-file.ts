/**
 * The content files an importer writes: YAML lists, one record per `- ` item, fields in
 * the schema's order, as the owner would write them. A file is edited as text, item by
 * item: a record the import adds is inserted at its sorted place and a record it updates
 * has its own item replaced, so every other byte (hand edits, comments) stays, and a
 * re-import that changes nothing rewrites nothing.
 */
import yaml from 'js-yaml';
import type { CollectionDeclaration } from '../collections/define.ts';
import { blockRevision } from '../owner/edit.ts';

/** One record as a YAML list item, ending with a newline. */
export function renderItem(declaration: CollectionDeclaration, fields: Record<string, unknown>): string {
  const lines: string[] = [];
  for (const key of Object.keys(declaration.schema.shape)) {
    const value = fields[key];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    // Lists and mappings in flow style (`genres: [Drama]`), as the demo content writes them;
    // a multi-line text as a literal block.
    const flow = typeof value === 'object' && value !== null;
    const text = flow ? `${key}: ${dump(value, 0)}` : dump({ [key]: value }, -1);
    lines.push(...text.replace(/\n$/, '').split('\n'));
  }
  return `${lines.map((line, i) => (i === 0 ? `- ${line}` : line === '' ? '' : `  ${line}`)).join('\n')}\n`;
}

const dump = (value: unknown, flowLevel: number) =>
  yaml.dump(value, { schema: yaml.CORE_SCHEMA, lineWidth: -1, noRefs: true, flowLevel, quotingType: '"' }).replace(/\n$/, '');

/** A YAML list file cut into its text before the first item and its items (each up to the next). */
export interface ListText {
  head: string;
  items: string[];
}

export function splitList(text: string): ListText {
  const starts: number[] = [];
  let at = 0;
  while (at < text.length) {
    if (text[at] === '-' && (text[at + 1] === ' ' || text[at + 1] === '\n' || text[at + 1] === '\r') && !text.startsWith('---', at)) starts.push(at);
    const nl = text.indexOf('\n', at);
    if (nl === -1) break;
    at = nl + 1;
  }
  if (starts.length === 0) return { head: text, items: [] };
  const items = starts.map((s, i) => text.slice(s, starts[i + 1] ?? text.length));
  const last = items.length - 1;
  if (!items[last]!.endsWith('\n')) items[last] += '\n';
  return { head: text.slice(0, starts[0]), items };
}

export const joinList = (list: ListText) => list.head + list.items.join('');

/** An item's own lines, without the blank and comment lines that trail it. */
export function itemCore(item: string): string {
  const lines = item.split('\n');
  while (lines.length > 1 && (lines[lines.length - 1]!.trim() === '' || lines[lines.length - 1]!.trimStart().startsWith('#'))) lines.pop();
  return `${lines.join('\n')}\n`;
}

/** The owner lane's revision of a text (src/owner/edit.ts): the hash of its bytes. */
export const revisionOf = (text: string) => blockRevision(text, { start: 0, end: text.length, indent: 2 });

/**
 * An item as two hashes: of its whole text, and of its own lines (its revision, which the
 * ledger keeps). A rendered record is the same as the item when either equals the
 * record's `revisionOf`: the item is the record, or the record followed by blank and
 * comment lines.
 */
export const itemHashes = (item: string) => ({ whole: revisionOf(item), revision: revisionOf(itemCore(item)) });
