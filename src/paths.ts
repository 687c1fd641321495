/**
 * Where the build reads and writes, relative to the project root (the working directory
 * of `npm run build` and `npm start`). `CONTENT_DIR` points the build at other content,
 * such as the benchmark's generated set.
 */
import { resolve } from 'node:path';

export const paths = {
  content: resolve(process.env.CONTENT_DIR ?? 'content'),
  dist: resolve('dist'),
  /** What a CDN can host on its own. */
  client: resolve('dist/client'),
  /** The runtime's read-only image; never published. */
  image: resolve('dist/image/site.db'),
  /**
   * Where the compiler writes during `astro build`, which empties dist/ after the
   * compiler has run; the integration moves the results into dist/ when the build is done.
   */
  stage: resolve('.build'),
  /** Precomputed response headers of every static file. */
  manifest: resolve('dist/headers.json'),
};
