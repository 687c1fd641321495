/**
 * A rebuild under a running server, from a list of changed content paths to a new build
 * generation: the edited files' changes (changes.ts) applied to the image in one
 * transaction (image-update.ts), then only what reads a changed collection
 * rendered again — page one of each changed list, the service metadata, the taste
 * profile, the exports, the calendars, the feeds, the SQL image, the pages — and kept only
 * where its bytes changed, so ETags change exactly for the documents that did. The new
 * generation's folder hard-links every unchanged file of the old one, so no file an older
 * generation reads is rewritten (the image is shared, see GenerationTarget). Nothing is
 * written when the edit changes nothing a reader sees.
 */
import { copyFileSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
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
  /** Milliseconds per step: plan (read and diff), copy (the image), update (its rows), render (artifacts), pages, write (the folder). */
  timings: Record<string, number>;
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
 * Where a new generation goes: its own folder (client files, manifest, SQL image) and
 * the image it serves. The image is not one file per generation — copying it would cost
 * seconds at a million records — but one file in WAL mode that every rebuild updates in
 * a transaction: the first rebuild copies the build's image there, and each generation
 * reads it in a read transaction of its own (src/core/image.ts), so it keeps answering
 * from its snapshot while newer ones are committed; SQLite never backfills a page a
 * snapshot still reads.
 */
export interface GenerationTarget {
  dir: string;
  image: string;
}

/** Copies the build's image to `path` and puts the copy in WAL mode, before anyone reads it. */
function startImage(from: string, path: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
  mkdirSync(dirname(path), { recursive: true });
  copyFileSync(from, path);
  const db = new DatabaseSync(path);
  try {
    db.exec('PRAGMA journal_mode = WAL');
  } finally {
    db.close();
  }
}

/**
 * Builds the generation that follows `previous` (whose image is open as `image`) after
 * the content `paths` changed; undefined when nothing a reader sees changed, and then
 * nothing is written. The image's transaction commits only once every file of the new
 * generation is written, so a failure anywhere leaves the image as it was. Invalid
 * content throws a ContentError listing every problem.
 */
export async function rebuildGeneration(
  previous: Generation & { image: Image },
  target: GenerationTarget,
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
  const files = changedFiles(previous.image, options.contentDir, paths);
  if (files.length === 0) return undefined;
  const siteUrl = previous.image.siteUrl;
  const changes = planChanges(previous.image, { contentDir: options.contentDir, siteUrl }, files);
  if (unchanged(changes) && !changes.sourcesMoved) return undefined;
  lap('plan');
  if (previous.layout.image !== target.image) startImage(previous.layout.image, target.image);
  lap('copy');
  const next: BuildLayout = { ...buildLayout(target.dir), image: target.image };
  const db = new DatabaseSync(target.image);
  let open = false;
  try {
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec('BEGIN IMMEDIATE');
    open = true;
    updateImage(db, changes, siteUrl);
    lap('update');
    // Read through the writing connection: the new rows, before they are committed.
    const image = new Image(target.image, db);
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
    lap('render');
    const pages = pagesToRender(changes, previous.image, image);
    for (const page of pages.render) {
      const body = await renderPage(core, page.route);
      put(page.path, withSecurity(page.path, fileEntry(page.path, page.file, body), siteUrl), body);
    }
    for (const path of pages.remove) drop(path);
    lap('pages');
    const sql = affected.has('writing') ? Buffer.from(sqlImageOf(core)) : undefined;
    mkdirSync(dirname(next.sqlImage), { recursive: true });
    if (sql !== undefined && !sql.equals(readFileSync(previous.layout.sqlImage))) {
      writeFileSync(next.sqlImage, sql);
      changed.push(SQL_PATH);
    } else {
      linkSync(previous.layout.sqlImage, next.sqlImage);
    }
    writeClient(previous.layout.client, next.client, manifest, written);
    const saved = saveManifest(manifest, next.manifest, next.client);
    lap('write');
    db.exec('COMMIT');
    open = false;
    return { generation: { layout: next, manifest: saved }, changed: changed.sort(), warnings: changes.warnings, timings };
  } catch (error) {
    if (open) db.exec('ROLLBACK');
    rmSync(target.dir, { recursive: true, force: true });
    throw error;
  } finally {
    db.close();
  }
}
