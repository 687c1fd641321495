/**
 * Editing one record's fields in a content file as text, so that everything else in the
 * file — other records, other fields, comments, blank lines, the Markdown body — stays
 * byte for byte. A record is a block of lines: the front matter of a `.md` file, the
 * whole of a `.yaml` file holding one mapping, or one item of a `.yaml` file holding a
 * sequence (from its `- ` line to the next top-level item). A field is set by rewriting
 * its own `key: value` line (a one-line scalar) or by adding that line at the end of the
 * record's block; nothing else is touched. Every edit is checked by parsing the result:
 * the edited record must read back as before with exactly the change, and every other
 * record of the file unchanged — anything this editor cannot do that way (a multi-line
 * value, flow style, anchors) is refused rather than guessed.
 */
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import yaml from 'js-yaml';
import { frontMatter, listItemStarts, parseYaml } from '../compile/content/record-text.ts';
import { renderField } from '../compile/content/render.ts';

/** A record's block of text in a file: `[start, end)` character offsets, and the indentation of its keys. */
export interface RecordBlock {
  start: number;
  end: number;
  indent: number;
}

export class EditError extends Error {}

function parse(text: string): unknown {
  try {
    return parseYaml(text);
  } catch (error) {
    if (error instanceof yaml.YAMLException) throw new EditError(`the file is not valid YAML (${error.reason}); edit it by hand`);
    throw error;
  }
}

