/**
 * The GraphQL explorer's browser bundle (GraphiQL, React, Monaco and its three workers),
 * made with esbuild outside Astro's Vite build. Bundled by Vite it was the build's largest
 * cost that did not depend on content: about 0.7 GB of the build's peak RSS and 3 s on
 * every build. Its input is only the explorer's source and the locked packages, so it is
 * made once per (lockfile, source, esbuild version) into `node_modules/.cache/` and copied
 * under `/_astro/` on each build, where the header manifest marks it immutable. File names
 * carry content hashes; esbuild's output is deterministic, so the same input gives the same
 * bytes. The workers are classic scripts (Monaco starts them with `new Worker(url)`), their
 * URLs handed to the main bundle through `define` (src/explorer/explorer.ts).
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { build, version as esbuildVersion, type BuildOptions, type Metafile, type Plugin } from 'esbuild';

/** The explorer's files, as root-relative URLs, for its page (src/pages/graphql/index.astro). */
export interface ExplorerAssets {
  script: string;
  style: string;
}

const ASSETS_DIR = '_astro';
const ASSETS_URL = `/${ASSETS_DIR}/`;
const ENTRY = resolve('src/explorer/explorer.ts');
/** Monaco's workers, by the label Monaco asks for (the editor worker answers any other label). */
const WORKERS = {
  editor: 'monaco-editor/esm/vs/editor/editor.worker.js',
  json: 'monaco-editor/esm/vs/language/json/json.worker.js',
  graphql: 'monaco-graphql/esm/graphql.worker.js',
} as const;
const CACHE_ROOT = resolve('node_modules/.cache/collections-explorer');
const RECORD = 'assets.json';

const COMMON: BuildOptions = {
  bundle: true,
  minify: true,
  target: 'es2022',
  platform: 'browser',
  legalComments: 'none',
  define: { 'process.env.NODE_ENV': '"production"' },
  loader: { '.ttf': 'file', '.woff': 'file', '.woff2': 'file' },
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  metafile: true,
  logLevel: 'error',
};

/** What the bundle depends on: the lockfile, the explorer's sources, this file and esbuild itself. */
function cacheKey(): string {
  const hash = createHash('sha256').update(esbuildVersion);
  for (const file of ['package-lock.json', ENTRY, resolve('src/urls.ts'), resolve('src/compile/artifacts/explorer-bundle.ts')]) hash.update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

const outputsOf = (metafile: Metafile) => Object.keys(metafile.outputs).map((file) => basename(file));

/** The namespace of the stylesheets the script imports, kept out of the script. */
const STYLE_STUB = 'explorer-style';

/**
 * Stylesheets imported by the script become empty modules: esbuild would split them per
 * lazy chunk and never load those (Vite's preload does), so they are gathered into one
 * stylesheet instead, loaded with the page.
 */
const stubStyles: Plugin = {
  name: STYLE_STUB,
  setup(builder) {
    builder.onResolve({ filter: /\.css$/ }, async ({ path, resolveDir, kind, pluginData }) => {
      // builder.resolve runs this hook again: the marker lets esbuild's own resolver answer that call.
      if ((pluginData as { resolving?: boolean } | undefined)?.resolving) return undefined;
      const found = await builder.resolve(path, { resolveDir, kind, pluginData: { resolving: true } });
      return found.errors.length ? { errors: found.errors } : { path: found.path, namespace: STYLE_STUB };
    });
    builder.onLoad({ filter: /.*/, namespace: STYLE_STUB }, () => ({ contents: '', loader: 'js' }));
  },
};

/** Every stylesheet the entry reaches, in import order (depth first, as a browser would apply them). */
function stylesInOrder(metafile: Metafile, entry: string): string[] {
  const seen = new Set<string>();
  const styles: string[] = [];
  const visit = (input: string) => {
    if (seen.has(input)) return;
    seen.add(input);
    if (input.startsWith(`${STYLE_STUB}:`)) styles.push(input.slice(STYLE_STUB.length + 1));
    for (const next of metafile.inputs[input]?.imports ?? []) if (!next.external) visit(next.path);
  };
  visit(entry);
  return styles;
}

/** Bundle into `dir`: the workers first, so the script can be given their hashed names, then the script, then its stylesheet. */
async function bundleInto(dir: string): Promise<ExplorerAssets> {
  const workers = await build({
    ...COMMON,
    format: 'iife',
    outdir: dir,
    entryPoints: Object.entries(WORKERS).map(([label, input]) => ({ in: input, out: `${label}.worker` })),
  });
  const workerFiles = outputsOf(workers.metafile!);
  const workerUrl = (label: string) => {
    const file = workerFiles.find((name) => name.startsWith(`${label}.worker-`) && name.endsWith('.js'));
    if (!file) throw new Error(`the explorer bundle has no ${label} worker`);
    return `${ASSETS_URL}${file}`;
  };
  const workerUrls = Object.fromEntries(Object.keys(WORKERS).map((label) => [label, workerUrl(label)]));
  const main = await build({
    ...COMMON,
    format: 'esm',
    // Lazily imported parts (GraphiQL's prettier, for one) stay chunks of their own, fetched when used.
    splitting: true,
    chunkNames: '[name]-[hash]',
    outdir: dir,
    entryPoints: [{ in: ENTRY, out: 'explorer' }],
    define: { ...COMMON.define, EXPLORER_WORKERS: JSON.stringify(workerUrls) },
    plugins: [stubStyles],
  });
  const entryInput = relative(process.cwd(), ENTRY).split(sep).join('/');
  const script = Object.entries(main.metafile!.outputs).find(([, output]) => output.entryPoint === entryInput)?.[0];
  if (!script) throw new Error('the explorer bundle has no entry script');
  const styles = await build({
    ...COMMON,
    outdir: dir,
    stdin: {
      contents: stylesInOrder(main.metafile!, entryInput)
        .map((file) => `@import ${JSON.stringify(file)};`)
        .join('\n'),
      loader: 'css',
      resolveDir: dir,
      sourcefile: 'explorer.css',
    },
    entryNames: 'explorer-[hash]',
  });
  const style = outputsOf(styles.metafile!).find((name) => name.endsWith('.css'));
  if (!style) throw new Error('the explorer bundle has no stylesheet');
  return { script: `${ASSETS_URL}${basename(script)}`, style: `${ASSETS_URL}${style}` };
}

/** The explorer's files under `<clientDir>/_astro/`, bundled now or copied from the cache. */
export async function publishExplorer(clientDir: string): Promise<ExplorerAssets> {
  const cached = join(CACHE_ROOT, cacheKey());
  if (!existsSync(join(cached, RECORD))) {
    const building = `${cached}.${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    const assets = await bundleInto(building);
    writeFileSync(join(building, RECORD), JSON.stringify(assets));
    rmSync(cached, { recursive: true, force: true });
    mkdirSync(CACHE_ROOT, { recursive: true });
    renameSync(building, cached);
  }
  const assets = JSON.parse(readFileSync(join(cached, RECORD), 'utf8')) as ExplorerAssets;
  cpSync(cached, join(clientDir, ASSETS_DIR), { recursive: true, filter: (source) => basename(source) !== RECORD });
  return assets;
}
