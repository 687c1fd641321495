/**
 * Where the build reads and writes, relative to the project root (the working directory
 * of `npm run build` and `npm start`). `CONTENT_DIR` points the build at other content,
 * such as the benchmark's generated set, and `DIST_DIR` puts its output elsewhere (both
 * read by src/config.ts).
 */
import { join } from 'node:path';
import { config } from './config.ts';

/** The folder of the content directory holding the owner's image files (src/compile/content/media.ts). */
export const MEDIA_FOLDER = 'media';

/** Each path is worked out when it is first asked for, so importing this module reads no configuration (a bad value is reported where the command starts). */
export const paths = {
  get content(): string {
    return config().CONTENT_DIR;
  },
  get dist(): string {
    return config().DIST_DIR;
  },
  /** What a CDN can host on its own. */
  get client(): string {
    return buildLayout(this.dist).client;
  },
  /** The runtime's read-only image; never published. */
  get image(): string {
    return buildLayout(this.dist).image;
  },
  /** The public SQL surface's image: only the SQL profile's relations. */
  get sqlImage(): string {
    return buildLayout(this.dist).sqlImage;
  },
  /**
   * Where the compiler writes during `astro build`, which empties dist/ after the
   * compiler has run; the integration moves the results into dist/ when the build is done.
   */
  get stage(): string {
    return `${this.dist}.build`;
  },
  /** Precomputed response headers of every static file. */
  get manifest(): string {
    return buildLayout(this.dist).manifest;
  },
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
