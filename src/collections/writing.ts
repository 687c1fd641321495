/**
 * Writing: everything the owner has published, here and elsewhere — the pieces listed
 * under `content/writing/` (published on other sites) plus every blog post of this site,
 * composed in at compile time with its own canonicalId. This one declaration defines
 * both `GET /api/writing.json` and the public SQL relation `public.writing` (whose
 * columns are derived from this schema), so the two cannot drift.
 */
import { z } from 'zod';
import { define, text, yearFilter, type ComposedRecord } from './define.ts';
import { bookkeeping, httpUrl, isoDate, longText, names, shortText, yearOf } from './fields.ts';

export const WRITING_KINDS = ['post', 'essay', 'article', 'talk', 'newsletter', 'interview', 'paper'] as const;

const schema = z.strictObject({
  title: shortText,
  url: httpUrl,
  publishedAt: isoDate,
  summary: z.string().max(2000).optional(),
  tags: names.default([]),
  wordCount: z.number().int().min(0).max(1_000_000).optional(),
  body: longText.optional(),
  /** Where it appeared: a publication's name, or this site's host for blog posts. */
  publication: shortText.optional(),
  kind: z.enum(WRITING_KINDS).optional(),
  ...bookkeeping,
});

/** A blog post as a piece of writing: the same canonicalId, the writing fields in schema order. */
function fromBlog({ canonicalId, origin, fields }: ComposedRecord, host: string): ComposedRecord {
  const mapped: Record<string, unknown> = { ...fields, publication: host, kind: 'post' };
  const out: Record<string, unknown> = { canonicalId };
  for (const key of Object.keys(schema.shape)) if (mapped[key] !== undefined && key !== 'visibility') out[key] = mapped[key];
  out.year = yearOf(mapped.publishedAt);
  return { canonicalId, origin, fields: out };
}

export default define({
  name: 'writing',
  title: 'Writing',
  description: 'Everything the owner has published: posts on this blog and pieces published elsewhere.',
  rest: true,
  schema,
  identity: ['url'],
  bodyField: 'body',
  derive: (r) => ({ year: yearOf(r.publishedAt) }),
  derived: ['year'],
  filters: {
    tag: text('tags', 'Tag (any of the piece’s tags)'),
    year: yearFilter(),
    kind: { field: 'kind', kind: { type: 'enum', values: WRITING_KINDS }, description: 'Kind of piece' },
    publication: text('publication', 'Where it appeared'),
  },
  search: ['title', 'summary'],
  sort: { publishedAt: 'date', title: 'text' },
  defaultSort: [{ field: 'publishedAt', direction: 'desc' }],
  dateField: 'publishedAt',
  compose: ({ records, siteUrl }) => records('blog').map((post) => fromBlog(post, new URL(siteUrl).host)),
});
