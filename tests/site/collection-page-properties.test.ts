/**
 * The collection page's fast paths, as properties (issue 42): for any query a page may be
 * asked (filters with real and hostile values, search, sort, size, a cursor, on every
 * collection with a page), the page the runtime places in its frame
 * (src/site/collection-page.ts) is byte for byte the page Astro renders whole for the same
 * view; a page asked again and again of a remembering runtime, replayed by its words
 * (`pageReplay`), leaves with exactly the status, headers (in order) and bytes of a
 * runtime that remembers nothing, for HTML and Markdown, GET and HEAD, with and without a
 * validator; and the list rows' title and detail line are those of the plain definitions
 * they replace.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from '../helpers/fc.ts';
import { collectionPageAnswer, pageReplay } from '../../functions/pages.ts';
import { facetable } from '../../src/collections/define.ts';
import { headline } from '../../src/collections/headline.ts';
import { RERENDER_ROUTE } from '../../src/compile/incremental/pages.ts';
import { canonicalSearch, parseQuery } from '../../src/core/params.ts';
import type { Answer, RequestFacts } from '../../src/http/answer.ts';
import { secured } from '../../src/http/security.ts';
import { paths } from '../../src/paths.ts';
import { ServingRuntime } from '../../src/runtime/serving.ts';
import { renderPage } from '../../src/site/render-page.ts';
import { collectionView, firstPageView, itemView, pageCollections } from '../../src/site/view.ts';

const QUOTA = 1_000_000;
let full: ServingRuntime;
let remembering: ServingRuntime;
before(async () => {
  full = await ServingRuntime.open({ distDir: paths.dist, pageCacheBytes: 0, restQuota: QUOTA });
  remembering = await ServingRuntime.open({ distDir: paths.dist, restQuota: QUOTA });
});
after(() => {
  full?.close();
  remembering?.close();
});

const facts = (target: string, method: string, headers: Record<string, string>): RequestFacts => ({
  method,
  url: new URL(`http://runtime.invalid${target}`),
  target,
  peer: '127.0.0.1',
  header: (name) => headers[name.toLowerCase()] ?? null,
});

/** Query pieces of a collection: its facets' real values and hostile ones, sorts, sizes, searches, and a cursor of page two. */
function piecesOf(runtime: ServingRuntime, name: string): string[] {
  const c = pageCollections.find((p) => p.name === name)!;
  const view = firstPageView(runtime.core, c);
  const pieces = ['limit=1', 'limit=2', 'limit=10', 'q=the', 'q=%3Cb%3E%22%27%26', 'q=zzzzqqq'];
  for (const facet of view.facets) for (const v of facet.values.slice(0, 3)) pieces.push(`${facet.param}=${encodeURIComponent(v.label)}`);
  for (const param of facetable(c).slice(0, 2)) pieces.push(`${param}=A%26B%22%3C%27`);
  for (const field of Object.keys(c.sort)) pieces.push(`sort=${field}:asc`, `sort=${field}:desc`);
  const next = collectionView(runtime.core, parseQuery(c, new URLSearchParams('limit=1'))).next;
  if (next) pieces.push(new URL(next, 'http://x').search.slice(1));
  return pieces;
}

const targetArbitrary = () =>
  fc
    .constantFrom(...pageCollections.map((c) => c.name))
    .chain((name) => fc.array(fc.constantFrom(...piecesOf(full, name)), { minLength: 1, maxLength: 3 }).map((query) => `/${name}/?${query.join('&')}`));

test('a page placed in its frame is byte for byte the page Astro renders whole', async () => {
  await fc.assert(
    fc.asyncProperty(targetArbitrary(), async (target) => {
      const answer = await collectionPageAnswer(full, facts(target, 'GET', { accept: 'text/html' }));
      if (answer.status !== 200) return;
      const url = new URL(`http://runtime.invalid${target}`);
      const c = pageCollections.find((p) => url.pathname === `/${p.name}/`)!;
      const query = parseQuery(c, url.searchParams);
      const route = `${RERENDER_ROUTE}/collection/${c.name}${canonicalSearch({ ...query, facets: false }, query.cursor)}`;
      const whole = await renderPage(full.pages, route, { core: full.core, collectionView: collectionView(full.core, query) });
      assert.equal(Buffer.from(answer.body!).toString('utf8'), whole.toString('utf8'), target);
    }),
    { numRuns: 150 },
  );
});

