/**
 * `npm run new -- <collection> "<title>" [--<field> <value> …]`: one new record file,
 * generated from the collection's declaration (src/collections/), so every collection has
 * it — Hugo's archetypes, with the schema as the archetype. The file goes where the owner
 * lane puts a new record (`newRecordFile`, src/owner/placement.ts): `content/<collection>/
 * <slug>.md`. Its front matter has the field that names the record from the title, the
 * required dates set to today, every `--field value` given (read as YAML), every other
 * required field present and empty with what it takes, and the optional fields as
 * comments; the body is the collection's text field. Refuses, writing nothing, when a
 * record already has the identity the arguments give (identity fields not given match any
 * value). The file is written by the one content writer (src/owner/writer.ts), as every
 * write to content/ is. Exit codes: 0 written, 1 refused, 2 a usage mistake.
 */
import { join, relative } from 'node:path';
import yaml from 'js-yaml';
import type { z } from 'zod';
import type { CollectionDeclaration } from '../collections/define.ts';
import { contentCollections } from '../collections/index.ts';
import { loadCollection } from '../compile/content/load.ts';
import { renderField } from '../compile/content/render.ts';
import { fold } from '../core/fold.ts';
import { ContentLocked, describeHolder } from '../owner/lock.ts';
import { newRecordFile, slugOf } from '../owner/placement.ts';
import { ContentWriter } from '../owner/writer.ts';

/** The fields that name a record, in the order they are looked for; else the collection's text field. */
const NAMING = ['title', 'name', 'artist'] as const;

export class NewRefused extends Error {}

interface FieldInfo {
  name: string;
  required: boolean;
  /** What the field takes, in a few words, for the comment beside it. */
  hint: string;
  /** Today as the field takes it (a date, else a date-time), when it is a date field. */
  today?: (now: Date) => string;
}

/** The zod definition under optional, default, nullable and pipe wrappers. */
function inner(schema: z.ZodType): { type: string; def: Record<string, unknown> } {
  let def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  while (['optional', 'default', 'nullable', 'prefault', 'readonly'].includes(def.type)) def = (def.innerType as { _zod: { def: typeof def } })._zod.def;
  if (def.type === 'pipe') def = (def.in as { _zod: { def: typeof def } })._zod.def;
  return { type: def.type, def };
}

function hintOf(schema: z.ZodType, name: string, dated: boolean): string {
  const { type, def } = inner(schema);
  if (type === 'enum') return Object.keys(def.entries as Record<string, string>).join(' | ');
  if (dated) return 'YYYY-MM-DD, or a date-time';
  if (type === 'number') return 'a number';
  if (type === 'boolean') return 'true | false';
  if (type === 'array') return '[a list, of values]';
  if (type === 'object') return name === 'coordinates' ? '{ lat: 0.0, lon: 0.0 }' : 'a mapping';
  return 'text';
}

/** Every field of a collection's schema, in its declared order. */
export function fieldsOf(c: CollectionDeclaration): FieldInfo[] {
  const shape = (c.schema as unknown as { shape: Record<string, z.ZodType> }).shape;
  return Object.entries(shape).map(([name, schema]) => {
    const dateish = /(?:Date|At)$|^date$/.test(name);
    const today = !dateish
      ? undefined
      : schema.safeParse('2024-01-01').success
        ? (now: Date) => now.toISOString().slice(0, 10)
        : schema.safeParse('2024-01-01T00:00:00Z').success
          ? (now: Date) => `${now.toISOString().slice(0, 19)}Z`
          : undefined;
    return { name, required: !schema.safeParse(undefined).success, hint: hintOf(schema, name, today !== undefined), ...(today ? { today } : {}) };
  });
}

/** The field the title argument fills: the first naming field the collection requires, else the first it has, else its text. */
export function namingField(c: CollectionDeclaration): string {
  const fields = fieldsOf(c);
  return NAMING.find((n) => fields.some((f) => f.name === n && f.required)) ?? NAMING.find((n) => fields.some((f) => f.name === n)) ?? c.bodyField;
}

export interface NewRecord {
  /** Relative to the content folder. */
  file: string;
  text: string;
  /** Required fields left empty, for the owner to fill in. */
  missing: string[];
}

