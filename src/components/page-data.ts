/**
 * What the site pages made of records read, shared by their prerendered versions (read
 * from the image a build has just written) and the route that renders them again for a
 * new generation under a running server (`src/pages/rerender/`), so both give the same
 * bytes for the same records.
 */
import { collection } from '../collections/index.ts';
import type { QueryCore } from '../core/query.ts';

/** The blog index: every published post, newest first. */
export const blogPosts = (core: QueryCore): Record<string, unknown>[] => core.records(collection('blog')!);
