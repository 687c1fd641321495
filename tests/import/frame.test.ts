/**
 * The import frame, through the Letterboxd source: `--dry-run` writes nothing, a newer
 * export adds only what is new, `--update` changes only records the importer wrote and the
 * owner left alone (the owner's edits are conflicts), `--since`, and refusals with nothing
 * written: a ZIP cut short, an entry named with `..` or an absolute path, a ZIP bomb's
 * ratio, a CSV that is not the export, and rows that fail the schema (all listed at once,
 * each with its file, row and field). Item texts round-trip through YAML for any string.
 */
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import yaml from 'js-yaml';
import movies from '../../src/collections/movies.ts';
import { renderItem } from '../../src/compile/content/render.ts';
import { assertGolden, assertSameFiles, exportZip, FIXTURES, runImport, snapshot, tempDir } from './harness.ts';
import { zip } from './zip.ts';

const exportDir = join(FIXTURES, 'letterboxd', 'export');

/** A copy of the Letterboxd export folder with `edit` applied to its files. */
function editedExport(edit: (files: Record<string, string>) => void): string {
  const dir = tempDir('lb-export');
  cpSync(exportDir, dir, { recursive: true });
  const files: Record<string, string> = {};
  for (const name of ['watched.csv', 'diary.csv', 'ratings.csv', 'reviews.csv']) files[name] = readFileSync(join(dir, name), 'utf8');
  edit(files);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

test('--dry-run prints what would be new and writes nothing', () => {
  const content = tempDir('dry');
  const run = runImport(['letterboxd', exportZip('letterboxd'), '--dry-run'], content);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^new +movie, Past Lives, 2023/m);
  assert.match(run.stdout, /dry run: nothing written/);
  assert.equal(snapshot(content).size, 0);
});

test('a newer export adds only what is new; the result is the full import, byte for byte', () => {
  const content = tempDir('newer');
  const older = editedExport((f) => {
    for (const name of Object.keys(f))
      f[name] = f[name]!.split('\r\n')
        .filter((line) => !line.includes('Past Lives') && !line.startsWith('The last shot'))
        .join('\r\n');
  });
  assert.equal(runImport(['letterboxd', older], content).status, 0);
  const run = runImport(['letterboxd', exportDir], content);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /1 new, 3 same/);
  assertGolden(content, 'letterboxd');
});

test('--update changes what the importer wrote, and leaves the owner’s edits as conflicts', () => {
  const content = tempDir('update');
  assert.equal(runImport(['letterboxd', exportDir], content).status, 0);
  const newer = editedExport((f) => {
    f['ratings.csv'] = f['ratings.csv']!.replace('Aftersun,2022,https://boxd.it/2Z6e,4.5', 'Aftersun,2022,https://boxd.it/2Z6e,5').replace(
      'Perfect Days,2023,https://boxd.it/3Bq8,4.5',
      'Perfect Days,2023,https://boxd.it/3Bq8,4',
    );
  });
  // The owner edits Perfect Days by hand.
  const file2024 = join(content, 'movies/letterboxd-2024.yaml');
  writeFileSync(file2024, readFileSync(file2024, 'utf8').replace('  watchedAt: 2024-03-01\n', '  watchedAt: 2024-03-01\n  recommended: true\n'));
  const before = snapshot(content);

  const plain = runImport(['letterboxd', newer], content);
  assert.equal(plain.status, 0, plain.stderr);
  assert.match(plain.stdout, /^changed +movie, Aftersun, 2022 .*not applied: pass --update/m);
  assert.match(plain.stdout, /^conflict +movie, Perfect Days, 2023/m);
  assertSameFiles(snapshot(content), before);

  const dry = runImport(['letterboxd', newer, '--update', '--dry-run'], content);
  assert.match(dry.stdout, /1 changed, 1 in conflict/);
  assertSameFiles(snapshot(content), before);

  const update = runImport(['letterboxd', newer, '--update'], content);
  assert.equal(update.status, 0, update.stderr);
  assert.match(update.stdout, /0 new, 2 same, 1 changed, 1 in conflict/);
  assert.match(readFileSync(join(content, 'movies/letterboxd-2023.yaml'), 'utf8'), /rating: 5\n/);
  assert.equal(readFileSync(file2024, 'utf8'), before.get('movies/letterboxd-2024.yaml')!.toString('utf8'), 'the owner’s edit stays');
  const again = snapshot(content);
  assert.equal(runImport(['letterboxd', newer, '--update'], content).status, 0);
  assertSameFiles(snapshot(content), again);
});

