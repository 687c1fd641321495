/**
 * The site in a real browser (Chromium from npm, see ../helpers/browser.ts) against the
 * real built server: a person walks home → a collection → a filter link → a page size →
 * the next page → a record, and an agent reads that record's Markdown twin; nothing
 * leaves the site; axe-core finds no accessibility violations on each page type;
 * html-validate finds no errors in their markup; JSON-LD parses; the layout holds at
 * 360 px. Screenshots for the README are written to docs/screenshots/.
 *
 * @slow: a browser runs axe-core over every page type in both schemes (scripts/test.ts starts it first, in a process of its own).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import axe from 'axe-core';
import { HtmlValidate } from 'html-validate';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

const SCREENSHOTS = new URL('../../docs/screenshots/', import.meta.url);
let server: RunningServer;
let browser: Browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** A browser context whose requests to any other host are aborted and recorded. */
async function guarded(viewport = { width: 1280, height: 900 }): Promise<{ context: BrowserContext; page: Page; external: string[]; errors: string[] }> {
  const context = await browser.newContext({ viewport });
  const external: string[] = [];
  const errors: string[] = [];
  const local = new URL(server.base).host;
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.host === local || url.protocol === 'data:') return route.continue();
    external.push(url.href);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, external, errors };
}

/** The axe-core rules whose verdict depends on the colours a scheme paints (axe-core's rule descriptions). */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * axe-core in every page the context loads from now on. Not `@axe-core/playwright`: each of
 * its runs sends axe-core's 0.5 MB source into the page again and opens a blank page to
 * merge the results in, which took most of this file's CPU; the merging is for
 * cross-origin frames, which no page here has.
 */
const withAxe = (context: BrowserContext) => context.addInitScript({ content: axe.source });

/**
 * axe-core's violations on the page, as `rule: targets`; `rules` runs only those. Passes and
 * incomplete results go unreported (`resultTypes`), as nothing reads them: every rule still runs.
 */
async function violations(page: Page, rules?: string[]): Promise<string[]> {
  const options: axe.RunOptions = { resultTypes: ['violations'], ...(rules && { runOnly: { type: 'rule', values: rules } }) };
  const results = await page.evaluate((options) => (window as unknown as { axe: typeof axe }).axe.run(document, options), options);
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const shot = (page: Page, name: string) => page.screenshot({ path: new URL(`${name}.png`, SCREENSHOTS).pathname, fullPage: false });

test('a person walks home → collection → filter → page size → next page → record, and an agent reads the twin', { timeout: 300_000 }, async () => {
  const { context, page, external, errors } = await guarded();
  await page.goto(`${server.base}/`);
  await shot(page, 'home');
  assert.match(await page.locator('h1').innerText(), /collections/);
  await page.locator('.card h3 a', { hasText: 'Movies & TV' }).click();
  await page.waitForURL(`${server.base}/movies/`);
  await shot(page, 'collection');
  assert.equal(await page.locator('h1').innerText(), 'Movies & TV');

  await page
    .locator('.filters a.chip', { hasText: /^movie\b/ })
    .first()
    .click();
  await page.waitForURL(/\/movies\/\?type=movie$/);
  assert.equal(await page.locator('.applied a').count(), 1);
  const total = Number((await page.locator('.filters a[aria-current="true"] .count-badge').first().innerText()).trim());

  await page.locator('.filters a.chip', { hasText: /^10$/ }).click();
  await page.waitForURL(/limit=10/);
  const first = await page.locator('li.h-entry').evaluateAll((items) => items.map((li) => li.getAttribute('data-canonical-id')));
  assert.equal(first.length, Math.min(10, total));

  await page.locator('a[rel="next"]').click();
  await page.waitForURL(/cursor=/);
  const second = await page.locator('li.h-entry').evaluateAll((items) => items.map((li) => li.getAttribute('data-canonical-id')));
  assert.ok(second.length > 0 && second.every((id) => !first.includes(id)), 'the next page shows other records');
  // The same page as the REST list's, through the same cursor.
  const rest = (await (await fetch(`${server.base}/api/movies.json${new URL(page.url()).search}`)).json()) as { data: { canonicalId: string }[] };
  assert.deepEqual(
    second,
    rest.data.map((d) => d.canonicalId),
  );

  await page.locator('li.h-entry a.title').first().click();
  await page.waitForURL(/\/movies\/itm_[0-9a-f]{24}$/);
  await shot(page, 'record');
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!) as Record<string, unknown>;
  assert.match(String(jsonLd['@type']), /^(Movie|TVSeries)$/);
  assert.equal(jsonLd['@context'], 'https://schema.org');
  const twinHref = await page.locator('link[rel="alternate"][type="text/markdown"]').getAttribute('href');
  const twin = await page.request.get(new URL(twinHref!, server.base).href, { headers: { Accept: 'text/markdown' } });
  assert.equal(twin.headers()['content-type'], 'text/markdown; charset=utf-8');
  assert.match(await twin.text(), new RegExp(`^# ${(await page.locator('h1').innerText()).replace(/[.*+?^${}()|[\]\\]/g, '.')}`));

  assert.deepEqual(external, [], `requests left the site: ${external.join(', ')}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the layout holds at 360 px: no horizontal scrolling, navigation visible', { timeout: 60_000 }, async () => {
  const { context, page } = await guarded({ width: 360, height: 780 });
  for (const path of ['/', '/movies/', '/places/?facets=1']) {
    await page.goto(`${server.base}${path}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `${path} scrolls sideways by ${overflow}px`);
    assert.ok(await page.locator('.site-header nav').isVisible());
  }
  await page.goto(`${server.base}/movies/`);
  await shot(page, 'collection-mobile');
  await context.close();
});

