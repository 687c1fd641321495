/**
 * Owner writes of content files: the new bytes replace the file whole (a temporary file
 * renamed over it), folders are made as needed, no temporary file is left behind even
 * when the write fails, and a removal removes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { isContentFile } from '../../src/compile/content/load.ts';
import { removeContentFile, writeContentFile } from '../../src/owner/content-file.ts';

test('a content file is replaced whole, its folder made, nothing left beside it', () => {
  const root = mkdtempSync(join(tmpdir(), 'content-file-'));
  const file = join(root, 'places', 'berlin', 'cafes.yaml');
  writeContentFile(file, 'name: One\n');
  writeContentFile(file, Buffer.from('name: Two\n'));
  assert.equal(readFileSync(file, 'utf8'), 'name: Two\n');
  assert.deepEqual(readdirSync(join(root, 'places', 'berlin')), ['cafes.yaml']);
  removeContentFile(file);
  assert.equal(existsSync(file), false);
});

test('a failed write leaves the old file and no temporary file', () => {
  const root = mkdtempSync(join(tmpdir(), 'content-file-'));
  const file = join(root, 'places.yaml');
  writeContentFile(file, 'name: Kept\n');
  // A folder where the file should go makes the rename fail.
  const blocked = join(root, 'folder.yaml');
  mkdirSync(join(blocked, 'inside'), { recursive: true });
  assert.throws(() => writeContentFile(blocked, 'name: Lost\n'));
  assert.equal(readFileSync(file, 'utf8'), 'name: Kept\n');
  assert.deepEqual(readdirSync(root).sort(), ['folder.yaml', 'places.yaml']);
});

test('the temporary name is never read as content', () => {
  writeContentFile(join(mkdtempSync(join(tmpdir(), 'content-file-')), 'x.md'), '---\ntitle: x\n---\n');
  assert.equal(isContentFile('.x.md.1234.0a1b2c3d.tmp'), false);
});
