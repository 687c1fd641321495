/**
 * A write through `/owner/mcp` is seen on every surface once it is rebuilt and swapped
 * (issue 17, item 7: "REST, GraphQL, SQL, feeds and calendars show the change"). On the
 * built `dist/`, a copy of its content and the process's generations, as
 * tests/owner/owner-mcp.test.ts: `taste.log` of a blog post (composed into `writing`, the
 * one relation the SQL profile publishes, and a source of the site feed) and of a concert (the calendars),
 * and `taste.rate` of a film; then REST, GraphQL, `QUERY /api/sql`, `/feed.json`,
 * `/feed.xml` and the `.ics` calendars are asked, each as a client would.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SOURCES_TABLE } from '../../src/core/image.ts';
import type { Generations } from '../../src/runtime/generations.ts';
import { CALENDARS, collectionUrl, LINKS } from '../../src/urls.ts';
import { ownerRpc } from '../../bench/replica-harness.ts';
import { startOwnerSite, type OwnerSite } from './site.ts';

let site: OwnerSite;
let generations: Generations;
let base: string;
let token: string;

before(async () => {
  site = await startOwnerSite('owner-surfaces-');
  ({ generations, base } = site);
  token = site.mint(['taste:read', 'taste:write']);
});

after(() => site.stop());

interface Written {
  canonicalId: string;
  swapped: boolean;
}

async function call(name: string, args: Record<string, unknown>): Promise<Written> {
  const response = await ownerRpc(base, token, 'tools/call', { name, arguments: args });
  assert.equal(response.status, 200);
  const { result } = (await response.json()) as { result: { isError?: boolean; content: { text: string }[]; structuredContent: Written } };
  assert.equal(result.isError, undefined, result.content[0]?.text);
  assert.equal(result.structuredContent.swapped, true);
  return result.structuredContent;
}

async function text(path: string, init?: RequestInit): Promise<string> {
  const response = await fetch(`${base}${path}`, init);
  const body = await response.text();
  assert.equal(response.status, 200, `${path}: ${body.slice(0, 300)}`);
  return body;
}

const graphql = (query: string) =>
  text(LINKS.graphql, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query }),
  });

test('taste.log of a blog post: REST, GraphQL, QUERY /api/sql (public.writing, which composes the blog), /feed.json and /feed.xml show it', async () => {
  const title = 'Notes from the owner lane';
  const { canonicalId } = await call('taste.log', {
    collection: 'blog',
    fields: {
      title,
      slug: 'notes-from-the-owner-lane',
      publishedAt: '2026-11-22',
      summary: 'Written through /owner/mcp.',
      tags: ['life'],
      body: 'An agent wrote this post through the owner lane.',
    },
    requestId: 'surfaces-blog',
  });
  assert.ok(
    (JSON.parse(await text(`${collectionUrl('blog')}?q=${encodeURIComponent(title)}`)) as { data: { canonicalId: string }[] }).data.some(
      (d) => d.canonicalId === canonicalId,
    ),
    'REST',
  );
  const nodes = (
    JSON.parse(
      await graphql(
        `{ writing(filter: { q: ${JSON.stringify(title)} }) { nodes { title } } blog(filter: { q: ${JSON.stringify(title)} }) { nodes { canonicalId } } }`,
      ),
    ) as { data: { writing: { nodes: { title: string }[] }; blog: { nodes: { canonicalId: string }[] } } }
  ).data;
  assert.deepEqual(nodes.blog.nodes, [{ canonicalId }], 'GraphQL blog');
  assert.deepEqual(nodes.writing.nodes, [{ title }], 'GraphQL writing');
  const sql = await text(LINKS.sql, {
    method: 'QUERY',
    headers: { 'Content-Type': 'application/sql', Accept: 'application/json' },
    body: `SELECT canonical_id, title FROM public.writing WHERE title = '${title}'`,
  });
  assert.ok(sql.includes(title), `SQL: ${sql.slice(0, 300)}`);
  const jsonFeed = JSON.parse(await text(LINKS.jsonFeed)) as { items: { id: string; title?: string }[] };
  assert.ok(
    jsonFeed.items.some((item) => item.title?.includes(title)),
    'JSON Feed',
  );
  assert.ok((await text(LINKS.atomFeed)).includes(title), 'Atom');
});

test('taste.log of a concert: REST and the calendars (/concerts.ics, /calendar.ics) hold its event', async () => {
  const artist = 'The Owner Lane Quartet';
  const { canonicalId } = await call('taste.log', {
    collection: 'concerts',
    fields: {
      artist,
      title: 'Live at the Rebuild',
      date: '2026-12-05T20:00',
      timezone: 'Europe/Berlin',
      venue: 'Festsaal Kreuzberg',
      city: 'Berlin',
      country: 'Germany',
    },
    requestId: 'surfaces-concert',
  });
  assert.ok(
    (JSON.parse(await text(`${collectionUrl('concerts')}?q=${encodeURIComponent(artist)}`)) as { data: { canonicalId: string }[] }).data.some(
      (d) => d.canonicalId === canonicalId,
    ),
    'REST',
  );
  for (const calendar of CALENDARS.filter((c) => c.collections.includes('concerts'))) {
    // Lines are folded at 75 octets (RFC 5545 §3.1): unfold before looking.
    const ics = (await text(calendar.path)).replace(/\r\n[ \t]/g, '');
    assert.match(ics, new RegExp(`SUMMARY:${artist} — Live at the Rebuild`), calendar.path);
  }
});

test('taste.rate of a film: REST and GraphQL serve the new rating', async () => {
  const row = generations.current().image.db.prepare(`SELECT cid FROM ${SOURCES_TABLE} WHERE file = 'movies/arrival.md'`).get() as { cid: string };
  await call('taste.rate', { collection: 'movies', canonicalId: row.cid, rating: 2.5, requestId: 'surfaces-rate' });
  const rest = JSON.parse(await text(`${collectionUrl('movies')}?q=Arrival`)) as { data: { canonicalId: string; rating: number }[] };
  assert.equal(rest.data.find((d) => d.canonicalId === row.cid)?.rating, 2.5, 'REST');
  const nodes = (
    JSON.parse(await graphql('{ movies(filter: { q: "Arrival" }) { nodes { canonicalId rating } } }')) as {
      data: { movies: { nodes: { canonicalId: string; rating: number }[] } };
    }
  ).data.movies.nodes;
  assert.equal(nodes.find((n) => n.canonicalId === row.cid)?.rating, 2.5, 'GraphQL');
});
