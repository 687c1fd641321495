/**
 * What empty collection pages say about importers matches the importers' registry: every
 * importer is named on its collection's page, and every name there is an importer of it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SOURCES } from '../../src/import/sources/index.ts';
import { firstRecordHint, IMPORTERS } from '../../src/site/first-record.ts';

test('the importers named by collection are the registry’s', () => {
  const registry: Record<string, string[]> = {};
  for (const [name, source] of Object.entries(SOURCES)) (registry[source.collection] ??= []).push(name);
  assert.deepEqual(
    Object.fromEntries(Object.entries(IMPORTERS).map(([c, names]) => [c, [...names].sort()])),
    Object.fromEntries(Object.entries(registry).map(([c, names]) => [c, names.sort()])),
  );
  assert.deepEqual(firstRecordHint('movies').imports, ['npm run import -- letterboxd <export>', 'npm run import -- imdb <export>']);
  assert.equal(firstRecordHint('code').sync?.command, 'npm run sync');
});
