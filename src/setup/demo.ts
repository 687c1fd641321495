/**
 * The demo content: every file of it is listed, one path a line relative to the content
 * folder, in `content/demo.txt`, so `npm run init` removes exactly the demo and nothing the
 * owner wrote, and a test can hold the list and the owner's files apart. The profile
 * (`content/site.yaml`) is the one content file the project ships that is not listed: it is
 * the owner's from the start, and `init` writes over it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROFILE_FILE } from '../collections/profile.ts';

/** The list of demo files, in the content folder. */
export const DEMO_MANIFEST = 'demo.txt';

/** The content folder's files that are the owner's whatever else it holds (the importers' ledgers are a folder). */
export const OWNER_CONTENT = [PROFILE_FILE, '.import/'] as const;

/** The demo's files as the list names them (comments and blank lines left out); none when there is no list. */
export function demoFiles(contentDir: string): string[] {
  const path = join(contentDir, DEMO_MANIFEST);
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** Why a listed path may not be removed as demo content: outside the folder, or the owner's. */
export function unsafeDemoPath(file: string): string | undefined {
  if (file.startsWith('/') || file.split('/').includes('..') || file.includes('\\')) return 'not a path inside the content folder';
  if (file === DEMO_MANIFEST) return 'the list itself';
  if (OWNER_CONTENT.some((owned) => (owned.endsWith('/') ? file.startsWith(owned) : file === owned))) return "the owner's file";
  return undefined;
}
