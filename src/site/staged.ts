/**
 * What the build has staged, for prerendered pages: the query core over the image the
 * compiler has just written (opened for one page's data and closed again), and the GraphQL
 * explorer's bundled files.
 */
import { readFileSync } from 'node:fs';
import type { ExplorerAssets } from '../compile/artifacts/explorer-bundle.ts';
import { stagedExplorer, stagedImage } from '../compile/integration.ts';
import { Image } from '../core/image.ts';
import { QueryCore } from '../core/query.ts';

export function withStagedCore<T>(read: (core: QueryCore) => T): T {
  const image = new Image(stagedImage);
  try {
    return read(new QueryCore(image));
  } finally {
    image.close();
  }
}

/** The GraphQL explorer's script and stylesheet, as bundled for this build. */
export const stagedExplorerAssets = (): ExplorerAssets => JSON.parse(readFileSync(stagedExplorer, 'utf8')) as ExplorerAssets;
