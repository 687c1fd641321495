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

const FRONT_MATTER = /^(\uFEFF?---\r?\n)([\s\S]*?\r?\n)(---[ \t]*(?:\r?\n|$))/;

/** A record's block of text in a file: `[start, end)` character offsets, and the indentation of its keys. */
export interface RecordBlock {
  start: number;
  end: number;
  indent: number;
}

export class EditError extends Error {}

function parse(text: string): unknown {
  try {
    return yaml.load(text, { schema: yaml.CORE_SCHEMA });
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
    const match = FRONT_MATTER.exec(text);
    if (!match) throw new EditError('the file has no front matter');
    return { start: match[1]!.length, end: match[1]!.length + match[2]!.length, indent: 0 };
  }
  if (entry === null) return { start: 0, end: text.length, indent: 0 };
  // Top-level sequence items start at column 0 with "- " (or "-" alone on its line).
  const items = lineStarts(text, 0, text.length).filter(
    (at) => text[at] === '-' && (text[at + 1] === ' ' || text[at + 1] === '\n' || text[at + 1] === '\r') && !text.startsWith('---', at),
  );
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
    const match = FRONT_MATTER.exec(text);
    if (!match) throw new EditError('the file has no front matter');
    return parse(match[2]!);
  }
  return parse(text);
}

/** A scalar as one line of YAML (core schema) that reads back as the same value. */
function scalar(value: unknown): string {
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  if (typeof value === 'string') {
    const plain = yaml.dump(value, { schema: yaml.CORE_SCHEMA, lineWidth: -1 }).trimEnd();
    if (plain.includes('\n')) throw new EditError('only one-line values can be written');
    return plain;
  }
  // A list of scalars (genres, from a Micropub update) as one flow-style line, `[a, b]`:
  // the key's line is all that changes, which the read-back check below confirms (a list
  // written in block style over several lines is refused there, never half rewritten).
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')) {
    const flow = yaml.dump(value, { schema: yaml.CORE_SCHEMA, lineWidth: -1, flowLevel: 0 }).trimEnd();
    if (flow.includes('\n')) throw new EditError('only one-line values can be written');
    return flow;
  }
  throw new EditError('only scalar values can be written');
}

/**
 * `text` with the record at `entry` given the fields of `changes` (each a one-line
 * scalar), checked by parsing; the record as it reads after the edit.
 */
export function setFields(
  text: string,
  markdown: boolean,
  entry: number | null,
  changes: Record<string, unknown>,
): { text: string; record: Record<string, unknown> } {
  const before = recordsOf(text, markdown);
  let edited = text;
  for (const [field, value] of Object.entries(changes)) {
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(field)) throw new EditError(`cannot write the field ${field}`);
    const block = recordBlock(edited, markdown, entry);
    const lines = lineStarts(edited, block.start, block.end);
    const pad = ' '.repeat(block.indent);
    const keyLine = new RegExp(`^(?:${block.indent === 0 ? '' : `-${' '.repeat(block.indent - 1)}|${pad}`})${field}:([ \\t][^\\n]*)?$`);
    let done = false;
    for (const at of lines) {
      const nl = edited.indexOf('\n', at);
      const lineEnd = nl === -1 || nl >= block.end ? block.end : nl;
      const line = edited.slice(at, lineEnd).replace(/\r$/, '');
      if (!keyLine.test(line)) continue;
      const colon = at + line.indexOf(`${field}:`) + field.length + 1;
      const comment = /[ \t]+#[^\n]*$/.exec(line.slice(colon - at))?.[0] ?? '';
      const cr = edited.slice(at, lineEnd).endsWith('\r') ? '\r' : '';
      edited = `${edited.slice(0, colon)} ${scalar(value)}${comment}${cr}${edited.slice(lineEnd)}`;
      done = true;
      break;
    }
    if (!done) {
      // A new line at the end of the block, in the file's line ending.
      const eol = edited.includes('\r\n') ? '\r\n' : '\n';
      const insertAt = block.end;
      const needsBreak = insertAt > 0 && edited[insertAt - 1] !== '\n';
      edited = `${edited.slice(0, insertAt)}${needsBreak ? eol : ''}${pad}${field}: ${scalar(value)}${needsBreak && insertAt === edited.length ? '' : eol}${edited.slice(insertAt)}`;
    }
  }
  // The check: exactly the change, and nothing else anywhere in the file.
  const after = recordsOf(edited, markdown);
  const pick = (records: unknown) => (entry === null ? records : (records as unknown[])[entry]) as Record<string, unknown>;
  const old = pick(before);
  const now = pick(after);
  if (typeof old !== 'object' || old === null || typeof now !== 'object' || now === null) throw new EditError('the record is not a mapping');
  if (!isDeepStrictEqual(now, { ...old, ...changes })) throw new EditError('the edit would not read back as intended; edit the file by hand');
  if (entry !== null) {
    const others = (records: unknown) => (records as unknown[]).filter((_, i) => i !== entry);
    if (!isDeepStrictEqual(others(before), others(after))) throw new EditError('the edit would change other records; edit the file by hand');
  }
  return { text: edited, record: now };
}

/** The record at `entry` of a file's text, as parsed. */
export function readRecord(text: string, markdown: boolean, entry: number | null): Record<string, unknown> {
  const records = recordsOf(text, markdown);
  const record = entry === null ? records : Array.isArray(records) ? records[entry] : undefined;
  if (typeof record !== 'object' || record === null || Array.isArray(record)) throw new EditError('the record is not a mapping');
  return record as Record<string, unknown>;
}