/** What leaves for an answer: with the security headers the dispatcher adds (in order), without the client's count. */
const leaving = (answer: Answer, path: string) => {
  const { RateLimit: _count, ...headers } = secured(answer.headers, path, full.siteUrl);
  return { status: answer.status, headers: Object.entries(headers), body: answer.body === null ? null : Buffer.from(answer.body).toString('base64') };
};

test('a page asked again of a remembering runtime leaves as a runtime that remembers nothing answers it', async () => {
  await fc.assert(
    fc.asyncProperty(
      targetArbitrary(),
      fc.constantFrom('text/html', 'text/markdown', 'text/html,application/xhtml+xml,*/*;q=0.8', '*/*'),
      fc.boolean(),
      fc.boolean(),
      async (target, accept, head, revalidate) => {
        const method = head ? 'HEAD' : 'GET';
        const headers: Record<string, string> = { accept };
        const path = new URL(`http://runtime.invalid${target}`).pathname;
        const first = await collectionPageAnswer(full, facts(target, 'GET', headers));
        if (revalidate && first.headers.ETag) headers['if-none-match'] = first.headers.ETag;
        const expected = leaving(await collectionPageAnswer(full, facts(target, method, headers)), path);
        for (let i = 0; i < 3; i++) {
          const request = facts(target, method, headers);
          const answer = await (pageReplay(remembering, 'collection', request) ?? collectionPageAnswer(remembering, request));
          assert.deepEqual(leaving(answer, path), expected, `${method} ${target} (${accept}), asked ${i + 1} times`);
        }
      },
    ),
    { numRuns: 120 },
  );
});

// The plain definitions the list rows' title and detail line were, before they were made for speed.
const plainClip = (text: string, max = 100) => {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const points = Array.from(line.slice(0, 2 * max + 2));
  return points.length > max ? `${points.slice(0, max - 1).join('')}…` : line;
};
const values = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : v === undefined || v === null || v === '' ? [] : [String(v)]);

test('a tweet’s title is its text on one line, clipped to 100 code points, as the plain definition clips it', () => {
  const unit = fc.constantFrom('a', 'é', ' ', '  ', '\n', '\t', '\u00a0', '😀', '\ud83d', '\ude00', 'x y', '\u2028');
  fc.assert(
    fc.property(fc.array(unit, { maxLength: 140 }), (units) => {
      const text = units.join('');
      assert.equal(headline('tweets', { text }), plainClip(text), JSON.stringify(text));
    }),
    { numRuns: 2000 },
  );
});

test('a list row’s detail line is up to 3 values of each facet’s field, at most 5 in all, as the plain definition shows them', () => {
  const value = fc.oneof(
    fc.constantFrom(undefined, null, '', 'Drama', 0, 2024, true),
    fc.array(fc.constantFrom('a', '', 'b', 'c', 'd', 'e'), { maxLength: 6 }),
  );
  for (const c of pageCollections) {
    const fields = [...new Set(facetable(c).map((param) => c.filters[param]!.field))];
    fc.assert(
      fc.property(fc.array(value, { minLength: fields.length, maxLength: fields.length }), (drawn) => {
        const r: Record<string, unknown> = { canonicalId: 'itm_000000000000000000000000', title: 't', text: 't', name: 'n' };
        fields.forEach((field, i) => (r[field] = drawn[i]));
        const plain = fields
          .flatMap((field) => values(r[field]).slice(0, 3))
          .slice(0, 5)
          .join(' · ');
        assert.equal(itemView(c, r).detail, plain, `${c.name} ${JSON.stringify(r)}`);
      }),
      { numRuns: 200 },
    );
  }
});
