/**
 * Letterboxd: the export ZIP (watched, diary with a rewatch, ratings, a multi-line
 * review) becomes one movie record per film, written byte for byte as the golden files,
 * with no director, genre or IMDb id invented; the unpacked folder gives the same files,
 * and a second run changes no byte.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { assertGolden, assertSameFiles, exportZip, FIXTURES, runImport, snapshot, tempDir } from './harness.ts';

test('letterboxd: the export ZIP gives the golden files, and a re-import changes no byte', () => {
  const content = tempDir('letterboxd');
  const zip = exportZip('letterboxd');
  const first = runImport(['letterboxd', zip], content);
  assert.equal(first.status, 0, first.stderr);
  assert.match(first.stdout, /4 new, 0 same/);
  assertGolden(content, 'letterboxd');
  const before = snapshot(content);
  const second = runImport(['letterboxd', zip], content);
  assert.equal(second.status, 0, second.stderr);
  assert.match(second.stdout, /0 new, 4 same, 0 changed/);
  assert.match(second.stdout, /nothing to write/);
  assertSameFiles(snapshot(content), before);
});

test('letterboxd: the unpacked folder imports exactly as the ZIP', () => {
  const content = tempDir('letterboxd-folder');
  const run = runImport(['letterboxd', join(FIXTURES, 'letterboxd', 'export')], content);
  assert.equal(run.status, 0, run.stderr);
  assertGolden(content, 'letterboxd');
});

test('letterboxd: a rewatch is one record with the latest watch, and nothing is invented', () => {
  const content = tempDir('letterboxd-facts');
  assert.equal(runImport(['letterboxd', exportZip('letterboxd')], content).status, 0);
  const files = [...snapshot(content).entries()]
    .filter(([f]) => f.startsWith('movies/'))
    .map(([, b]) => b.toString('utf8'))
    .join('');
  assert.equal(files.match(/title: Crouching Tiger, Hidden Dragon/g)?.length, 1);
  assert.match(files, /title: Crouching Tiger, Hidden Dragon\n(?:  .*\n)*  watchedAt: 2025-11-19\n/);
  for (const invented of ['director', 'genres', 'imdbId', 'tmdbId', 'cast']) assert.doesNotMatch(files, new RegExp(`^  ${invented}:`, 'm'));
});
