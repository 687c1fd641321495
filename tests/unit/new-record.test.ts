/**
 * `npm run new`: every collection gets a file whose named field, required dates and given
 * fields parse with the collection's own schema once the remaining required fields are
 * filled; optional fields are comments; an identity that exists is refused; the file goes
 * where the owner lane places a new record.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import yaml from 'js-yaml';
import { contentCollections } from '../../src/collections/index.ts';
import { fieldsOf, namingField, newRecord, NewRefused } from '../../src/setup/new.ts';

const now = new Date('2026-03-04T10:20:30Z');
const empty = () => mkdtempSync(join(tmpdir(), 'new-record-'));

test('every collection: the file is front matter with the required fields, the optional ones as comments', () => {
  for (const c of contentCollections.filter((c) => !c.compose)) {
    const record = newRecord(empty(), c, 'A Title', {}, now);
    assert.match(record.file, new RegExp(`^${c.name}/a-title\\.md$`), c.name);
    const front = /^---\n([\s\S]*?)\n---\n/.exec(record.text)![1]!;
    const data = (yaml.load(front, { schema: yaml.CORE_SCHEMA }) ?? {}) as Record<string, unknown>;
    for (const f of fieldsOf(c)) {
      if (f.name === c.bodyField) continue;
      if (f.required) assert.ok(f.name in data, `${c.name}.${f.name} is present`);
      else assert.match(front, new RegExp(`^# ${f.name}: `, 'm'), `${c.name}.${f.name} is a comment`);
    }
    const named = namingField(c);
    if (named !== c.bodyField) assert.equal(data[named], 'A Title', c.name);
    assert.deepEqual(
      record.missing.sort(),
      fieldsOf(c)
        .filter((f) => f.required && (f.name === c.bodyField ? named !== c.bodyField : data[f.name] === null))
        .map((f) => f.name)
        .sort(),
      c.name,
    );
  }
});

test('a film given its type and year is a valid record as written', () => {
  const movies = contentCollections.find((c) => c.name === 'movies')!;
  const record = newRecord(empty(), movies, 'Heat', { type: 'movie', year: 1995 }, now);
  assert.deepEqual(record.missing, []);
  const front = /^---\n([\s\S]*?)\n---\n/.exec(record.text)![1]!;
  const parsed = movies.schema.safeParse(yaml.load(front, { schema: yaml.CORE_SCHEMA }));
  assert.ok(parsed.success, JSON.stringify(!parsed.success && parsed.error.issues));
  assert.equal((parsed.data as { addedAt: string }).addedAt, '2026-03-04');
});

test('an identity that exists is refused, naming its file; the missing identity fields tell records apart', () => {
  const dir = empty();
  mkdirSync(join(dir, 'movies'));
  writeFileSync(join(dir, 'movies', 'heat.md'), '---\ntitle: Heat\ntype: movie\nyear: 1995\naddedAt: 2024-01-03\n---\n');
  const movies = contentCollections.find((c) => c.name === 'movies')!;
  assert.throws(
    () => newRecord(dir, movies, 'heat', {}, now),
    (e: unknown) => e instanceof NewRefused && /movies\/heat\.md/.test(e.message) && /--type, --year/.test(e.message),
  );
  assert.throws(() => newRecord(dir, movies, 'Heat', { year: 1995 }, now), NewRefused);
  const remake = newRecord(dir, movies, 'Heat', { year: 1986 }, now);
  assert.equal(remake.file, 'movies/heat-2.md', 'the taken name is numbered, as the owner lane numbers it');
  assert.throws(() => newRecord(dir, movies, 'Heat', { gnere: 'x' }, now), /no field gnere/);
  assert.throws(() => newRecord(dir, movies, 'Heat', { year: 'soon' }, now), /--year/);
});
