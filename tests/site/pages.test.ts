/**
 * The site's collection and record pages against the real built server: a collection
 * page lists the REST list's canonical IDs in the REST list's order (page one, a later
 * page through the cursor, with a filter); a query string is validated as the REST list
 * validates it, with the same problems; every page answers `Accept: text/markdown` with
 * its twin (own strong ETag, `Vary: Accept`, 304), browsers and `*∕*` get HTML; every
 * twin parses with remark and lists the same records as its HTML page.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { mf2 } from 'microformats-parser';
import type { Link, Root } from 'mdast';
import { HtmlValidate } from 'html-validate';
import { LIMITS } from '../../src/core/limits.ts';
import { pageCollections } from '../../src/site/view.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

let server: RunningServer;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const get = (path: string, accept = BROWSER_ACCEPT, headers: Record<string, string> = {}) =>
  fetch(`${server.base}${path}`, { headers: { Accept: accept, ...headers } });

/** The canonical IDs a collection page lists, in order. */
const htmlIds = (html: string) => [...html.matchAll(/data-canonical-id="(itm_[0-9a-f]{24})"/g)].map((m) => m[1]!);

/** The REST list's canonical IDs and next cursor for the same query. */
async function restPage(name: string, search: string): Promise<{ ids: string[]; next: string | undefined }> {
  const res = await fetch(`${server.base}/api/${name}.json${search}`);
  assert.equal(res.status, 200, `/api/${name}.json${search}`);
  const body = (await res.json()) as { data: { canonicalId: string }[]; links: { next?: string } };
  const next = body.links.next === undefined ? undefined : (new URL(body.links.next, server.base).searchParams.get('cursor') ?? undefined);
  return { ids: body.data.map((d) => d.canonicalId), next };
}

/** The records section of a twin: the links listed under `## Records`, in order. */
function twinRecordLinks(markdown: string): string[] {
  const tree: Root = fromMarkdown(markdown);
  const start = tree.children.findIndex((n) => n.type === 'heading' && n.depth === 2 && n.children.some((c) => c.type === 'text' && c.value === 'Records'));
  assert.ok(start >= 0, 'the twin has a Records section');
  const list = tree.children[start + 1];
  if (list?.type !== 'list') return [];
  return list.children.map((item) => {
    const paragraph = item.children[0];
    const link = paragraph?.type === 'paragraph' ? paragraph.children.find((c): c is Link => c.type === 'link') : undefined;
    assert.ok(link, 'each record line starts with its link');
    return link.url;
  });
}

