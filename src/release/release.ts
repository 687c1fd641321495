/**
 * A release: one build's content, published in a folder every replica reads
 * (`RELEASES_DIR`, a shared volume) so that replicas serve byte-identical answers. Its
 * files are objects named by their SHA-256 (`objects/<sha256>`: the image, the SQL
 * image, every static file), shared between releases; its manifest is
 * `<id>/release.json` (the objects with their hashes and sizes, the static files'
 * headers, counts, build and publication times). The id is a hash of what it serves, so
 * the same build published twice is one release. The manifest is written last, by a
 * rename, so a release whose `release.json` can be read is complete; a reader still
 * checks every object's hash before it serves one (`openRelease`).
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest } from '../compile/compile.ts';
import type { BuildOutput } from '../compile/incremental/rebuild.ts';

export const RELEASE_FORMAT = 1;
export const MANIFEST_NAME = 'release.json';
export const OBJECTS = 'objects';

/** One object of a release: its hash (and file name) and size. */
export interface ObjectRef {
  sha256: string;
  bytes: number;
}

export interface ReleaseManifest {
  format: typeof RELEASE_FORMAT;
  id: string;
  /** When the build (or the owner write's rebuild) that made it finished. */
  builtAt: string;
  /** When it was published: the newest complete release is the one published last. */
  publishedAt: string;
  image: ObjectRef;
  sqlImage: ObjectRef;
  /** URL path → the object answering it and its precomputed headers. */
  files: Record<string, ObjectRef & { headers: Record<string, string> }>;
  counts: { files: number; objects: number; bytes: number; records: Record<string, number> };
}

/** A verified release, ready to serve: the build output its runtime opens. */
export interface OpenedRelease {
  manifest: ReleaseManifest;
  build: BuildOutput;
}

export const objectPath = (releasesDir: string, sha256: string) => join(releasesDir, OBJECTS, sha256);

/** The id of what a release serves: the same objects and headers give the same id. */
export function releaseIdOf(release: Pick<ReleaseManifest, 'image' | 'sqlImage' | 'files'>): string {
  const files = Object.keys(release.files)
    .sort()
    .map((path) => [path, release.files[path]!.sha256, release.files[path]!.headers]);
  return createHash('sha256')
    .update(JSON.stringify([release.image.sha256, release.sqlImage.sha256, files]))
    .digest('hex')
    .slice(0, 24);
}

export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every readable manifest under `releasesDir`, newest first (by publication, then id). */
export function listReleases(releasesDir: string): ReleaseManifest[] {
  if (!existsSync(releasesDir)) return [];
  const releases: ReleaseManifest[] = [];
  for (const name of readdirSync(releasesDir)) {
    if (name === OBJECTS || name.startsWith('.')) continue;
    const path = join(releasesDir, name, MANIFEST_NAME);
    try {
      const manifest = JSON.parse(readFileSync(path, 'utf8')) as ReleaseManifest;
      if (manifest.format === RELEASE_FORMAT && manifest.id === name) releases.push(manifest);
    } catch {
      // No manifest yet (a release being written) or not ours: not a release.
    }
  }
  return releases.sort((a, b) => (a.publishedAt === b.publishedAt ? (a.id < b.id ? 1 : -1) : a.publishedAt < b.publishedAt ? 1 : -1));
}

/** Whether `a` was published after `b`. */
export const newer = (a: ReleaseManifest, b: Pick<ReleaseManifest, 'id' | 'publishedAt'>) =>
  a.publishedAt > b.publishedAt || (a.publishedAt === b.publishedAt && a.id > b.id);

/** Objects whose hash this process has checked: they never change, so each is read once. */
const verified = new Set<string>();

/** Checks every object of `manifest` against its hash; the first that is missing or differs is named. */
export async function verifyRelease(releasesDir: string, manifest: ReleaseManifest): Promise<void> {
  if (releaseIdOf(manifest) !== manifest.id) throw new Error(`release ${manifest.id}: its id is not the hash of what it serves`);
  const objects = new Map([manifest.image, manifest.sqlImage, ...Object.values(manifest.files)].map((o) => [o.sha256, o.bytes]));
  for (const [sha256] of objects) {
    if (verified.has(sha256)) continue;
    const path = objectPath(releasesDir, sha256);
    if (!existsSync(path)) throw new Error(`release ${manifest.id}: object ${sha256} is missing`);
    if ((await sha256OfFile(path)) !== sha256) throw new Error(`release ${manifest.id}: object ${sha256} does not match its hash`);
    verified.add(sha256);
  }
}

/** The build output a runtime serves for a verified release: its objects, read in place. */
export function releaseBuildOutput(releasesDir: string, manifest: ReleaseManifest): BuildOutput {
  const files: Manifest = {};
  for (const [path, entry] of Object.entries(manifest.files)) files[path] = { file: join(OBJECTS, entry.sha256), headers: entry.headers };
  return {
    image: objectPath(releasesDir, manifest.image.sha256),
    sqlImage: objectPath(releasesDir, manifest.sqlImage.sha256),
    manifest: files,
    root: releasesDir,
  };
}

/** Verifies `manifest` and opens it as a build output. */
export async function openRelease(releasesDir: string, manifest: ReleaseManifest): Promise<OpenedRelease> {
  await verifyRelease(releasesDir, manifest);
  return { manifest, build: releaseBuildOutput(releasesDir, manifest) };
}

/** The newest release that verifies (a damaged one is reported and passed over), if any. */
export async function newestRelease(releasesDir: string, log: (line: string) => void = console.error): Promise<OpenedRelease | undefined> {
  for (const manifest of listReleases(releasesDir)) {
    try {
      return await openRelease(releasesDir, manifest);
    } catch (error) {
      log(`release ${manifest.id} not served: ${(error as Error).message}`);
    }
  }
  return undefined;
}