test('axe-core finds no violations and html-validate no errors on every page type', { timeout: 600_000 }, async () => {
  const movie = ((await (await fetch(`${server.base}/api/movies.json?limit=1`)).json()) as { data: { canonicalId: string }[] }).data[0]!.canonicalId;
  const place = ((await (await fetch(`${server.base}/api/places.json?limit=1`)).json()) as { data: { canonicalId: string }[] }).data[0]!.canonicalId;
  const post = ((await (await fetch(`${server.base}/api/blog.json?limit=1`)).json()) as { data: { slug: string }[] }).data[0]!.slug;
  const pages = [
    '/',
    '/movies/',
    '/movies/?type=movie&limit=10',
    '/map/',
    '/search/',
    '/search/?q=jazz',
    `/movies/${movie}`,
    `/places/${place}`,
    '/blog/',
    `/blog/${post}/`,
    '/api/',
    '/subscribe/',
    '/api/reference/',
    '/api/reference/music/',
    '/problems/',
    '/problems/invalid-cursor',
  ];
  const validator = new HtmlValidate({ extends: ['html-validate:recommended'], rules: { 'no-inline-style': 'error', 'long-title': 'off' } });
  for (const scheme of ['light', 'dark'] as const) {
    const { context, page } = await guarded();
    await withAxe(context);
    await page.emulateMedia({ colorScheme: scheme });
    for (const path of pages) {
      await page.goto(`${server.base}${path}`);
      // The dark scheme changes only colours: its pass runs the rules that read them, every rule ran in the light one.
      assert.deepEqual(await violations(page, scheme === 'light' ? undefined : COLOUR_RULES), [], `${path} (${scheme})`);
    }
    await context.close();
  }
  for (const path of pages) {
    const html = await (await fetch(`${server.base}${path}`, { headers: { Accept: 'text/html' } })).text();
    const report = await validator.validateString(html);
    const messages = report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId} ${m.line}:${m.column} ${m.message}`));
    assert.ok(report.valid, `${path}:\n${messages.join('\n')}`);
  }
});

test(
  'Chromium following a bad link to a page gets an HTML page of the same status that axe-core finds no violation in, and can go back',
  { timeout: 60_000 },
  async () => {
    const { context, page } = await guarded();
    await withAxe(context);
    const response = await page.goto(`${server.base}/movies/?year=abc`);
    assert.equal(response?.status(), 400);
    assert.match((await response!.headerValue('content-type')) ?? '', /^text\/html/);
    assert.match((await page.locator('main').textContent()) ?? '', /year must be an integer/);
    assert.deepEqual(await violations(page), []);
    await page.locator('main a', { hasText: 'All of Movies' }).click();
    await page.waitForURL(`${server.base}/movies/`);
    await context.close();
  },
);

test(
  'the API page leads to the reference, whose tag pages show each operation; a photo page draws its image; nothing leaves the site',
  { timeout: 60_000 },
  async () => {
    const { context, page, external, errors } = await guarded();
    await page.goto(`${server.base}/api/`);
    await page.locator('main a', { hasText: 'API reference' }).click();
    await page.waitForURL(`${server.base}/api/reference/`);
    await page.locator('.card h3 a', { hasText: 'Movies & TV' }).click();
    await page.waitForURL(`${server.base}/api/reference/movies/`);
    await page.locator('nav[aria-label="Operations"] a').first().click();
    await page.waitForURL(/#listMovies$/);
    await shot(page, 'reference');
    assert.ok((await page.locator('#listMovies table.reference').count()) >= 2, 'parameters and responses');
    const photo = ((await (await fetch(`${server.base}/api/photos.json?q=lighthouse`)).json()) as { data: { canonicalId: string }[] }).data[0]!.canonicalId;
    await page.goto(`${server.base}/photos/${photo}`);
    const img = page.locator('figure.picture img');
    await img.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => (document.querySelector('figure.picture img') as HTMLImageElement | null)?.complete === true);
    assert.ok(await img.evaluate((i: HTMLImageElement) => i.naturalWidth > 0 && i.currentSrc.endsWith('.webp')), 'the photo is drawn from a WebP variant');
    await shot(page, 'photo');
    assert.deepEqual(external, []);
    assert.deepEqual(errors, []);
    await context.close();
  },
);

test('the map draws the land and links every located record; the search form finds records; nothing leaves the site', { timeout: 60_000 }, async () => {
  const { context, page, external, errors } = await guarded();
  await page.goto(`${server.base}/`);
  await page.locator('.site-header a', { hasText: 'Map' }).click();
  await page.waitForURL(`${server.base}/map/`);
  await shot(page, 'map');
  const places = ((await (await fetch(`${server.base}/api/places.json?limit=100`)).json()) as { data: { canonicalId: string; coordinates?: unknown }[] }).data;
  const located = places.filter((p) => p.coordinates).map((p) => `/places/${p.canonicalId}`);
  const links = await page.locator('svg a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  for (const href of located) assert.ok(links.includes(href), `${href} is on the map`);
  assert.ok((await page.locator('svg path.land').getAttribute('d'))!.length > 1000, 'the land is drawn');
  // Points in one city overlap; a keyboard reaches each of them.
  await page.locator('svg a').first().focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/(places|concerts|photos)\/itm_[0-9a-f]{24}$/);

  await page.locator('.site-header a', { hasText: 'Search' }).click();
  await page.locator('input[name="q"]').fill('jazz');
  await page.locator('form[role="search"] button').click();
  await page.waitForURL(/\/search\/\?q=jazz$/);
  const hits = await page.locator('li.h-entry').count();
  const api = (await (await fetch(`${server.base}/api/search.json?q=jazz`)).json()) as { data: unknown[] };
  assert.equal(hits, api.data.length);
  assert.deepEqual(external, []);
  assert.deepEqual(errors, []);
  await context.close();
});
