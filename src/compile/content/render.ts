/**
 * The one way a record's fields are written as YAML, by every writer: an importer's list
 * item, a new record the owner lane adds (its own file), a field the editor sets in place.
 * Fields come in the schema's order (an explicit `id` first), lists and mappings in flow
 * style on one line (`genres: [Drama]`, as the demo content writes them), a multi-line
 * text as a literal block, strings quoted only where YAML would read them otherwise (with
 * double quotes), all under the core schema, so the loader (src/compile/content/load.ts)
 * reads back exactly the values written. Before this module the importer, the owner
 * lane's new records and its field edits each rendered YAML their own way, so one record
 * written by two of them came out as two texts.
 */
import yaml from 'js-yaml';
import type { CollectionDeclaration } from '../../collections/define.ts';

const dump = (value: unknown, flowLevel: number) =>
  yaml.dump(value, { schema: yaml.CORE_SCHEMA, lineWidth: -1, noRefs: true, flowLevel, quotingType: '"' }).replace(/\n$/, '');

/** Whether a field is left out of the text: an absent value, or an empty list (the schemas read both alike). */
export const omitted = (value: unknown) => value === undefined || (Array.isArray(value) && value.length === 0);

/** One field as the lines of `key: value`, without indentation (a literal block's lines follow the key's, indented by two). */
export function renderField(key: string, value: unknown): string[] {
  const flow = typeof value === 'object' && value !== null;
  const text = flow ? `${key}: ${dump(value, 0)}` : dump({ [key]: value }, -1);
  return text.split('\n');
}

/** The keys of a record in the order they are written: `id`, then the schema's fields, then any other (which the schema will refuse). */
export function fieldOrder(declaration: CollectionDeclaration, fields: Record<string, unknown>): string[] {
  const schema = Object.keys(declaration.schema.shape);
  const known = new Set(['id', ...schema]);
  return ['id', ...schema, ...Object.keys(fields).filter((k) => !known.has(k))].filter((k) => !omitted(fields[k]));
}

/** A record's lines, unindented, in the order of `fieldOrder`. */
export function renderLines(declaration: CollectionDeclaration, fields: Record<string, unknown>): string[] {
  return fieldOrder(declaration, fields).flatMap((key) => renderField(key, fields[key]));
}

/** A record as a file of its own: one mapping, ending with a newline. */
export const renderRecord = (declaration: CollectionDeclaration, fields: Record<string, unknown>) => `${renderLines(declaration, fields).join('\n')}\n`;

/** A record as an item of a YAML list file, ending with a newline. */
export function renderItem(declaration: CollectionDeclaration, fields: Record<string, unknown>): string {
  const lines = renderLines(declaration, fields);
  return `${lines.map((line, i) => (i === 0 ? `- ${line}` : line === '' ? '' : `  ${line}`)).join('\n')}\n`;
}
