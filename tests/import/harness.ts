/**
 * Running the importer as the owner does (`src/import/cli.ts` in a child process, with
 * `CONTENT_DIR`), and comparing a content folder with a golden one byte for byte.
 * `UPDATE_GOLDEN=1` rewrites the golden folder from the run instead (then read the diff).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { zipFolder } from './zip.ts';
import { config } from '../../src/config.ts';

export const FIXTURES = join(import.meta.dirname, 'fixtures');

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The import's state folder (content lock, journal) beside the content folder, never in the project's own `state/`. */
export const stateDirOf = (contentDir: string) => `${contentDir}.state`;

export function runImport(args: readonly string[], contentDir: string, stateDir = stateDirOf(contentDir)): Run {
  const result = spawnSync(process.execPath, ['src/import/cli.ts', ...args], {
    env: { ...process.env, CONTENT_DIR: contentDir, STATE_DIR: stateDir },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `import-${prefix}-`));
}

/** The fixture's export folder as the ZIP the service sends, in a temporary folder. */
export function exportZip(source: string, folder = 'export', prefix = ''): string {
  const path = join(tempDir(source), `${source}.zip`);
  writeFileSync(path, zipFolder(join(FIXTURES, source, folder), prefix));
  return path;
}

/** Every file under `dir`: relative path → bytes. */
export function snapshot(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  if (!existsSync(dir)) return files;
  for (const d of readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[]) {
    if (d.isFile()) files.set(relative(dir, join(d.parentPath, d.name)).split(sep).join('/'), readFileSync(join(d.parentPath, d.name)));
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

export function assertSameFiles(actual: Map<string, Buffer>, expected: Map<string, Buffer>): void {
  assert.deepEqual([...actual.keys()], [...expected.keys()], 'the same files');
  for (const [file, bytes] of expected) assert.equal(actual.get(file)!.toString('utf8'), bytes.toString('utf8'), `${file} byte for byte`);
}

/** The content folder equals the source's golden folder, byte for byte. */
export function assertGolden(contentDir: string, source: string, golden = 'golden'): void {
  const dir = join(FIXTURES, source, golden);
  if (config().UPDATE_GOLDEN) {
    rmSync(dir, { recursive: true, force: true });
    cpSync(contentDir, dir, { recursive: true });
  }
  assertSameFiles(snapshot(contentDir), snapshot(dir));
}

/** Imports `path` into an empty content folder: the golden files, byte for byte; a second run writes nothing. Returns the folder and the first run. */
export function goldenImport(source: string, path: string, extra: readonly string[] = [], golden = 'golden'): { content: string; run: Run } {
  const content = tempDir(source);
  const run = runImport([source, path, ...extra], content);
  assert.equal(run.status, 0, run.stderr);
  assertGolden(content, source, golden);
  const before = snapshot(content);
  const again = runImport([source, path, ...extra], content);
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stdout, / 0 new, \d+ same, 0 changed, 0 in conflict/);
  assertSameFiles(snapshot(content), before);
  return { content, run };
}

/** Every content file written under `dir` (the ledger aside), concatenated. */
export function writtenText(dir: string): string {
  return [...snapshot(dir).entries()]
    .filter(([f]) => !f.startsWith('.import/'))
    .map(([, b]) => b.toString('utf8'))
    .join('');
}
