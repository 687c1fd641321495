/**
 * Goodreads: the library export CSV (ISBNs as `="…"`, an empty `=""`, an ISBN-10 only, a
 * review over several lines with `<br/>`, `My Rating` 0, private notes, four shelves)
 * gives the golden book records; private notes never reach a file; a re-import changes
 * nothing; an export without its columns is refused.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FIXTURES, goldenImport, runImport, snapshot, tempDir, writtenText } from './harness.ts';

const csv = join(FIXTURES, 'goodreads', 'export', 'goodreads_library_export.csv');

test('goodreads: the library export gives the golden files; a re-import changes no byte', () => {
  const { content, run } = goldenImport('goodreads', csv);
  assert.match(run.stdout, /4 new.*left out: 1 private notes/);
  const text = writtenText(content);
  assert.doesNotMatch(text, /Lent by Ana/, 'private notes are dropped');
  assert.doesNotMatch(text, /rating: 0/, 'My Rating 0 is unrated');
  assert.match(text, /isbn: "9780060853983"/, 'the ISBN-13 of the ISBN-10');
});

test('goodreads: an unknown exclusive shelf and a CSV of other columns are refused, nothing written', () => {
  const dir = tempDir('gr-bad');
  const other = join(dir, 'goodreads_library_export.csv');
  writeFileSync(other, 'Title,Author,Rating\nDune,Frank Herbert,5\n');
  const content = tempDir('gr-bad-content');
  const run = runImport(['goodreads', other], content);
  assert.equal(run.status, 1);
  assert.match(run.stderr, /is not the Goodreads library export .*no column Book Id, ISBN13, My Rating, Exclusive Shelf/);
  const shelf = join(dir, 'shelf.csv');
  writeFileSync(shelf, 'Book Id,Title,Author,ISBN13,My Rating,Exclusive Shelf\n1,Dune,Frank Herbert,"=""""",4,wishlist\n');
  const second = runImport(['goodreads', shelf], content);
  assert.equal(second.status, 1);
  assert.match(second.stderr, /shelf\.csv row 2: Exclusive Shelf: the shelf wishlist is not one of/);
  assert.equal(snapshot(content).size, 0);
});
