/**
 * Publishing a release (src/release/release.ts) from a build output: each file copied into
 * the objects folder under its hash (a temporary name first, renamed once complete; an
 * object already there is kept), then the manifest, renamed into place last. The image
 * is taken with `VACUUM INTO` from the generation's own snapshot: a consistent,
 * self-contained file (no WAL beside it) whatever rebuild comes next, readable in place
 * by every replica.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { restCollections } from '../collections/index.ts';
import type { BuildOutput } from '../compile/incremental/rebuild.ts';
import { Image } from '../core/image.ts';
import { MANIFEST_NAME, OBJECTS, objectPath, RELEASE_FORMAT, releaseIdOf, sha256OfFile, type ObjectRef, type ReleaseManifest } from './release.ts';

const temporary = (releasesDir: string) => join(releasesDir, OBJECTS, `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);

/** Moves a complete file into the objects folder under its hash; returns the hash and size. */
async function store(releasesDir: string, file: string): Promise<ObjectRef> {
  const sha256 = await sha256OfFile(file);
  const { size } = await stat(file);
  const target = objectPath(releasesDir, sha256);
  const exists = await stat(target).then(
    () => true,
    () => false,
  );
  if (exists) await rm(file, { force: true });
  else await rename(file, target);
  return { sha256, bytes: size };
}

/** Copies `file` into the objects folder, unless an object with its hash is there already (most files of a new release are). */
async function storeCopy(releasesDir: string, file: string): Promise<ObjectRef> {
  const sha256 = await sha256OfFile(file);
  const { size } = await stat(file);
  if (
    await stat(objectPath(releasesDir, sha256)).then(
      () => true,
      () => false,
    )
  )
    return { sha256, bytes: size };
  const copy = temporary(releasesDir);
  await copyFile(file, copy);
  return store(releasesDir, copy);
}

/** A self-contained copy of the image at `path` as its snapshot now stands (rollback journal, no WAL). */
async function storeImage(releasesDir: string, path: string): Promise<ObjectRef> {
  const copy = temporary(releasesDir);
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    db.prepare('VACUUM INTO ?').run(copy);
  } finally {
    db.close();
  }
  const out = new DatabaseSync(copy);
  out.exec('PRAGMA journal_mode = DELETE');
  out.close();
  return store(releasesDir, copy);
}

export interface PublishOptions {
  /** When the generation was built. */
  builtAt: string;
  /** The publication time (the clock by default). */
  now?: Date;
}

/** Publishes `build` under `releasesDir` and returns its manifest (the existing one's, if the same release is already there). */
export async function publishRelease(releasesDir: string, build: BuildOutput, options: PublishOptions): Promise<ReleaseManifest> {
  await mkdir(join(releasesDir, OBJECTS), { recursive: true });
  const image = await storeImage(releasesDir, build.image);
  const sqlImage = await storeCopy(releasesDir, build.sqlImage);
  const files: ReleaseManifest['files'] = {};
  const stored = new Map<string, ObjectRef>();
  for (const [path, entry] of Object.entries(build.manifest)) {
    const source = resolve(build.root, entry.file);
    let ref = stored.get(source);
    if (!ref) stored.set(source, (ref = await storeCopy(releasesDir, source)));
    files[path] = { ...ref, headers: entry.headers };
  }
  const id = releaseIdOf({ image, sqlImage, files });
  const opened = new Image(objectPath(releasesDir, image.sha256));
  const records = Object.fromEntries(restCollections.map((c) => [c.name, opened.count(c.name)]));
  opened.close();
  const objects = new Map([image, sqlImage, ...Object.values(files)].map((o) => [o.sha256, o.bytes]));
  const manifest: ReleaseManifest = {
    format: RELEASE_FORMAT,
    id,
    builtAt: options.builtAt,
    publishedAt: (options.now ?? new Date()).toISOString(),
    image,
    sqlImage,
    files,
    counts: { files: Object.keys(files).length, objects: objects.size, bytes: [...objects.values()].reduce((a, b) => a + b, 0), records },
  };
  const folder = join(releasesDir, id);
  await mkdir(folder, { recursive: true });
  const partial = join(folder, `.${MANIFEST_NAME}.${process.pid}`);
  await writeFile(partial, `${JSON.stringify(manifest, null, 2)}\n`);
  await rename(partial, join(folder, MANIFEST_NAME));
  return manifest;
}
