/**
 * The Astro integration: publish the image files and compile the content while Vite
 * bundles, before Astro prerenders pages (so pages can read the image and know which
 * images exist), and write the header manifest once every static file exists. The
 * work lives in `compile.ts` (run on a thread of its own, compile-thread.ts) and
 * `artifacts/manifest.ts`; the hooks only call them. The secret, the site's URL and its
 * author come from the process's configuration (src/config.ts).
 */
import { cpSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AstroIntegration } from 'astro';
import { config } from '../config.ts';
import { paths } from '../paths.ts';
import type { Manifest } from './compile.ts';
import { compileOnThread } from './compile-thread.ts';
import { publishExplorer } from './artifacts/explorer-bundle.ts';
import { publishMedia } from './content/media.ts';
import { writeManifest } from './artifacts/manifest.ts';

/** The image as staged during a build, for prerendered pages to read. */
export const stagedImage = join(paths.stage, 'site.db');
const stagedClient = join(paths.stage, 'client');
/** The GraphQL explorer's hashed script and stylesheet URLs (artifacts/explorer-bundle.ts), for its page. */
export const stagedExplorer = join(paths.stage, 'explorer.json');

export default function collectionsIntegration(): AstroIntegration {
  let compiled: Manifest = {};
  let staged: Promise<void> = Promise.resolve();
  return {
    name: 'collections-compiler',
    hooks: {
      // The compile runs while Vite bundles (neither needs the other); prerendering reads the
      // image, so the build waits for it at astro:build:ssr, which Astro runs after bundling
      // and before it prerenders. A compile that fails fails the build there.
      'astro:build:start': ({ logger }) => {
        rmSync(paths.stage, { recursive: true, force: true });
        const started = performance.now();
        const explorer = publishExplorer(stagedClient).then((assets) => writeFileSync(stagedExplorer, JSON.stringify(assets)));
        const compile = async () => {
          const media = await publishMedia(paths.content, stagedClient);
          logger.info(`published ${Object.keys(media).length} image files`);
          const result = await compileOnThread({
            media,
            contentDir: paths.content,
            imagePath: stagedImage,
            clientDir: stagedClient,
            secret: config().CURSOR_SECRET,
            siteUrl: config().SITE_URL,
            siteAuthor: config().SITE_AUTHOR,
          });
          await explorer;
          compiled = result.manifest;
          const total = Object.values(result.counts).reduce((a, b) => a + b, 0);
          logger.info(`compiled ${total} records in ${Math.round(performance.now() - started)} ms`);
          for (const warning of result.warnings) logger.warn(warning);
        };
        staged = compile();
        // Awaited at astro:build:ssr; until then a failure must not count as unhandled.
        staged.catch(() => undefined);
      },
      'astro:build:ssr': async () => {
        await staged;
      },
      'astro:build:done': async () => {
        await staged;
        cpSync(stagedClient, paths.client, { recursive: true });
        mkdirSync(dirname(paths.image), { recursive: true });
        renameSync(stagedImage, paths.image);
        renameSync(join(paths.stage, 'sql.db'), paths.sqlImage);
        rmSync(paths.stage, { recursive: true, force: true });
        writeManifest(paths.client, compiled, paths.manifest, config().SITE_URL);
      },
    },
  };
}
