/**
 * What the site pages rendered on request (functions/pages.ts) read: the generation a
 * request arrived on — its query core and search, its image for a record page's links
 * and media, its static files (the prerendered pages, their twins, the not-found page),
 * the collections quota the pages spend and the client it counts, Astro's handler, the
 * pages it remembers and the frames of its collection pages. One per generation; the page
 * handlers hold no state of their own.
 */
import type { Image } from '../core/image.ts';
import type { QueryCore } from '../core/query.ts';
import type { SearchCore } from '../core/search.ts';
import type { AnswerCache } from '../http/answer-cache.ts';
import type { RequestFacts } from '../http/answer.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import type { ListAnswer } from '../http/list.ts';
import type { StaticFiles } from '../runtime/static.ts';
import type { Frame } from './collection-page.ts';
import type { PageHandler } from './render-page.ts';

/** A page as it is remembered: its headers as it leaves, and those every answer of it repeats (`Answer.fixedHeaders`). */
export interface PageAnswer extends ListAnswer {
  fixed: Readonly<Record<string, string>>;
}

export interface SiteContext {
  core: QueryCore;
  search: SearchCore;
  image: Pick<Image, 'siteUrl' | 'media'>;
  files: Pick<StaticFiles, 'resolve' | 'answer'>;
  /** The collections quota, which a page with a query string spends as the REST list does. */
  quota: RateLimiter;
  clientOf: (request: RequestFacts) => string;
  pages: PageHandler;
  /** The pages rendered on request, remembered for the generation (`PAGE_CACHE_BYTES`). */
  readonly pageCache: AnswerCache<PageAnswer>;
  /** The frames of the collection pages (src/site/collection-page.ts), by collection, made on first use. */
  readonly pageFrames: Map<string, Promise<Frame | undefined>>;
}