/** The new record's file and text; refuses an unknown field or an identity a record already has. */
export function newRecord(contentDir: string, c: CollectionDeclaration, title: string, given: Record<string, unknown>, now: Date): NewRecord {
  const fields = fieldsOf(c);
  const unknown = Object.keys(given).filter((k) => !fields.some((f) => f.name === k));
  if (unknown.length) throw new NewRefused(`${c.name} has no field ${unknown.join(', ')}; it has ${fields.map((f) => f.name).join(', ')}`);
  const values: Record<string, unknown> = { [namingField(c)]: title.trim() };
  if (fields.some((f) => f.name === 'slug' && f.required)) values.slug = slugOf({ title });
  for (const f of fields) if (f.required && f.today) values[f.name] = f.today(now);
  Object.assign(values, given);
  for (const [name, value] of Object.entries(given)) {
    const schema = (c.schema as unknown as { shape: Record<string, z.ZodType> }).shape[name]!;
    const checked = schema.safeParse(value);
    if (!checked.success) throw new NewRefused(`--${name}: ${checked.error.issues[0]?.message ?? 'not a value it takes'}`);
  }
  const same = sameIdentity(contentDir, c, values);
  if (same.length)
    throw new NewRefused(
      `a ${c.name} record with this ${c.identity.filter((f) => values[f] !== undefined).join(', ')} exists already: ${same.slice(0, 5).join(', ')}` +
        (c.identity.some((f) => values[f] === undefined)
          ? ` (give ${c.identity
              .filter((f) => values[f] === undefined)
              .map((f) => `--${f}`)
              .join(', ')} to tell them apart)`
          : ''),
    );
  const front: string[] = [];
  const missing: string[] = [];
  for (const f of fields) {
    if (f.name === c.bodyField) continue;
    if (values[f.name] !== undefined) front.push(renderField(f.name, values[f.name]).join('\n'));
    else if (f.required) {
      front.push(`${f.name}: # required: ${f.hint}`);
      missing.push(f.name);
    } else front.push(`# ${f.name}: ${f.hint}`);
  }
  const body = values[c.bodyField];
  if (body === undefined && fields.find((f) => f.name === c.bodyField)?.required) missing.push(c.bodyField);
  const file = newRecordFile(contentDir, c.name, { title }, 'md');
  const text = `---\n${front.join('\n')}\n---\n${typeof body === 'string' ? `${body}\n` : ''}`;
  return { file, text, missing };
}

/** The origins of records whose identity fields equal the ones given (folded); fields not given match any value. */
function sameIdentity(contentDir: string, c: CollectionDeclaration, values: Record<string, unknown>): string[] {
  const known = c.identity.filter((f) => values[f] !== undefined);
  if (known.length === 0) return [];
  const key = (v: unknown) => (typeof v === 'string' ? fold(v.trim()) : JSON.stringify(v));
  const { entries } = loadCollection(contentDir, c.name, relative(process.cwd(), contentDir) || '.');
  return entries
    .filter((e) => {
      if (typeof e.data !== 'object' || e.data === null) return false;
      const data = { ...(e.data as Record<string, unknown>), ...(e.body !== undefined ? { [c.bodyField]: e.body } : {}) };
      return known.every((f) => key(data[f]) === key(values[f]));
    })
    .map((e) => e.origin);
}

const USAGE = `usage: npm run new -- <collection> "<title>" [--<field> <value> …]
collections: ${contentCollections
  .filter((c) => !c.compose)
  .map((c) => c.name)
  .join(', ')}`;

function usage(message?: string): never {
  process.stderr.write(`${message ? `${message}\n` : ''}${USAGE}\n`);
  process.exit(2);
}

if (import.meta.main) {
  const { config } = await import('../config.ts');
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const [name, title, ...rest] = args;
  if (!name || title === undefined || title.startsWith('--') || !title.trim()) usage();
  const c = contentCollections.find((d) => d.name === name && !d.compose);
  if (!c) usage(`no collection is named ${name}`);
  const given: Record<string, unknown> = {};
  for (let i = 0; i < rest.length; i += 2) {
    const flag = rest[i]!;
    const value = rest[i + 1];
    if (!flag.startsWith('--') || value === undefined) usage(`expected --<field> <value>, got ${flag}`);
    given[flag.slice(2)] = yaml.load(value, { schema: yaml.CORE_SCHEMA });
  }
  const contentDir = config().CONTENT_DIR;
  try {
    // Through the one content writer, as every write to content/ is: its lock (a running
    // server's write is waited for, never raced), its journal and its atomic write.
    const writer = new ContentWriter({
      contentDir,
      stateDir: config().STATE_DIR,
      holder: `npm run new ${c.name}`,
      onWait: (holder) => process.stderr.write(`waiting: the content is being written by ${describeHolder(holder)}\n`),
    });
    const { record, path } = await writer.exclusive(async () => {
      // Planned under the lock, so the file name and the identity check see every write before it.
      const planned = newRecord(contentDir, c, title, given, new Date());
      const target = join(contentDir, planned.file);
      const meta = { client: 'npm run new', tool: `new.${c.name}`, collection: c.name, canonicalId: '', change: {}, revision: '' };
      await writer.writeFile(meta, target, undefined, planned.text);
      return { record: planned, path: target };
    });
    const shown = relative(process.cwd(), path);
    process.stdout.write(
      `wrote ${shown}\n` +
        (record.missing.length
          ? `fill in ${record.missing.join(', ')} (required), then save: the build lists whatever is still missing\n`
          : 'a save, or npm run build, publishes it\n'),
    );
  } catch (error) {
    if (error instanceof NewRefused || error instanceof ContentLocked) {
      process.stderr.write(`npm run new wrote nothing: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
