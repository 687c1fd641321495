/**
 * Feed items: one reverse-chronological stream of what happened across the content
 * collections — a film watched, a run, a concert, a post, a book finished — one item
 * per record that has such a date (see `HAPPENED`). A collection like the others to
 * every surface; its records are composed at compile time from the others' published
 * records and keep their canonicalIds, so an item leads back to its record.
 */
import { z } from 'zod';
import { define, oneOf, since, type CollectionDeclaration, type ComposedRecord } from './define.ts';
import { httpUrl, isoDateOrDateTime, yearOf } from './fields.ts';
import { HAPPENED, headline, linkOf } from './headline.ts';

export function feedItems(sources: readonly CollectionDeclaration[]): CollectionDeclaration {
  const names = sources.map((c) => c.name);
  for (const name of names) if (!HAPPENED[name]) throw new Error(`feed-items: ${name} has no entry in HAPPENED (src/collections/headline.ts)`);
  return define({
    name: 'feed-items',
    title: 'Feed',
    description: 'What happened across the collections, newest first: films watched, runs, concerts, posts, books finished…',
    rest: true,
    schema: z.strictObject({
      collection: z.enum(names as [string, ...string[]]),
      title: z.string().min(1).max(300),
      date: isoDateOrDateTime,
      url: httpUrl,
    }),
    identity: ['collection', 'canonicalId'],
    bodyField: 'title',
    derive: (r) => ({ year: yearOf(r.date) }),
    derived: ['year'],
    filters: {
      collection: { ...oneOf('collection', names, 'Collection the item comes from (repeat the parameter for several)'), repeatable: true },
      since: since('date', 'Only items on or after this RFC 3339 date or date-time'),
    },
    search: ['title'],
    sort: { date: 'date' },
    defaultSort: [{ field: 'date', direction: 'desc' }],
    dateField: 'date',
    compose: ({ records, siteUrl }) => {
      const items: ComposedRecord[] = [];
      for (const name of names) {
        for (const { canonicalId, origin, fields } of records(name)) {
          const date = HAPPENED[name]!(fields);
          if (date === undefined) continue;
          const item = { canonicalId, collection: name, title: headline(name, fields), date, url: linkOf(name, fields, siteUrl), year: yearOf(date) };
          items.push({ canonicalId, origin, fields: item });
        }
      }
      return items;
    },
  });
}
