/**
 * What the site pages made of records read, shared by their prerendered versions (read
 * from the image a build has just written) and the route that renders them again for a
 * new generation under a running server (`src/pages/rerender/`), so both give the same
 * bytes for the same records.
 */
import { collection, restCollections } from '../collections/index.ts';
import type { Image } from '../core/image.ts';
import type { QueryCore } from '../core/query.ts';

export interface HomeRow {
  name: string;
  title: string;
  description: string;
  count: number;
}

/** The home page: every REST collection with its record count. */
export const homeRows = (image: Image): HomeRow[] =>
  restCollections.map((c) => ({ name: c.name, title: c.title, description: c.description, count: image.count(c.name) }));

/** The blog index: every published post, newest first. */
export const blogPosts = (core: QueryCore): Record<string, unknown>[] => core.records(collection('blog')!);
