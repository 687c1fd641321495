/**
 * Blog: the site's own posts, Markdown files under `content/blog/`. Each post has a
 * canonical page at `/blog/<slug>/` (prerendered at build), and its absolute URL is
 * published with it. Drafts (`draft: true`) are dropped by the compiler like private
 * records, so they reach neither the image, the pages nor the feeds.
 */
import { z } from 'zod';
import { define, text, yearFilter } from './define.ts';
import { bookkeeping, isoDate, longText, names, shortText, yearOf } from './fields.ts';

/** Lowercase words joined by hyphens: the post's path segment. */
export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The canonical path of a post's page. */
export const blogPath = (slug: string) => `/blog/${slug}/`;

const words = (body: unknown) => (typeof body === 'string' ? (body.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).length : 0);

export default define({
  name: 'blog',
  title: 'Blog',
  description: 'Posts published on this site, newest first; each has its own page.',
  rest: true,
  schema: z.strictObject({
    title: shortText,
    slug: z.string().max(100).regex(SLUG, 'expected lowercase words joined by hyphens, such as my-first-post'),
    publishedAt: isoDate,
    summary: z.string().trim().min(1).max(2000),
    tags: names.default([]),
    draft: z.boolean().default(false),
    body: longText,
    ...bookkeeping,
  }),
  identity: ['slug'],
  bodyField: 'body',
  derive: (r, { siteUrl }) => ({ url: `${siteUrl}${blogPath(String(r.slug))}`, year: yearOf(r.publishedAt), wordCount: words(r.body) }),
  derived: ['url', 'year', 'wordCount'],
  filters: { tag: text('tags', 'Tag (any of the post’s tags)'), year: yearFilter() },
  search: ['title', 'summary', 'tags'],
  sort: { publishedAt: 'date', title: 'text' },
  defaultSort: [{ field: 'publishedAt', direction: 'desc' }],
  dateField: 'publishedAt',
});