/** Offsets of the line starts of `text` (from `from`). */
function lineStarts(text: string, from: number, to: number): number[] {
  const starts = [from];
  for (let i = text.indexOf('\n', from); i !== -1 && i + 1 < to; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/**
 * The block of the record at `entry` (null: the file's one record) in `text`, a file of
 * kind `.md` or `.yaml`.
 */
export function recordBlock(text: string, markdown: boolean, entry: number | null): RecordBlock {
  if (markdown) {
    const front = frontMatter(text);
    if (!front) throw new EditError('the file has no front matter');
    return { start: front.yamlStart, end: front.yamlEnd, indent: 0 };
  }
  if (entry === null) return { start: 0, end: text.length, indent: 0 };
  const items = listItemStarts(text);
  const start = items[entry];
  if (start === undefined) throw new EditError(`the file has no item ${entry}`);
  let end = items[entry + 1] ?? text.length;
  // Trailing comment and blank lines before the next item stay outside the record.
  const tail = lineStarts(text, start, end).slice(1).reverse();
  for (const at of tail) {
    const line = text.slice(at, text.indexOf('\n', at) === -1 || text.indexOf('\n', at) >= end ? end : text.indexOf('\n', at));
    if (line.trim() === '' || line.trimStart().startsWith('#')) end = at;
    else break;
  }
  // Keys of an item are indented as its first key, after the "- ".
  const first = /^-( +)\S/.exec(text.slice(start, end));
  return { start, end, indent: first ? 1 + first[1]!.length : 2 };
}

/** The revision of a record: the SHA-256 of its block's bytes (a hand edit of the record changes it; edits elsewhere in the file do not). */
export function blockRevision(text: string, block: RecordBlock): string {
  return createHash('sha256').update(text.slice(block.start, block.end)).digest('base64url').slice(0, 22);
}

/** The parsed records of a file's text: a list (one per entry), or one record. */
function recordsOf(text: string, markdown: boolean): unknown[] | unknown {
  if (markdown) {
    const front = frontMatter(text);
    if (!front) throw new EditError('the file has no front matter');
    return parse(front.yaml);
  }
  return parse(text);
}

/** What an edit does to one record: fields given new values (any the schema takes: scalars, lists, multi-line text), and fields removed. */
export interface FieldChange {
  set?: Record<string, unknown>;
  unset?: readonly string[];
}

/** Where a field's lines sit in a block: from its key line to its last continuation line. */
interface FieldLines {
  /** The key line's start, and where its key begins on it (after `- ` on an item's first line). */
  lineStart: number;
  keyAt: number;
  /** The end of the key line (before its line break, `\r` excluded). */
  lineEnd: number;
  /** The end of the field's last line, line break included when it has one. */
  end: number;
  /** Whether the value continues on following lines (a literal block, a block list). */
  multiLine: boolean;
}

/** The lines of `field` in the record's block, or undefined when the record does not write it. */
function fieldLines(text: string, block: RecordBlock, field: string): FieldLines | undefined {
  const pad = ' '.repeat(block.indent);
  const keyLine = new RegExp(`^(${block.indent === 0 ? '' : `-${' '.repeat(block.indent - 1)}|${pad}`})${field}:(?:[ \\t][^\\n]*)?$`);
  const lines = lineStarts(text, block.start, block.end);
  const lineAt = (at: number) => {
    const nl = text.indexOf('\n', at);
    return { end: nl === -1 || nl >= block.end ? block.end : nl, next: nl === -1 || nl >= block.end ? block.end : nl + 1 };
  };
  for (let i = 0; i < lines.length; i++) {
    const at = lines[i]!;
    const { end, next } = lineAt(at);
    const line = text.slice(at, end).replace(/\r$/, '');
    const match = keyLine.exec(line);
    if (!match) continue;
    // Continuation: the lines indented deeper than the record's keys (blank lines between them too).
    let last = next;
    for (let j = i + 1; j < lines.length; j++) {
      const following = text.slice(lines[j]!, lineAt(lines[j]!).end).replace(/\r$/, '');
      if (following.trim() === '') continue;
      if (following.length - following.trimStart().length <= block.indent) break;
      last = lineAt(lines[j]!).next;
    }
    return { lineStart: at, keyAt: at + match[1]!.length, lineEnd: at + line.length, end: last, multiLine: last !== next };
  }
  return undefined;
}

/**
 * `text` with the record at `entry` changed by `change`, checked by parsing; the record as
 * it reads after the edit. A set field's lines are replaced (a one-line value keeps the
 * line's trailing comment) or added at the end of the record's block; a removed field's
 * lines go. Every value is rendered by the one renderer (src/compile/content/render.ts).
 * `oneLine`: refuse anything but a one-line scalar written over a one-line field (the
 * owner tools' edits, which must never reflow a hand-written value).
 */
export function editFields(
  text: string,
  markdown: boolean,
  entry: number | null,
  change: FieldChange,
  options: { oneLine?: boolean } = {},
): { text: string; record: Record<string, unknown> } {
  const before = recordsOf(text, markdown);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  let edited = text;
  const set = change.set ?? {};
  const unset = change.unset ?? [];
  for (const field of [...Object.keys(set), ...unset]) {
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(field)) throw new EditError(`cannot write the field ${field}`);
  }
  for (const [field, value] of Object.entries(set)) {
    if (value === undefined) continue;
    if (options.oneLine && (typeof value === 'object' || value === null)) throw new EditError('only scalar values can be written');
    const rendered = renderField(field, value);
    if (options.oneLine && rendered.length > 1) throw new EditError('only one-line values can be written');
    const block = recordBlock(edited, markdown, entry);
    const pad = ' '.repeat(block.indent);
    const at = fieldLines(edited, block, field);
    if (at && options.oneLine && at.multiLine) throw new EditError('the field spans several lines; edit it by hand');
    if (at && !at.multiLine && rendered.length === 1) {
      // One line for one line: the value after the colon, the line's comment kept.
      const colon = at.keyAt + field.length + 1;
      const comment = /[ \t]+#[^\n]*$/.exec(edited.slice(colon, at.lineEnd))?.[0] ?? '';
      edited = `${edited.slice(0, colon)}${rendered[0]!.slice(field.length + 1)}${comment}${edited.slice(at.lineEnd)}`;
    } else if (at) {
      const breakAfter = edited[at.end - 1] === '\n';
      const lines = rendered.map((line, i) => (i === 0 || line === '' ? line : pad + line)).join(eol);
      edited = `${edited.slice(0, at.keyAt)}${lines}${breakAfter ? eol : ''}${edited.slice(at.end)}`;
    } else {
      // New lines at the end of the block, in the file's line ending.
      const insertAt = block.end;
      const needsBreak = insertAt > 0 && edited[insertAt - 1] !== '\n';
      const lines = rendered.map((line) => (line === '' ? line : pad + line)).join(eol);
      edited = `${edited.slice(0, insertAt)}${needsBreak ? eol : ''}${lines}${needsBreak && insertAt === edited.length ? '' : eol}${edited.slice(insertAt)}`;
    }
  }
  for (const field of unset) {
    if (Object.hasOwn(set, field)) throw new EditError(`the field ${field} is both set and removed`);
    const block = recordBlock(edited, markdown, entry);
    const at = fieldLines(edited, block, field);
    if (!at) continue;
    if (at.keyAt !== at.lineStart && edited[at.lineStart] === '-')
      throw new EditError(`the field ${field} opens its list item and cannot be removed; edit it by hand`);
    edited = `${edited.slice(0, at.lineStart)}${edited.slice(at.end)}`;
  }
  // The check: exactly the change, and nothing else anywhere in the file.
  const after = recordsOf(edited, markdown);
  const pick = (records: unknown) => (entry === null ? records : (records as unknown[])[entry]) as Record<string, unknown>;
  const old = pick(before);
  const now = pick(after);
  if (typeof old !== 'object' || old === null || typeof now !== 'object' || now === null) throw new EditError('the record is not a mapping');
  const expected: Record<string, unknown> = { ...old };
  for (const [field, value] of Object.entries(set)) if (value !== undefined) expected[field] = value;
  for (const field of unset) delete expected[field];
  if (!isDeepStrictEqual(now, expected)) throw new EditError('the edit would not read back as intended; edit the file by hand');
  if (entry !== null) {
    const others = (records: unknown) => (records as unknown[]).filter((_, i) => i !== entry);
    if (!isDeepStrictEqual(others(before), others(after))) throw new EditError('the edit would change other records; edit the file by hand');
  }
  return { text: edited, record: now };
}

/**
 * `text` with the record at `entry` given the fields of `changes`, each a one-line scalar
 * written over a one-line field (or added): the owner tools' edits (a rating, a stance).
 */
export const setFields = (text: string, markdown: boolean, entry: number | null, changes: Record<string, unknown>) =>
  editFields(text, markdown, entry, { set: changes }, { oneLine: true });

/** The record at `entry` of a file's text, as parsed. */
export function readRecord(text: string, markdown: boolean, entry: number | null): Record<string, unknown> {
  const records = recordsOf(text, markdown);
  const record = entry === null ? records : Array.isArray(records) ? records[entry] : undefined;
  if (typeof record !== 'object' || record === null || Array.isArray(record)) throw new EditError('the record is not a mapping');
  return record as Record<string, unknown>;
}