test('--since leaves out records dated before it', () => {
  const content = tempDir('since');
  const run = runImport(['letterboxd', exportDir, '--since', '2025-01-01'], content);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /2 new/);
  assert.deepEqual([...snapshot(content).keys()], ['.import/letterboxd.json', 'movies/letterboxd-2024.yaml', 'movies/letterboxd-2025.yaml']);
});

function refused(path: string, pattern: RegExp): void {
  const content = tempDir('refused');
  const run = runImport(['letterboxd', path], content);
  assert.equal(run.status, 1, run.stdout);
  assert.match(run.stderr, pattern);
  assert.equal(snapshot(content).size, 0, 'nothing written');
}

function zipFile(bytes: Buffer): string {
  const path = join(tempDir('zip'), 'export.zip');
  writeFileSync(path, bytes);
  return path;
}

test('a ZIP cut short is refused, nothing written', () => {
  const whole = readFileSync(exportZip('letterboxd'));
  refused(zipFile(whole.subarray(0, Math.floor(whole.length * 0.6))), /not a complete, readable ZIP/);
});

test('ZIP entries named with .. or an absolute path are refused', () => {
  const watched = readFileSync(join(exportDir, 'watched.csv'));
  refused(zipFile(zip([{ name: '../watched.csv', data: watched }])), /outside its own folder/);
  refused(zipFile(zip([{ name: '/etc/watched.csv', data: watched }])), /outside its own folder/);
});

test('an entry over the compression ratio limit (a ZIP bomb) is refused before it is inflated', () => {
  refused(zipFile(zip([{ name: 'watched.csv', data: Buffer.alloc(2_000_000) }])), /importCompressionRatioMax/);
});

test('a CSV that is not the Letterboxd export is refused, naming the columns it lacks', () => {
  refused(
    zipFile(zip([{ name: 'watched.csv', data: 'Title,Watched\r\nHeat,2020-01-01\r\n' }])),
    /watched\.csv is not a Letterboxd watched\.csv: it has no column Date, Name, Year, Letterboxd URI/,
  );
  refused(zipFile(zip([{ name: 'films.csv', data: 'Date,Name,Year,Letterboxd URI\r\n' }])), /is not a Letterboxd export/);
});

test('rows that fail the schema are all listed, with file, row and field, and nothing is written', () => {
  const bad = editedExport((f) => {
    f['watched.csv'] = `${f['watched.csv']}2025-03-01,No Year Film,,https://boxd.it/9aa\r\n`;
    f['ratings.csv'] = `${f['ratings.csv']}2025-03-02,Overrated,1999,https://boxd.it/9bb,7\r\n2025-03-03,,2001,https://boxd.it/9cc,3\r\n`;
  });
  const content = tempDir('schema');
  const run = runImport(['letterboxd', bad], content);
  assert.equal(run.status, 1);
  assert.match(run.stderr, /watched\.csv row 6: year: required field is missing/);
  assert.match(run.stderr, /ratings\.csv row 6: rating: /);
  assert.match(run.stderr, /ratings\.csv row 7: title: /);
  assert.equal(snapshot(content).size, 0);
});

test('a record item reads back as the fields it was rendered from, whatever the strings', () => {
  const text = fc.string({ minLength: 1, maxLength: 80 }).filter((s) => s.trim() === s && s.length > 0);
  fc.assert(
    fc.property(text, fc.option(fc.string({ maxLength: 200 }), { nil: undefined }), (title, review) => {
      const fields = { title, type: 'movie', year: 2001, addedAt: '2024-01-02', review };
      const back = (yaml.load(renderItem(movies, fields), { schema: yaml.CORE_SCHEMA }) as Record<string, unknown>[])[0]!;
      assert.deepEqual(back, Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)));
    }),
  );
});
