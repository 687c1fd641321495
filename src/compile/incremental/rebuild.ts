/**
 * A rebuild under a running server, from a list of changed content paths to a new
 * `BuildOutput` (what a generation of the runtime serves: src/runtime/generations.ts):
 * the edited files' changes (changes.ts) applied to the image in one transaction
 * (image-update.ts), then only what reads a changed collection rendered
 * again — page one of each changed list, the service metadata, the taste profile, the
 * exports, the calendars, the feeds, the SQL image, the pages — and kept only where its
 * bytes changed, so ETags change exactly for the documents that did. Only those files
 * are written, each under the new output's own folder; its manifest names them there
 * and every unchanged file where an older output wrote it, so no file a generation
 * reads is ever rewritten (the image is shared, see RebuildTarget). Nothing is written
 * when the edit changes nothing a reader sees.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { collections } from '../../collections/index.ts';
import { Image, SITE_AS_OF } from '../../core/image.ts';
import { QueryCore } from '../../core/query.ts';
import { groupsReading, type ArtifactOptions } from '../artifacts/groups.ts';
import { changedFiles, planChanges, unchanged } from './changes.ts';
import { sqlImageOf, type Manifest, type StaticFile } from '../compile.ts';
import { updateImage } from './image-update.ts';
import { buildNow } from '../content/now.ts';
import { fileEntry, withSecurity } from '../artifacts/manifest.ts';
import { keptRecordSitemaps, pagesToRender, recordSitemapNumber } from './pages.ts';
import { URLS } from '../../urls.ts';

/**
 * What a build wrote, full or incremental, and what one generation of the runtime serves
 * (src/runtime/runtime.ts): its image, its SQL image, and its static files — the
 * manifest, whose `file`s are relative to `root` (`dist/client` for the build's own;
 * `dist` for rebuilt ones, whose files sit in several generations' folders).
 */
export interface BuildOutput {
  image: string;
  sqlImage: string;
  manifest: Manifest;
  root: string;
}

export interface RebuildOptions extends ArtifactOptions {
  /** The content folder the paths are under. */
  contentDir: string;
}

export interface RebuildResult {
  build: BuildOutput;
  /** URL paths whose answer changed (or left), and the SQL endpoint when `public.writing` did; sorted. */
  changed: string[];
  /** Provenance warnings of the changed records. */
  warnings: string[];
  /** Milliseconds per step: plan (read and diff), update (the image's rows), render (artifacts, and the slower groups by name), pages, write. */
  timings: Record<string, number>;
}

/** Renders a page route over a generation's query core (the runtime's Astro handler), to its bytes. */
export type PageRenderer = (core: QueryCore, route: string) => Promise<Buffer>;

const posix = (path: string) => path.split(sep).join('/');

/** A manifest whose files are named relative to `to` instead of `from`. */
function rebased(manifest: Manifest, from: string, to: string): Manifest {
  if (from === to) return { ...manifest };
  const prefix = posix(relative(to, from));
  return Object.fromEntries(Object.entries(manifest).map(([path, entry]) => [path, { ...entry, file: `${prefix}/${entry.file}` }]));
}

/**
 * Where a rebuild's output goes: its own folder `dir` (for the files it writes), the
 * `root` its manifest names files from (a folder holding every generation's), and the
 * image it serves. The image is not one file per generation — copying it would cost
 * seconds at a million records — but one file in WAL mode that every rebuild updates in
 * a transaction: a copy of the build's image made once (prepareImage) before the first
 * rebuild, and from then on the previous output's own image. Each generation reads
 * it in a read transaction of its own (src/core/image.ts), so it keeps answering from its
 * snapshot while newer ones are committed; SQLite never backfills a page a snapshot still
 * reads.
 */
export interface RebuildTarget {
  dir: string;
  root: string;
  image: string;
}

/**
 * Copies the build's image to `path` and puts the copy in WAL mode, before anyone reads
 * it: the image every rebuilt generation shares. Asynchronous, so a server can prepare
 * it while it answers (at a million records the copy takes seconds).
 */
export async function prepareImage(from: string, path: string): Promise<void> {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
  mkdirSync(dirname(path), { recursive: true });
  await copyFile(from, path);
  const db = new DatabaseSync(path);
  try {
    db.exec('PRAGMA journal_mode = WAL');
  } finally {
    db.close();
  }
}

/**
 * Builds the output that follows `previous` (whose image is open as `reading`) after
 * the content `paths` changed; undefined when nothing a reader sees changed, and then
 * nothing is written. The image's transaction commits only once every file of the new
 * output is written, so a failure anywhere leaves the image as it was. Invalid
 * content throws a ContentError listing every problem.
 */
