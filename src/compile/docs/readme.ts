/**
 * The documentation's reference tables — collections with their filters and sort fields, the
 * problem types, the limits, the content rules, the environment variables — generated from the declarations,
 * the problem catalog, the limits module and the configuration module, and its performance tables from `bench/results.json` (src/compile/docs/bench-readme.ts),
 * so the documentation cannot drift from the code or from the recorded benchmark. Each table
 * sits between `<!-- name -->` and `<!-- /name -->` markers in exactly one file of `docs/` (or
 * the README): the files are scanned rather than named here, so a section can move between
 * pages without touching this module. `npm run docs` rewrites them in place; a test fails
 * when a page is out of date.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentCollections, restCollections } from '../../collections/index.ts';
import { VARIABLES } from '../../config.ts';
import { PROBLEMS } from '../../core/problems.ts';
import { LIMIT_DEFINITIONS } from '../../core/limits.ts';
import { collectionUrl, problemUrl } from '../../urls.ts';
import { TOOLS } from '../../mcp/tools.ts';
import { benchTables, coldTable, readBenchResults } from './bench-readme.ts';
import { loopTables } from './bench-loop.ts';
import { replicaTables } from './bench-replicas.ts';
import { targetTable } from './bench-targets.ts';

const code = (s: string) => `\`${s}\``;

function filterText(kind: import('../../collections/define.ts').FilterKind): string {
  if (kind.type === 'integer') return ` (integer ${kind.min}–${kind.max})`;
  if (kind.type === 'enum') return ` (${kind.values.join(' \\| ')})`;
  if (kind.type === 'since') return ' (RFC 3339 date or date-time: on or after)';
  if (kind.examples) return ` (text, e.g. ${kind.examples.join(', ')})`;
  return '';
}

export function tables(): Record<string, string> {
  const bench = readBenchResults();
  const collections = [
    '| collection | filters | `q` searches | sort fields (default) |',
    '| --- | --- | --- | --- |',
    ...restCollections.map((c) => {
      const filters = Object.entries(c.filters).map(([p, spec]) => `${code(p)}${spec.repeatable ? ' (repeatable)' : ''}${filterText(spec.kind)}`);
      const sort = Object.keys(c.sort).map((f) => {
        const d = c.defaultSort.find((k) => k.field === f);
        return d ? `${code(f)} (${d.direction})` : code(f);
      });
      return `| ${code(collectionUrl(c.name))} | ${filters.join(', ')} | ${c.search.join(', ')} | ${sort.join(', ')} |`;
    }),
  ];
  const problems = [
    '| type | status | when |',
    '| --- | --- | --- |',
    ...Object.entries(PROBLEMS).map(([slug, p]) => `| ${code(problemUrl(slug))} | ${p.status} | ${p.when} |`),
  ];
  const limits = ['| limit | value | why |', '| --- | --- | --- |', ...Object.entries(LIMIT_DEFINITIONS).map(([name, l]) => `| ${code(name)} | ${l.value} ${l.unit} | ${l.why} |`)];
  const rules = [
    '| collection | checked against each other or the build date, or settled |',
    '| --- | --- |',
    ...contentCollections.filter((c) => c.rules?.length).map((c) => `| ${c.name} | ${c.rules!.map((r) => r.description).join('; ')} |`),
  ];
  const variables = [
    '| variable | when | default | what |',
    '| --- | --- | --- | --- |',
    ...Object.entries(VARIABLES).map(([name, v]) => {
      const unset = v.default === undefined ? (v.unset ?? '—') : v.default === '' ? 'none' : code(v.default);
      return `| ${code(name)} | ${v.when.join(', ')} | ${unset} | ${v.what} |`;
    }),
  ];
  const args = (schema: Record<string, unknown>) => {
    const properties = Object.keys((schema.properties ?? {}) as object);
    const required = new Set((schema.required ?? []) as string[]);
    return properties.map((p) => code(required.has(p) ? p : `${p}?`)).join(', ') || '—';
  };
  const mcpTools = [
    '| tool | title | arguments (`?` optional) | work units | view |',
    '| --- | --- | --- | --- | --- |',
    ...TOOLS.map((t) => `| ${code(t.name)} | ${t.title} | ${args(t.inputSchema as Record<string, unknown>)} | ${t.cost} | ${t.ui ? code(t.ui) : ''} |`),
  ];
  return {
    'mcp-tools-table': mcpTools.join('\n'),
    'collections-table': collections.join('\n'),
    'problems-table': problems.join('\n'),
    'limits-table': limits.join('\n'),
    'rules-table': rules.join('\n'),
    'config-table': variables.join('\n'),
    bench: benchTables(bench),
    'bench-targets': targetTable(bench),
    'bench-cold': bench.cold ? coldTable(bench.cold).join('\n') : 'No cold figures recorded yet: `npm run bench:cold`.',
    'bench-loop': loopTables(bench.rebuild),
    'bench-replicas': replicaTables(bench.replicas),
  };
}

/** One page with every generated section it holds replaced; a section it does not hold is left alone. */
export function renderSections(text: string, sections: Record<string, string>): string {
  let out = text;
  for (const [name, body] of Object.entries(sections)) {
    const open = `<!-- ${name} -->`;
    const close = `<!-- /${name} -->`;
    const start = out.indexOf(open);
    if (start < 0) continue;
    const end = out.indexOf(close, start);
    if (end < 0) throw new Error(`${open} has no ${close}`);
    out = `${out.slice(0, start + open.length)}\n${body}\n${out.slice(end)}`;
  }
  return out;
}

/** The Markdown pages that may hold generated sections: the README and every page of `docs/`. */
export function documentationFiles(root = '.'): string[] {
  const docs = readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f))
    .sort();
  return ['README.md', ...docs];
}

/**
 * Every page rendered again. Each section must be held by exactly one page: a table that
 * vanished from the docs, or appears twice, is an error rather than a silent skip.
 */
export function renderDocs(pages: Record<string, string>, sections: Record<string, string> = tables()): Record<string, string> {
  for (const name of Object.keys(sections)) {
    const holders = Object.keys(pages).filter((file) => pages[file]!.includes(`<!-- ${name} -->`));
    if (holders.length !== 1) throw new Error(`the generated section ${name} is in ${holders.length === 0 ? 'no page' : holders.join(' and ')}; it belongs in exactly one`);
  }
  return Object.fromEntries(Object.entries(pages).map(([file, text]) => [file, renderSections(text, sections)]));
}

export const readPages = (files: string[] = documentationFiles()): Record<string, string> => Object.fromEntries(files.map((f) => [f, readFileSync(f, 'utf8')]));

if (import.meta.main) {
  const pages = readPages();
  for (const [file, text] of Object.entries(renderDocs(pages))) if (text !== pages[file]) writeFileSync(file, text);
}
