/**
 * Reading the owner's files. Under `content/<collection>/`, recursively: `.md` files are
 * YAML front matter plus a Markdown body (as src/compile/content/record-text.ts cuts them); `.yaml`/`.yml` files hold one record (a
 * mapping) or many (a sequence). YAML is read with the core schema, so dates stay the
 * strings the owner wrote. Paths are visited in sorted order: the same files always give
 * the same records in the same order.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import yaml from 'js-yaml';
import { frontMatter, parseYaml } from './record-text.ts';

export interface SourceEntry {
  /** Where the record came from, for error messages: `content/movies/heat.md` or `content/tweets/2024.yaml[3]`. */
  origin: string;
  data: unknown;
  /** The Markdown body of a `.md` file, if it has one. */
  body?: string;
}

export interface LoadProblem {
  origin: string;
  field: string;
  reason: string;
}

/** Whether a path names a content file (by its extension). */
export const isContentFile = (path: string) => /\.(md|ya?ml)$/.test(path);

/** The content files under `dir` (recursively), as absolute paths in sorted order. */
export function contentFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((d) => d.isFile() && isContentFile(d.name))
    .map((d) => join(d.parentPath, d.name))
    .sort();
}

/** The entries of one content file (`file` absolute, under `contentDir`), or the problem that kept it from being read. */
export function loadFile(contentDir: string, file: string, shownRoot: string): { entries: SourceEntry[]; problems: LoadProblem[] } {
  const origin = join(shownRoot, relative(contentDir, file)).split(sep).join('/');
  const entries: SourceEntry[] = [];
  try {
    const text = readFileSync(file, 'utf8');
    if (file.endsWith('.md')) {
      const front = frontMatter(text);
      if (!front) return { entries, problems: [{ origin, field: '(file)', reason: 'expected YAML front matter between --- lines at the top' }] };
      const body = front.rest.trim();
      entries.push({ origin, data: parseYaml(front.yaml), ...(body ? { body } : {}) });
    } else {
      const data = parseYaml(text);
      if (Array.isArray(data)) data.forEach((item, i) => entries.push({ origin: `${origin}[${i}]`, data: item }));
      else entries.push({ origin, data });
    }
  } catch (error) {
    const reason = error instanceof yaml.YAMLException ? `invalid YAML: ${error.reason} (line ${error.mark.line + 1})` : 'could not be read';
    return { entries: [], problems: [{ origin, field: '(file)', reason }] };
  }
  return { entries, problems: [] };
}

/** Every entry of one collection's folder, plus the files that could not be read as content. */
export function loadCollection(contentDir: string, name: string, shownRoot: string): { entries: SourceEntry[]; problems: LoadProblem[] } {
  const entries: SourceEntry[] = [];
  const problems: LoadProblem[] = [];
  for (const file of contentFiles(join(contentDir, name))) {
    const loaded = loadFile(contentDir, file, shownRoot);
    entries.push(...loaded.entries);
    problems.push(...loaded.problems);
  }
  return { entries, problems };
}