export async function rebuildOutput(
  previous: BuildOutput,
  reading: Image,
  target: RebuildTarget,
  paths: readonly string[],
  options: RebuildOptions,
  renderPage: PageRenderer,
): Promise<RebuildResult | undefined> {
  const timings: Record<string, number> = {};
  let mark = performance.now();
  const lap = (step: string) => {
    const now = performance.now();
    timings[step] = Math.round(now - mark);
    mark = now;
  };
  const files = changedFiles(reading, options.contentDir, paths);
  if (files.length === 0) return undefined;
  const siteUrl = reading.siteUrl;
  // One present for the content rules and the as-of times, as in a full build.
  const now = buildNow();
  const changes = planChanges(reading, { contentDir: options.contentDir, siteUrl, now: new Date(now) }, files);
  if (unchanged(changes) && !changes.sourcesMoved) return undefined;
  lap('plan');
  const db = new DatabaseSync(target.image);
  let open = false;
  try {
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec('BEGIN IMMEDIATE');
    open = true;
    updateImage(db, changes, siteUrl, now);
    lap('update');
    // Read through the writing connection: the new rows, before they are committed.
    const image = new Image(target.image, { db });
    const core = new QueryCore(image);
    // The exports and calendars read back only the changed records of the lists kept for `previous`.
    options.orders?.begin(previous, core, new Map([...changes.records].map(([name, records]) => [name, records.keys()])));
    const affected = new Set([...changes.records].filter(([, c]) => c.size > 0).map(([name]) => name));
    // A collection no record dates is as of the site's newest data (src/core/image.ts `asOf`): when that moves, so do its lists.
    if (image.meta(SITE_AS_OF) !== reading.meta(SITE_AS_OF)) for (const c of collections) if (image.lastModified(c.name) === undefined) affected.add(c.name);
    const manifest = rebased(previous.manifest, previous.root, target.root);
    const written = new Map<string, Buffer>();
    const changed: string[] = [];
    const own = posix(relative(target.root, target.dir));
    const put = (path: string, entry: StaticFile, body: Buffer) => {
      // The same headers (so the same ETag) wherever the file is: unchanged.
      if (manifest[path] !== undefined && JSON.stringify(manifest[path].headers) === JSON.stringify(entry.headers)) return;
      const placed = { ...entry, file: `${own}/client/${entry.file}` };
      manifest[path] = placed;
      written.set(placed.file, body);
      changed.push(path);
    };
    const drop = (path: string) => {
      if (manifest[path] === undefined) return;
      delete manifest[path];
      changed.push(path);
    };
    for (const group of groupsReading(affected)) {
      const started = performance.now();
      const produced = new Set<string>();
      for (const artifact of group.render(core, options)) {
        produced.add(artifact.path);
        put(artifact.path, withSecurity(artifact.path, { file: artifact.file, headers: artifact.headers }, siteUrl), artifact.body);
      }
      for (const path of group.paths) if (!produced.has(path)) drop(path);
      const ms = Math.round(performance.now() - started);
      if (ms >= 50) timings[group.name] = ms;
    }
    lap('render');
    const pages = pagesToRender(changes, reading, image);
    let sitemaps: ((n: number) => Buffer) | undefined;
    for (const page of pages.render) {
      // The record sitemaps from the lines kept across rebuilds, when they are kept; else through the page's route.
      const sitemap = options.orders === undefined ? undefined : recordSitemapNumber(page);
      const body = sitemap === undefined ? await renderPage(core, page.route) : (sitemaps ??= keptRecordSitemaps(core, options.orders!))(sitemap);
      put(page.path, withSecurity(page.path, fileEntry(page.path, page.file, body), siteUrl), body);
    }
    for (const path of pages.remove) drop(path);
    lap('pages');
    let sqlImage = previous.sqlImage;
    const sql = affected.has('writing') ? Buffer.from(sqlImageOf(core)) : undefined;
    if (sql !== undefined && !sql.equals(readFileSync(previous.sqlImage))) {
      sqlImage = join(target.dir, 'sql.db');
      mkdirSync(target.dir, { recursive: true });
      writeFileSync(sqlImage, sql);
      changed.push(URLS.sql);
    }
    for (const [file, body] of written) {
      mkdirSync(dirname(join(target.root, file)), { recursive: true });
      writeFileSync(join(target.root, file), body);
    }
    lap('write');
    // Statistics where an edit changed a table's size enough to mislead the planner (a
    // collection that grew from a few rows to many); a no-op for ordinary edits.
    db.exec('PRAGMA optimize');
    db.exec('COMMIT');
    open = false;
    const build = { image: target.image, sqlImage, manifest, root: target.root };
    options.orders?.commit(build);
    return { build, changed: changed.sort(), warnings: changes.warnings, timings };
  } catch (error) {
    options.orders?.abort();
    if (open) db.exec('ROLLBACK');
    rmSync(target.dir, { recursive: true, force: true });
    throw error;
  } finally {
    db.close();
  }
}
