/**
 * Where the build reads and writes, relative to the project root (the working directory
 * of `npm run build` and `npm start`). `CONTENT_DIR` points the build at other content,
 * such as the benchmark's generated set, and `DIST_DIR` puts its output elsewhere.
 */
import { join, resolve } from 'node:path';


const dist = resolve(process.env.DIST_DIR ?? 'dist');

/** The folder of the content directory holding the owner's image files (src/compile/content/media.ts). */
export const MEDIA_FOLDER = 'media';

export const paths = {
  content: resolve(process.env.CONTENT_DIR ?? 'content'),
  dist,
  /** What a CDN can host on its own. */
  client: join(dist, 'client'),
  /** The runtime's read-only image; never published. */
  image: join(dist, 'image/site.db'),
  /** The public SQL surface's image: only the SQL profile's relations. */
  sqlImage: join(dist, 'image/sql.db'),
  /**
   * Where the compiler writes during `astro build`, which empties dist/ after the
   * compiler has run; the integration moves the results into dist/ when the build is done.
   */
  stage: `${dist}.build`,
  /** Precomputed response headers of every static file. */
  manifest: join(dist, 'headers.json'),
};

/** Where `npm run build` writes what the runtime serves, under a dist folder. */
export interface BuildLayout {
  /** The runtime's read-only image. */
  image: string;
  /** The public SQL surface's image. */
  sqlImage: string;
  /** Precomputed response headers of every static file. */
  manifest: string;
  /** The static files. */
  client: string;
}

export function buildLayout(dir: string): BuildLayout {
  return { image: join(dir, 'image/site.db'), sqlImage: join(dir, 'image/sql.db'), manifest: join(dir, 'headers.json'), client: join(dir, 'client') };
}
