/**
 * A rebuild under a running server, from a list of changed content paths to a new build
 * generation in its own folder: the edited files' changes (changes.ts) applied to a copy
 * of the current image (image-update.ts), then only what reads a changed collection
 * rendered again — page one of each changed list, the service metadata, the taste
 * profile, the exports, the calendars, the feeds, the SQL image, the pages — and kept only
 * where its bytes changed, so ETags change exactly for the documents that did. The new
 * folder hard-links every unchanged file of the old one: no file an older generation
 * reads is ever rewritten. Nothing is written when the edit changes nothing a reader sees.
 */
import { copyFileSync, linkSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SQL_PATH } from '../../functions/sql.ts';
import { Image } from '../core/image.ts';
import { QueryCore } from '../core/query.ts';
import { buildLayout, type BuildLayout } from '../paths.ts';
import { groupsReading, type ArtifactOptions } from './artifacts.ts';
import { changedFiles, planChanges, unchanged } from './changes.ts';
import { sqlImageOf, type Manifest, type StaticFile } from './compile.ts';
import { updateImage } from './image-update.ts';
import { fileEntry, saveManifest, withSecurity } from './manifest.ts';
import { pagesToRender } from './pages.ts';

/** The files of one build generation and its manifest. */
export interface Generation {
  layout: BuildLayout;
  manifest: Manifest;
}

export interface RebuildOptions extends ArtifactOptions {
  /** The content folder the paths are under. */
  contentDir: string;
}

export interface RebuildResult {
  generation: Generation;
  /** URL paths whose answer changed (or left), and the SQL endpoint when `public.writing` did; sorted. */
  changed: string[];
  /** Provenance warnings of the changed records. */
  warnings: string[];
}

/** Renders a page route over a generation's query core (the runtime's Astro handler), to its bytes. */
export type PageRenderer = (core: QueryCore, route: string) => Promise<Buffer>;

const sameEntry = (a: StaticFile | undefined, b: StaticFile) => a !== undefined && JSON.stringify(a) === JSON.stringify(b);

/** The new client folder: changed files written, every other file of the manifest hard-linked from the old folder. */
function writeClient(from: string, to: string, manifest: Manifest, written: ReadonlyMap<string, Buffer>): void {
  const made = new Set<string>();
  const place = (file: string) => {
    const dir = dirname(join(to, file));
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    return join(to, file);
  };
  mkdirSync(to, { recursive: true });
  for (const { file } of Object.values(manifest)) {
    const body = written.get(file);
    if (body !== undefined) writeFileSync(place(file), body);
    else linkSync(join(from, file), place(file));
  }
}

/**
 * Builds the generation that follows `previous` (whose image is open as `image`) after
 * the content `paths` changed, in `nextDir`; undefined when nothing a reader sees
 * changed. Invalid content throws a ContentError listing every problem, and nothing is
 * written.
 */
export async function rebuildGeneration(
  previous: Generation & { image: Image },
  nextDir: string,
  paths: readonly string[],
  options: RebuildOptions,
  renderPage: PageRenderer,
): Promise<RebuildResult | undefined> {
  const files = changedFiles(previous.image, options.contentDir, paths);
  if (files.length === 0) return undefined;
  const siteUrl = previous.image.siteUrl;
  const changes = planChanges(previous.image, { contentDir: options.contentDir, siteUrl }, files);
  if (unchanged(changes) && !changes.sourcesMoved) return undefined;
  const next = buildLayout(nextDir);
  mkdirSync(dirname(next.image), { recursive: true });
  copyFileSync(previous.layout.image, next.image);
  updateImage(next.image, changes, siteUrl);
  const image = new Image(next.image);
  try {
    const core = new QueryCore(image);
    const affected = new Set([...changes.records].filter(([, c]) => c.size > 0).map(([name]) => name));
    const manifest: Manifest = { ...previous.manifest };
    const written = new Map<string, Buffer>();
    const changed: string[] = [];
    const put = (path: string, entry: StaticFile, body: Buffer) => {
      if (sameEntry(manifest[path], entry)) return;
      manifest[path] = entry;
      written.set(entry.file, body);
      changed.push(path);
    };
    const drop = (path: string) => {
      if (manifest[path] === undefined) return;
      delete manifest[path];
      changed.push(path);
    };
    for (const group of groupsReading(affected)) {
      const produced = new Set<string>();
      for (const artifact of group.render(core, options)) {
        produced.add(artifact.path);
        put(artifact.path, withSecurity(artifact.path, { file: artifact.file, headers: artifact.headers }, siteUrl), artifact.body);
      }
      for (const path of group.paths) if (!produced.has(path)) drop(path);
    }
    const pages = pagesToRender(changes, previous.image, image);
    for (const page of pages.render) {
      const body = await renderPage(core, page.route);
      put(page.path, withSecurity(page.path, fileEntry(page.path, page.file, body), siteUrl), body);
    }
    for (const path of pages.remove) drop(path);
    const sql = affected.has('writing') ? Buffer.from(sqlImageOf(core)) : undefined;
    if (sql !== undefined && !sql.equals(readFileSync(previous.layout.sqlImage))) {
      writeFileSync(next.sqlImage, sql);
      changed.push(SQL_PATH);
    } else {
      linkSync(previous.layout.sqlImage, next.sqlImage);
    }
    writeClient(previous.layout.client, next.client, manifest, written);
    const saved = saveManifest(manifest, next.manifest, next.client);
    return { generation: { layout: next, manifest: saved }, changed: changed.sort(), warnings: changes.warnings };
  } finally {
    image.close();
  }
}
