/**
 * micropub.rocks' create cases (aaronpk/micropub.rocks database/data.sql: 100, 101, 104,
 * 107 form-encoded; 200–206 JSON; 300–301 multipart) as this site takes them. Its posts
 * are notes; this site keeps collections and refuses a note (400 naming what it takes),
 * so each case's feature — the encoding, repeated categories, a nested object, HTML
 * content, photos by URL or upload, alt text — is sent on a post type it keeps: an event
 * (the one type a flat form can carry whole), a film, a check-in. A posted record is then
 * served by REST, GraphQL, MCP, its page and the feeds (issue 40, item 3).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { LINKS } from '../../src/urls.ts';
import { client, served, sparklesWatch, startOwnerSite, type OwnerSite } from './site.ts';

let site: OwnerSite;
let mp: ReturnType<typeof client>;

before(async () => {
  site = await startOwnerSite('micropub-create-');
  mp = client(site, site.mint(['create']));
});
after(() => site.stop());

const event = (name: string, extra: [string, string][] = []): [string, string][] => [
  ['h', 'event'],
  ['name', name],
  ['start', '2026-10-03T09:30:00+02:00'],
  ['category', 'conference'],
  ['locality', 'Düsseldorf'],
  ['country-name', 'Germany'],
  ...extra,
];

test('100: a form-encoded h-entry note is refused naming the post types taken; a form-encoded h-event is created (201, Location)', async () => {
  const note = await mp.form({ h: 'entry', content: 'Micropub test of creating a basic h-entry' });
  assert.equal(note.status, 400);
  assert.equal(note.body.error, 'invalid_request');
  assert.match(
    String(note.body.error_description),
    /note post has none\. It takes: h-event \(events\), watch-of \(movies\), read-of \(books\), checkin \(places\), listen-of \(music\)/,
  );
  const created = await mp.form(event('IndieWebCamp Düsseldorf'));
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.match(created.location!, /\/events\/itm_[0-9a-f]{24}$/);
  const record = await served(site, created.location!);
  assert.equal(record?.title, 'IndieWebCamp Düsseldorf');
  assert.equal(record?.type, 'conference');
  assert.equal(record?.city, 'Düsseldorf');
  assert.equal(record?.startDate, '2026-10-03T09:30:00+02:00');
});

test('101 and 107: category[] (several values) and category (one): an event’s type is its first category', async () => {
  const several = await mp.form(
    event('Beyond Tellerrand', [])
      .filter(([k]) => k !== 'category')
      .concat([
        ['category[]', 'festival'],
        ['category[]', 'web'],
      ]),
  );
  assert.equal(several.status, 201, JSON.stringify(several.body));
  assert.equal((await served(site, several.location!))?.type, 'festival');
  const one = await mp.form(event('Homebrew Website Club', [['category', 'meetup']]).filter(([k, v]) => k !== 'category' || v === 'meetup'));
  assert.equal(one.status, 201);
  assert.equal((await served(site, one.location!))?.type, 'meetup');
});

test('104: a photo by URL in a form needs alt (mp-photo-alt[]); with it the post is created and the photo named as not kept', async () => {
  const bare = await mp.form(event('Photo camp', [['photo', 'https://micropub.rocks/media/sunset.jpg']]));
  assert.equal(bare.status, 400);
  assert.match(String(bare.body.error_description), /Photo 1 has no alt text/);
  const described = await mp.form(
    event('Photo camp', [
      ['photo', 'https://micropub.rocks/media/sunset.jpg'],
      ['mp-photo-alt[]', 'A sunset over the Rhine'],
    ]),
  );
  assert.equal(described.status, 201);
  assert.deepEqual(described.body.ignored, ['photo']);
});

test('200 and 201: a JSON film post (Sparkles) with two categories: genres', async () => {
  const note = await mp.json({ type: ['h-entry'], properties: { content: ['Micropub test of creating an h-entry with JSON'] } });
  assert.equal(note.status, 400);
  const created = await mp.json(sparklesWatch('Arrival (JSON test)', '2016', { category: ['Drama', 'Science Fiction'] }));
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const record = await served(site, created.location!);
  assert.deepEqual(record?.genres, ['Drama', 'Science Fiction']);
  assert.equal(record?.year, 2016);
  assert.equal(record?.rating, 4.5);
});

test('202: HTML content becomes the review as text, tags dropped (never rendered as markup)', async () => {
  const created = await mp.json(
    sparklesWatch('Paterson (HTML test)', '2016', { content: [{ html: '<p>This post has <b>bold</b> and <i>italic</i> text.</p><script>alert(1)</script>' }] }),
  );
  assert.equal(created.status, 201);
  const record = await served(site, created.location!);
  assert.equal(record?.review, 'This post has bold and italic text.alert(1)');
});

test('203, 205, 206: photos by URL in JSON need alt; one without it refuses the whole post', async () => {
  const bare = await mp.json(sparklesWatch('Photo film', '2001', { photo: ['https://micropub.rocks/media/sunset.jpg'] }));
  assert.equal(bare.status, 400);
  const withAlt = await mp.json(
    sparklesWatch('Photo film', '2001', { photo: [{ value: 'https://micropub.rocks/media/sunset.jpg', alt: 'Photo of a sunset' }] }),
  );
  assert.equal(withAlt.status, 201);
  assert.ok((withAlt.body.ignored as string[]).includes('photo'));
  const mixed = await mp.json(
    sparklesWatch('Photo film two', '2002', {
      photo: [{ value: 'https://micropub.rocks/media/sunset.jpg', alt: 'Sunset' }, 'https://micropub.rocks/media/city-at-night.jpg'],
    }),
  );
  assert.equal(mixed.status, 400);
  assert.match(String(mixed.body.error_description), /Photo 2/);
});

test('204: a nested h-card (a check-in) becomes a place with its coordinates and their source', async () => {
  const created = await mp.json({
    type: ['h-entry'],
    properties: {
      published: ['2026-12-05T19:12:00+01:00'],
      checkin: [
        {
          type: ['h-card'],
          properties: {
            name: ['Café Nested'],
            url: ['https://foursquare.com/v/4b0f6e2af964a520a35c23e3'],
            latitude: [52.5208],
            longitude: [13.4095],
            locality: ['Berlin'],
            'country-name': ['Germany'],
          },
        },
      ],
      category: ['coffee'],
    },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const place = await served(site, created.location!);
  assert.equal(place?.name, 'Café Nested');
  assert.equal(place?.category, 'coffee');
  assert.deepEqual(place?.coordinates, { latitude: 52.5208, longitude: 13.4095 });
  assert.equal(place?.coordinatesSource, 'geocoded:foursquare');
  assert.equal(place?.visitedAt, '2026-12-05');
});

test('300 and 301: multipart with one and two photos: each needs mp-photo-alt[]; the post is kept, the uploads are not', async () => {
  const jpeg = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0])], { type: 'image/jpeg' });
  const form = (alts: string[], photos: number) => {
    const body = new FormData();
    for (const [k, v] of event(`Multipart camp ${photos}`)) body.append(k, v);
    for (let i = 0; i < photos; i++) body.append('photo[]', jpeg, `photo${i}.jpg`);
    for (const alt of alts) body.append('mp-photo-alt[]', alt);
    return body;
  };
  assert.equal((await mp.multipart(form([], 1))).status, 400);
  const one = await mp.multipart(form(['A stage'], 1));
  assert.equal(one.status, 201, JSON.stringify(one.body));
  assert.deepEqual(one.body.ignored, ['photo']);
  assert.equal((await mp.multipart(form(['A stage'], 2))).status, 400);
  assert.equal((await mp.multipart(form(['A stage', 'A crowd'], 2))).status, 201);
});

test('a posted film is served by REST, GraphQL, MCP, its page and the feeds', async () => {
  const title = 'Surfaces of Micropub';
  const created = await mp.json(sparklesWatch(title, '2024', { published: ['2026-12-07T20:15:00+01:00'] }));
  assert.equal(created.status, 201);
  const canonicalId = new URL(created.location!).pathname.split('/')[2]!;
  assert.equal((await served(site, created.location!))?.title, title, 'REST');
  const graphql = (await (
    await fetch(`${site.base}${LINKS.graphql}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: `{ movies(filter: { q: ${JSON.stringify(title)} }) { nodes { canonicalId } } }` }),
    })
  ).json()) as { data: { movies: { nodes: { canonicalId: string }[] } } };
  assert.deepEqual(graphql.data.movies.nodes, [{ canonicalId }], 'GraphQL');
  const mcp = await fetch(`${site.base}${LINKS.mcp}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'taste.find', arguments: { collection: 'movies', q: title } } }),
  });
  assert.ok((await mcp.text()).includes(canonicalId), 'MCP');
  const page = await fetch(created.location!);
  assert.equal(page.status, 200, 'the record page');
  assert.ok((await page.text()).includes(title));
  const feed = (await (await fetch(`${site.base}${LINKS.jsonFeed}`)).json()) as { items: { title?: string }[] };
  assert.ok(
    feed.items.some((item) => item.title?.includes(title)),
    'JSON Feed',
  );
  assert.ok((await (await fetch(`${site.base}${LINKS.atomFeed}`)).text()).includes(title), 'Atom');
});