/** The record links of an HTML collection page, in order. */
const htmlRecordLinks = (html: string) =>
  [...html.matchAll(/<li class="h-entry" data-canonical-id="[^"]+"[^>]*>\s*<a class="title u-url p-name" href="([^"]+)"/g)].map((m) =>
    m[1]!.replaceAll('&amp;', '&'),
  );

test('every collection has a page whose items are the REST list’s page one, and a Markdown twin listing the same records', async () => {
  for (const c of pageCollections) {
    const res = await get(`/${c.name}/`);
    assert.equal(res.status, 200, c.name);
    assert.match(res.headers.get('content-type')!, /^text\/html/);
    assert.equal(res.headers.get('vary'), 'Accept');
    const html = await res.text();
    const rest = await restPage(c.name, '');
    assert.deepEqual(htmlIds(html), rest.ids, `${c.name}: same canonical IDs, same order`);
    assert.match(html, new RegExp(`<link rel="alternate" type="text/markdown" href="/${c.name}/index.md"`));
    const twin = await get(`/${c.name}/`, 'text/markdown');
    assert.equal(twin.status, 200);
    assert.equal(twin.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.equal(twin.headers.get('vary'), 'Accept');
    assert.ok(twin.headers.get('content-signal'), 'the twin states the owner’s preferences');
    assert.notEqual(twin.headers.get('etag'), res.headers.get('etag'), 'each representation has its own ETag');
    assert.match(twin.headers.get('etag')!, /^"/, 'strong ETag');
    assert.deepEqual(twinRecordLinks(await twin.text()), htmlRecordLinks(html), `${c.name}: the twin lists the same records`);
  }
});

test('a filtered page and a later page list the REST list’s canonical IDs in the same order', async () => {
  const filtered = await get('/movies/?facets=1');
  assert.equal(filtered.status, 200);
  const facet = (await (await fetch(`${server.base}/api/movies.json?facets=1`)).json()) as { meta: { facets: Record<string, { value: string }[]> } };
  const genre = facet.meta.facets.genre![0]!.value;
  for (const search of [
    `?genre=${encodeURIComponent(genre)}&limit=3`,
    `?genre=${encodeURIComponent(genre)}&sort=year:desc&limit=2`,
    '?sort=title:asc&limit=3',
  ]) {
    const rest = await restPage('movies', search);
    const html = await (await get(`/movies/${search}`)).text();
    assert.deepEqual(htmlIds(html), rest.ids, search);
    assert.ok(rest.next, `${search} has a next page`);
    const nextSearch = `${search}&cursor=${encodeURIComponent(rest.next)}`;
    const later = await restPage('movies', nextSearch);
    const page = await get(`/movies/${nextSearch}`);
    assert.equal(page.status, 200);
    const laterHtml = await page.text();
    assert.deepEqual(htmlIds(laterHtml), later.ids, `${search}: the later page`);
    assert.match(laterHtml, /rel="first"/);
    const twin = await get(`/movies/${nextSearch}`, 'text/markdown');
    assert.equal(twin.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.deepEqual(twinRecordLinks(await twin.text()), htmlRecordLinks(laterHtml));
  }
});

test('the next-page link of a collection page is the REST cursor, and following it gives the REST list’s next page', async () => {
  const html = await (await get('/movies/?limit=2')).text();
  const next = /<a href="([^"]+)" rel="next">/.exec(html)?.[1]?.replaceAll('&amp;', '&');
  assert.ok(next, 'a next link');
  const rest = await restPage('movies', '?limit=2');
  assert.equal(new URL(next, server.base).searchParams.get('cursor'), rest.next);
});

test('a query string is validated as the REST list validates it: the same problems', async () => {
  for (const search of ['?gnere=Drama', '?sort=nope:asc', '?year=abc', '?cursor=garbage', '?genre=a&genre=b']) {
    const page = await get(`/movies/${search}`, 'application/json');
    const rest = await fetch(`${server.base}/api/movies.json${search}`);
    assert.equal(page.status, rest.status, search);
    assert.equal(page.headers.get('content-type'), 'application/problem+json', search);
    const [a, b] = [(await page.json()) as Record<string, unknown>, (await rest.json()) as Record<string, unknown>];
    assert.equal(a.type, b.type, search);
    assert.equal(a.parameter, b.parameter, search);
  }
});

test('negotiation: Markdown only when preferred; q-values honoured; 304 on If-None-Match per representation', async () => {
  const cases: [string, RegExp][] = [
    ['text/markdown', /^text\/markdown/],
    ['*/*', /^text\/html/],
    [BROWSER_ACCEPT, /^text\/html/],
    ['text/html;q=0.5, text/markdown', /^text\/markdown/],
    ['text/markdown;q=0.4, text/html;q=0.9', /^text\/html/],
    ['text/markdown, text/html;q=0', /^text\/markdown/],
  ];
  for (const path of ['/', '/movies/', '/movies/?sort=title:asc']) {
    for (const [accept, type] of cases) {
      const res = await get(path, accept);
      assert.equal(res.status, 200, `${path} ${accept}`);
      assert.match(res.headers.get('content-type')!, type, `${path} ${accept}`);
      assert.equal(res.headers.get('vary'), 'Accept');
      const again = await get(path, accept, { 'If-None-Match': res.headers.get('etag')! });
      assert.equal(again.status, 304, `${path} ${accept}: 304`);
    }
  }
});

test('a record page answers HTML to browsers and its Markdown twin to agents, with every field', async () => {
  const rest = (await (await fetch(`${server.base}/api/movies.json?limit=1`)).json()) as { data: { canonicalId: string; title: string }[] };
  const movie = rest.data[0]!;
  const path = `/movies/${movie.canonicalId}`;
  const html = await get(path);
  assert.equal(html.status, 200);
  assert.match(html.headers.get('content-type')!, /^text\/html/);
  assert.equal(html.headers.get('vary'), 'Accept');
  const page = await html.text();
  assert.ok(page.includes(movie.title.replaceAll('&', '&amp;')));
  assert.match(page, /<link rel="alternate" type="text\/markdown"/);
  const md = await get(path, 'text/markdown');
  assert.equal(md.headers.get('content-type'), 'text/markdown; charset=utf-8');
  const text = await md.text();
  const tree = fromMarkdown(text);
  assert.equal(tree.children[0]?.type, 'heading');
  assert.notEqual(md.headers.get('etag'), html.headers.get('etag'));
  assert.equal((await get(path, 'text/markdown', { 'If-None-Match': md.headers.get('etag')! })).status, 304);
  assert.equal((await get('/movies/itm_000000000000000000000000')).status, 404);
});

test('llms.txt, robots.txt (with Content-Signal) and the sitemap are served', async () => {
  const llms = await (await get('/llms.txt', '*/*')).text();
  assert.match(llms, /^# /);
  for (const c of pageCollections) assert.ok(llms.includes(`/${c.name}/index.md`), c.name);
  const robots = await (await get('/robots.txt', '*/*')).text();
  assert.match(robots, /^Content-Signal: search=yes,ai-input=yes,ai-train=no$/m);
  const index = await (await get('/sitemap.xml', '*/*')).text();
  assert.match(index, /<sitemapindex xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/);
  const files = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  assert.deepEqual(files, ['/sitemap-pages.xml', '/sitemap-records-1.xml']);
  const pages = await (await get(files[0]!, '*/*')).text();
  assert.ok(pages.includes('/movies/</loc>'));
  const records = await (await get(files[1]!, '*/*')).text();
  const movie = ((await (await fetch(`${server.base}/api/movies.json?limit=1`)).json()) as { data: { canonicalId: string }[] }).data[0]!;
  assert.ok(records.includes(`/movies/${movie.canonicalId}</loc>`));
});

test('the search page lists the search list’s hits in its order, validates as it does, and has a twin', async () => {
  for (const search of ['?q=the', '?q=the&limit=5', '?q=jazz&collection=concerts']) {
    const api = (await (await fetch(`${server.base}/api/search.json${search}`)).json()) as { data: { canonicalId: string }[]; links: { next?: string } };
    const page = await get(`/search/${search}`);
    assert.equal(page.status, 200, search);
    const html = await page.text();
    assert.deepEqual(
      htmlIds(html),
      api.data.map((d) => d.canonicalId),
      search,
    );
    const twin = await get(`/search/${search}`, 'text/markdown');
    assert.equal(twin.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.equal(twinRecordLinks(await twin.text()).length, api.data.length);
  }
  for (const search of ['?q=', '?nope=1', '?q=a&cursor=x']) {
    const [page, api] = await Promise.all([get(`/search/${search}`, 'application/json'), fetch(`${server.base}/api/search.json${search}`)]);
    assert.equal(page.status, api.status, search);
    assert.equal(((await page.json()) as { type: string }).type, ((await api.json()) as { type: string }).type, search);
  }
  const form = await get('/search/');
  assert.match(await form.text(), /<form action="\/search\/" method="get" role="search"/);
});

test('a browser asking for a missing page gets a humane 404 page; programs still get the problem', async () => {
  for (const path of ['/nothing-here', '/movies/itm_000000000000000000000000', '/api/nope.json']) {
    const browser = await get(path);
    assert.equal(browser.status, 404, path);
    assert.match(browser.headers.get('content-type')!, /^text\/html/, path);
    assert.match(await browser.text(), /<h1>Nothing here<\/h1>/);
    for (const accept of ['*/*', 'application/json', '']) {
      const program = await get(path, accept);
      assert.equal(program.status, 404);
      assert.equal(program.headers.get('content-type'), 'application/problem+json', `${path} ${accept}`);
    }
  }
});

const EXPECTED_TYPES: Record<string, RegExp> = {
  movies: /^(Movie|TVSeries)$/,
  books: /^Book$/,
  places: /^Place$/,
  concerts: /^MusicEvent$/,
  'sporting-events': /^SportsEvent$/,
  events: /^Event$/,
  music: /^(MusicGroup|MusicAlbum|MusicRecording)$/,
  videos: /^VideoObject$/,
  podcasts: /^PodcastEpisode$/,
  tweets: /^SocialMediaPosting$/,
  code: /^SoftwareSourceCode$/,
  photos: /^Photograph$/,
  work: /^OrganizationRole$/,
  reading: /^Article$/,
  activities: /^ExerciseAction$/,
};

test('record pages carry schema.org JSON-LD of their type and an h-entry; lists are h-feeds; the home page has an h-card (microformats-parser)', async () => {
  for (const [name, type] of Object.entries(EXPECTED_TYPES)) {
    const first = ((await (await fetch(`${server.base}/api/${name}.json?limit=1`)).json()) as { data: { canonicalId: string }[] }).data[0]!;
    const url = `${server.base}/${name}/${first.canonicalId}`;
    const html = await (await get(`/${name}/${first.canonicalId}`)).text();
    const block = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1];
    assert.ok(block, `${name}: a JSON-LD block`);
    const doc = JSON.parse(block) as Record<string, unknown>;
    assert.equal(doc['@context'], 'https://schema.org');
    assert.match(String(doc['@type']), type, name);
    assert.equal(doc.identifier, first.canonicalId);
    const mf = mf2(html, { baseUrl: url });
    const entry = mf.items.find((i) => i.type?.includes('h-entry') || i.type?.includes('h-event'));
    assert.ok(entry, `${name}: an h-entry or h-event`);
    assert.equal(String(entry.properties.url?.[0]).replace(/^http:\/\/[^/]+/, ''), `/${name}/${first.canonicalId}`);
  }
  const movies = await (await get('/movies/')).text();
  const feed = mf2(movies, { baseUrl: server.base }).items.find((i) => i.type?.includes('h-feed'));
  assert.ok(feed, 'the collection page is an h-feed');
  assert.equal(feed.children?.length, htmlIds(movies).length);
  const home = mf2(await (await get('/')).text(), { baseUrl: server.base });
  const card = home.items.find((i) => i.type?.includes('h-card'));
  assert.ok(card?.properties.name?.[0], 'the home page names its owner in an h-card');
});

test('every prerendered page has its Markdown twin beside it, links it, and answers Accept: text/markdown with it', async () => {
  const manifest = JSON.parse(readFileSync(new URL('../../dist/headers.json', import.meta.url), 'utf8')) as Record<string, { headers: Record<string, string> }>;
  const pages = Object.keys(manifest).filter((p) => p.endsWith('/') && manifest[p]!.headers['Content-Type']!.startsWith('text/html'));
  assert.ok(pages.includes('/problems/') && pages.includes('/graphql/') && pages.some((p) => /^\/problems\/[a-z-]+\/$/.test(p)));
  assert.deepEqual(
    pages.filter((p) => !Object.hasOwn(manifest, `${p}index.md`)),
    [],
  );
  for (const page of pages) {
    const html = await (await get(page)).text();
    assert.ok(html.includes(`<link rel="alternate" type="text/markdown" href="${page}index.md"`), `${page} links its twin`);
    const res = await get(page, 'text/markdown');
    assert.equal(res.headers.get('content-type'), 'text/markdown; charset=utf-8', page);
    assert.equal(fromMarkdown(await res.text()).children[0]?.type, 'heading', page);
  }
});

test('the problem registry and each problem type: JSON by default, HTML for browsers, Markdown for agents; the GraphQL endpoint gives agents the explorer’s twin', async () => {
  for (const path of ['/problems/', '/problems/invalid-cursor']) {
    for (const [accept, type] of [
      ['*/*', /^application\/json/],
      ['', /^application\/json/],
      [BROWSER_ACCEPT, /^text\/html/],
      ['text/markdown', /^text\/markdown/],
    ] as const) {
      const res = await get(path, accept);
      assert.equal(res.status, 200, `${path} ${accept}`);
      assert.match(res.headers.get('content-type')!, type, `${path} ${accept}`);
      assert.equal(res.headers.get('vary'), 'Accept');
    }
  }
  const twin = await (await get('/problems/', 'text/markdown')).text();
  const index = (await (await get('/problems/', 'application/json')).json()) as { problems: { slug: string }[] };
  const listed = fromMarkdown(twin).children.find((n) => n.type === 'list');
  assert.equal(listed?.type === 'list' ? listed.children.length : 0, index.problems.length, 'the twin lists every problem type');
  const graphql = await get('/graphql', 'text/markdown');
  assert.equal(graphql.headers.get('content-type'), 'text/markdown; charset=utf-8');
  const text = await graphql.text();
  assert.match(text, /^# GraphQL/);
  assert.match(text, /- `movies\(/, 'the twin lists the root fields');
  assert.match((await get('/graphql', BROWSER_ACCEPT)).headers.get('content-type')!, /^text\/html/);
  assert.match((await get('/graphql?query=%7B__typename%7D', 'application/json')).headers.get('content-type')!, /^application\/json/);
});

test('query values shown on a page are escaped, never reflected as markup', async () => {
  const markup = '<script>alert(1)</script><b onmouseover=x>';
  for (const path of [
    `/search/?q=${encodeURIComponent(markup)}`,
    `/movies/?genre=${encodeURIComponent(markup)}`,
    `/movies/?director=${encodeURIComponent('"><img src=x onerror=alert(1)>')}`,
  ]) {
    const res = await get(path);
    assert.equal(res.status, 200, path);
    // Inside a quoted attribute value only a quote would matter: with every value taken out, no markup of the payload may be left.
    const outsideAttributes = (await res.text()).replace(/="[^"]*"/g, '=""');
    assert.doesNotMatch(outsideAttributes, /<script>alert|<b onmouseover|<img src=x/, path);
    assert.match(outsideAttributes, /&lt;(script|img)/, path);
  }
});

test('photos and flyers with a published file are drawn from sized WebP variants with the record’s alt; one without a file draws nothing; the twin shows the image', async () => {
  const photos = ((await (await fetch(`${server.base}/api/photos.json?limit=100`)).json()) as { data: { canonicalId: string; src: string; alt: string }[] })
    .data;
  const drawn = photos.filter((p) => existsSync(new URL(`../../content/media${p.src}`, import.meta.url)));
  const missing = photos.filter((p) => !drawn.includes(p));
  assert.ok(drawn.length > 0 && missing.length > 0, 'the demo has photos with and without a file');
  const escape = (text: string) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
  for (const photo of drawn) {
    const html = await (await get(`/photos/${photo.canonicalId}`)).text();
    const img = /<figure class="picture"><img ([^>]+)>/.exec(html)?.[1];
    assert.ok(img, `${photo.src}: drawn`);
    assert.ok(img.includes(`alt="${escape(photo.alt)}"`), 'the record’s alt');
    for (const attribute of [/ width="\d+"/, / height="\d+"/, / loading="lazy"/, / decoding="async"/, / sizes="[^"]+"/]) assert.match(img, attribute);
    const srcset = /srcset="([^"]+)"/
      .exec(img)![1]!
      .split(', ')
      .map((c) => c.split(' ')[0]!);
    for (const variant of srcset) {
      const res = await get(variant, 'image/webp,*/*');
      assert.equal(res.status, 200, variant);
      assert.equal(res.headers.get('content-type'), 'image/webp');
      assert.match(res.headers.get('cache-control')!, /immutable/);
    }
    assert.equal((await get(photo.src, '*/*')).status, 200, 'the src the API answers resolves');
    const twin = await (await get(`/photos/${photo.canonicalId}`, 'text/markdown')).text();
    const image = fromMarkdown(twin)
      .children.flatMap((n) => (n.type === 'paragraph' ? n.children : []))
      .find((c) => c.type === 'image');
    assert.equal(image?.alt, photo.alt, 'the twin shows the image with its alt');
    assert.ok(srcset.includes(image.url));
  }
  const html = await (await get(`/photos/${missing[0]!.canonicalId}`)).text();
  assert.doesNotMatch(html, /<img /, 'a photo whose file is missing draws nothing');
  const list = await (await get('/photos/')).text();
  assert.equal(
    [...list.matchAll(/<img class="u-photo" [^>]*loading="lazy" decoding="async"/g)].length,
    drawn.length,
    'the collection page shows each drawn photo, lazily',
  );
  const concerts = (
    (await (await fetch(`${server.base}/api/concerts.json?limit=100`)).json()) as { data: { canonicalId: string; flyer?: string; artist: string }[] }
  ).data;
  const flyer = concerts.find((c) => c.flyer && existsSync(new URL(`../../content/media${c.flyer}`, import.meta.url)))!;
  assert.match(await (await get(`/concerts/${flyer.canonicalId}`)).text(), new RegExp(`<img class="u-photo" [^>]*alt="Flyer for ${flyer.artist}`));
});

test(`every collection page weighs at most ${LIMITS.collectionPageBytesMax} bytes as sent, images aside`, async () => {
  for (const c of pageCollections) {
    for (const search of ['', `?limit=${LIMITS.pageSizeMax}`]) {
      const body = await (await get(`/${c.name}/${search}`)).arrayBuffer();
      assert.ok(body.byteLength <= LIMITS.collectionPageBytesMax, `/${c.name}/${search}: ${body.byteLength} bytes`);
    }
  }
});

test('the API reference shows every operation of the OpenAPI document on its tag’s page, with its responses and problem types, without a script; each page has its twin', async () => {
  const doc = (await (await get('/openapi.json', 'application/json')).json()) as {
    paths: Record<string, Record<string, { operationId?: string; tags?: string[]; responses?: Record<string, unknown> }>>;
  };
  const api = await (await get('/api/')).text();
  assert.match(api, /<a href="\/api\/reference\/">API reference<\/a>/, 'the API page links the reference');
  const index = await (await get('/api/reference/')).text();
  const pages = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (typeof op !== 'object' || op === null || op.operationId === undefined) continue;
      const tag = op.tags![0]!;
      if (!pages.has(tag)) {
        const res = await get(`/api/reference/${tag}/`);
        assert.equal(res.status, 200, tag);
        pages.set(tag, await res.text());
      }
      const html = pages.get(tag)!;
      const section = new RegExp(`<section class="operation" id="${op.operationId}"[^>]*>([\\s\\S]*?)</section>`).exec(html)?.[1];
      assert.ok(section, `${method} ${path}: ${op.operationId} is on /api/reference/${tag}/`);
      assert.ok(section.includes(path.replaceAll('&', '&amp;')), `${op.operationId}: its path`);
      for (const status of Object.keys(op.responses ?? {})) assert.match(section, new RegExp(`<td>${status}</td>`), `${op.operationId}: response ${status}`);
      if (Object.keys(op.responses ?? {}).includes('400'))
        assert.match(section, /<a href="\/problems\/invalid-query">invalid-query<\/a>/, `${op.operationId}: the problem types of 400`);
      assert.ok(index.includes(`href="/api/reference/${tag}/#${op.operationId}"`), `${op.operationId} is listed on the front page`);
    }
  }
  for (const [tag, html] of [['', index], ...pages] as [string, string][]) {
    assert.doesNotMatch(html, /<script(?! type="application\/ld\+json")/, `/api/reference/${tag}: no script`);
    const twin = await get(`/api/reference/${tag ? `${tag}/` : ''}`, 'text/markdown');
    assert.equal(twin.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.equal(fromMarkdown(await twin.text()).children[0]?.type, 'heading');
  }
});

const validator = new HtmlValidate({ extends: ['html-validate:recommended'], rules: { 'no-inline-style': 'error', 'long-title': 'off' } });

/** The markup's html-validate errors, as lines. */
async function markupErrors(html: string): Promise<string[]> {
  const report = await validator.validateString(html);
  return report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId} ${m.line}:${m.column} ${m.message}`));
}

/** Every link target of a Markdown text, read by remark's parser. */
function markdownLinks(text: string): string[] {
  const links: string[] = [];
  const walk = (node: { type: string; url?: string; children?: unknown[] }) => {
    if (node.type === 'link') links.push(node.url!);
    for (const child of (node.children ?? []) as (typeof node)[]) walk(child);
  };
  walk(fromMarkdown(text) as unknown as { type: string; children: unknown[] });
  return links;
}

test('every page route answers a client error as a page to people (HTML, valid markup, the parameter, a way back), Markdown to agents, the problem to programs', async () => {
  const long = 'a'.repeat(LIMITS.queryStringBytesMax + 10);
  const cases: { path: string; method?: string; status: number; says: RegExp; back: string }[] = [
    { path: '/movies/?year=abc', status: 400, says: /year must be an integer from 1000 to 9999/, back: '/movies/' },
    { path: '/movies/?gnere=Drama', status: 400, says: /gnere/, back: '/movies/' },
    { path: '/search/?q=jazz&limit=abc', status: 400, says: /limit must be a number/, back: '/search/' },
    { path: '/movies/itm_000000000000000000000000', status: 404, says: /No published record has this identifier/, back: '/movies/' },
    { path: '/movies/', method: 'POST', status: 405, says: /GET, HEAD/, back: '/movies/' },
    { path: '/subscribe/', method: 'DELETE', status: 405, says: /GET, HEAD/, back: '/' },
    { path: `/places/?q=${long}`, status: 414, says: new RegExp(`longer than ${LIMITS.queryStringBytesMax} bytes`), back: '/places/' },
    {
      path: `/places/?q=${'a'.repeat(LIMITS.requestTargetBytesMax)}`,
      status: 414,
      says: new RegExp(`longer than ${LIMITS.requestTargetBytesMax} bytes`),
      back: '/',
    },
  ];
  for (const { path, method = 'GET', status, says, back } of cases) {
    const name = `${method} ${path.slice(0, 40)}`;
    for (const accept of ['text/html', BROWSER_ACCEPT]) {
      const page = await fetch(`${server.base}${path}`, { method, headers: { Accept: accept } });
      assert.equal(page.status, status, `${name} (${accept})`);
      assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8', name);
      assert.equal(page.headers.get('vary'), 'Accept', name);
      if (status === 405) assert.equal(page.headers.get('allow'), 'GET, HEAD', name);
      const html = await page.text();
      assert.match(html, says, name);
      assert.match(html, new RegExp(`<a href="${back}">`), `${name}: a way back`);
      if (status === 400) assert.match(html, /The parameter at fault is <code>/, name);
      assert.deepEqual(await markupErrors(html), [], name);
    }
    const twin = await fetch(`${server.base}${path}`, { method, headers: { Accept: 'text/markdown' } });
    assert.equal(twin.status, status, name);
    assert.equal(twin.headers.get('content-type'), 'text/markdown; charset=utf-8', name);
    const markdown = await twin.text();
    assert.match(markdown, says, name);
    assert.ok(markdownLinks(markdown).includes(back), `${name}: the twin leads back to ${back}`);
    for (const accept of ['application/json', '*/*', 'application/problem+json']) {
      const program = await fetch(`${server.base}${path}`, { method, headers: { Accept: accept } });
      assert.equal(program.status, status, `${name} (${accept})`);
      assert.equal(program.headers.get('content-type'), 'application/problem+json', `${name} (${accept})`);
      assert.match(((await program.json()) as { detail: string }).detail, says, name);
    }
  }
  // API surfaces keep their problems, whoever asks.
  const api = await get('/api/movies.json?year=abc', 'text/html');
  assert.equal(api.headers.get('content-type'), 'application/problem+json');
});

test('the not-found page has a Markdown twin: an agent asking for a missing page gets Markdown with status 404', async () => {
  for (const path of ['/nothing-here', '/api/nope.json']) {
    const twin = await get(path, 'text/markdown');
    assert.equal(twin.status, 404, path);
    assert.equal(twin.headers.get('content-type'), 'text/markdown; charset=utf-8', path);
    const text = await twin.text();
    assert.match(text, /^# Nothing here/, path);
    assert.ok(markdownLinks(text).includes('/'), path);
  }
});

test('a page refused for quota is a page with the same 429, Retry-After and RateLimit fields', async () => {
  const limited = await startServer({ RATE_LIMIT_REQUESTS: '1' });
  try {
    const first = await fetch(`${limited.base}/movies/?type=movie`, { headers: { Accept: BROWSER_ACCEPT } });
    assert.equal(first.status, 200);
    await first.body?.cancel();
    for (const [accept, type] of [
      [BROWSER_ACCEPT, 'text/html; charset=utf-8'],
      ['text/markdown', 'text/markdown; charset=utf-8'],
      ['application/json', 'application/problem+json'],
    ] as const) {
      const refused = await fetch(`${limited.base}/movies/?type=tv`, { headers: { Accept: accept } });
      assert.equal(refused.status, 429, accept);
      assert.equal(refused.headers.get('content-type'), type, accept);
      assert.match(refused.headers.get('retry-after')!, /^\d+$/, accept);
      assert.match(refused.headers.get('ratelimit')!, /^"collections";r=0;t=\d+$/, accept);
      const body = await refused.text();
      if (type.startsWith('text/html')) {
        assert.match(body, /Try again in \d+ seconds/);
        assert.deepEqual(await markupErrors(body), []);
      }
    }
  } finally {
    await limited.stop();
  }
});
