/**
 * The `_headers` file: within the hosts' limits at any size, and each static URL's
 * headers, as Cloudflare Pages combines matching rules (every match applies, two values of
 * one header are joined with ", "), equal the runtime's. The file is read here with a
 * parser of the documented format, not with the compiler's own renderer.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import fc from '../helpers/fc.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { compileHeaderRules, HeaderRulesError, patternMatches, renderHeaderRules } from '../../src/compile/edge/header-rules.ts';
import { describeRoutes } from '../../src/runtime/routes.ts';
import { paths } from '../../src/paths.ts';

interface ParsedRule {
  pattern: string;
  headers: [string, string][];
}

/** Cloudflare's documented format: a URL line, then indented `Name: value` lines. */
function parseHeadersFile(text: string): ParsedRule[] {
  const rules: ParsedRule[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (/^\s/.test(line)) {
      const colon = line.indexOf(':');
      rules.at(-1)!.headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
    } else rules.push({ pattern: line.trim(), headers: [] });
  }
  return rules;
}

/** Pages' matcher: `*` (one) is any characters, `:name` one segment. */
const matches = (pattern: string, path: string) =>
  new RegExp(
    `^${pattern
      .split(/(\*|:\w+)/)
      .map((p) => (p === '*' ? '.*' : p.startsWith(':') ? '[^/]+' : p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
      .join('')}$`,
  ).test(path);

/** Every header of every matching rule; a header set twice is joined (Pages), and counted, since Netlify does not join. */
function effective(rules: readonly ParsedRule[], path: string): { headers: Map<string, string>; setTwice: string[] } {
  const headers = new Map<string, string>();
  const setTwice: string[] = [];
  for (const rule of rules.filter((r) => matches(r.pattern, path))) {
    for (const [name, value] of rule.headers) {
      const key = name.toLowerCase();
      if (headers.has(key)) setTwice.push(key);
      headers.set(key, headers.has(key) ? `${headers.get(key)}, ${value}` : value);
    }
  }
  return { headers, setTwice };
}

const NOT_COMPARED = new Set(['etag', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'ratelimit']);

let server: RunningServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

test('the built _headers has at most 100 rules and no line over 2,000 characters', () => {
  const text = readFileSync(join(paths.client, '_headers'), 'utf8');
  const rules = parseHeadersFile(text);
  assert.ok(rules.length <= 100, `${rules.length} rules`);
  for (const line of text.split('\n')) assert.ok(line.length <= 2000, line.slice(0, 80));
});

test("every static URL's headers from _headers equal the runtime's (ETag and Content-Length aside), each set by one rule", async () => {
  const rules = parseHeadersFile(readFileSync(join(paths.client, '_headers'), 'utf8'));
  const manifest = JSON.parse(readFileSync(paths.manifest, 'utf8')) as Record<string, { headers: Record<string, string> }>;
  for (const [path, entry] of Object.entries(manifest)) {
    // Ask for the file's own media type: `/problems/` answers JSON unless HTML is asked for.
    const response = await fetch(`${server.base}${path}`, { headers: { Accept: entry.headers['Content-Type']!.split(';')[0]! } });
    await response.arrayBuffer();
    assert.equal(response.status, 200, path);
    const runtime = new Map([...response.headers].filter(([k]) => !NOT_COMPARED.has(k)));
    const { headers, setTwice } = effective(rules, path);
    for (const k of NOT_COMPARED) headers.delete(k);
    assert.deepEqual(setTwice, [], `${path}: a header set by two rules`);
    assert.deepEqual(Object.fromEntries([...headers].sort()), Object.fromEntries([...runtime].sort()), path);
  }
});

// Synthetic sites: paths in a few folders and kinds, header values shared or per file.
const segment = fc.constantFrom('api', 'blog', 'problems', 'media', 'a', 'ab', 'abc', 'x-1', '.well-known');
const leaf = fc.oneof(
  fc.tuple(fc.constantFrom('index', 'page', 'p1', 'p2', 'movies', 'sitemap-1', 'sitemap-2', 'x'), fc.constantFrom('.json', '.md', '.html', '.xml', '/', '')),
  fc.constant(['', ''] as [string, string]), // a folder's own page: `/`, `/api/`
);
const pathArb = fc.tuple(fc.array(segment, { maxLength: 3 }), leaf).map(([dirs, [name, ext]]) => `/${[...dirs, ''].join('/')}${name}${ext}`);
const valueArb = fc.option(fc.constantFrom('v1', 'v2', 'v3'), { nil: undefined });
const siteArb = fc.dictionary(pathArb, fc.record({ 'X-A': valueArb, 'X-B': valueArb, 'Cache-Control': valueArb }), { minKeys: 1, maxKeys: 60 });

test('property: for any site, each URL gets exactly its headers, each from one rule', () => {
  fc.assert(
    fc.property(siteArb, (site) => {
      const urls = Object.fromEntries(
        Object.entries(site).map(([p, h]) => [p, Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>]),
      );
      let rules: ParsedRule[];
      try {
        rules = parseHeadersFile(renderHeaderRules(compileHeaderRules(urls)));
      } catch (error) {
        // Only a site that truly needs more than 100 rules may be refused.
        assert.ok(error instanceof HeaderRulesError && /100/.test(error.message));
        return;
      }
      for (const [path, expected] of Object.entries(urls)) {
        const { headers, setTwice } = effective(rules, path);
        assert.deepEqual(setTwice, [], path);
        assert.deepEqual(
          Object.fromEntries([...headers].sort()),
          Object.fromEntries(
            Object.entries(expected)
              .map(([k, v]) => [k.toLowerCase(), v])
              .sort(),
          ),
          path,
        );
      }
    }),
    { numRuns: 300 },
  );
});

test('at 100k-record scale (thousands of posts, sitemaps and image variants) the rule count does not grow', () => {
  const manifest = JSON.parse(readFileSync(paths.manifest, 'utf8')) as Record<string, { headers: Record<string, string> }>;
  const strip = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).filter(([k]) => k !== 'ETag' && k !== 'Content-Length'));
  const base = compileHeaderRules(Object.fromEntries(Object.entries(manifest).map(([p, e]) => [p, strip(e.headers)]))).length;
  const like = (path: string) => strip(manifest[path]!.headers);
  const scaled: Record<string, Record<string, string>> = Object.fromEntries(Object.entries(manifest).map(([p, e]) => [p, strip(e.headers)]));
  const post = Object.keys(manifest).find((p) => /^\/blog\/[^/]+\/$/.test(p))!;
  const sitemap = Object.keys(manifest).find((p) => p.startsWith('/sitemap-records-'))!;
  const variant = Object.keys(manifest).find((p) => p.startsWith('/media/') && p.endsWith('.webp'))!;
  for (let i = 0; i < 2000; i++) {
    scaled[`/blog/generated-post-${i}/`] = like(post);
    scaled[`/blog/generated-post-${i}/index.md`] = like(`${post}index.md`);
  }
  for (let i = 2; i <= 40; i++) scaled[`/sitemap-records-${i}.xml`] = like(sitemap);
  for (let i = 0; i < 30_000; i++) scaled[`/media/photos/img-${i}.0123456789ab.${[400, 800, 1200][i % 3]}w.webp`] = like(variant);
  const rules = compileHeaderRules(scaled);
  assert.equal(rules.length, base);
  for (const line of renderHeaderRules(rules).split('\n')) assert.ok(line.length <= 2000);
});

test('the build refuses, naming the limit, a site that would need more than 100 rules or a line over 2,000 characters', () => {
  const many = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`/list-${i}.json`, { 'X-Total-Count': String(i) }]));
  assert.throws(
    () => compileHeaderRules(many),
    (e: Error) => e instanceof HeaderRulesError && /150 rules, more than the 100/.test(e.message),
  );
  assert.throws(
    () => compileHeaderRules({ '/a.json': { Link: 'x'.repeat(2100) } }),
    (e: Error) => e instanceof HeaderRulesError && /longer than the 2000/.test(e.message),
  );
  // A per-file value on a path a host would read as a pattern (`:id`) or decode differently.
  const odd = { '/a/:id.json': { 'X-Total-Count': '1' }, '/a/b.json': { 'X-Total-Count': '2' } };
  assert.throws(
    () => compileHeaderRules(odd),
    (e: Error) => e instanceof HeaderRulesError && /rename the file/.test(e.message),
  );
});

test('_routes.json skips the worker only where the runtime answers with a static file: no other route of the table answers under an exclude rule', () => {
  const routes = JSON.parse(readFileSync(join(paths.client, '_routes.json'), 'utf8')) as { include: string[]; exclude: string[] };
  assert.ok(routes.include.length >= 1 && routes.include.length + routes.exclude.length <= 100, 'within Pages’ 100 rules, one include at least');
  for (const rule of [...routes.include, ...routes.exclude]) assert.ok(rule.length <= 100, `${rule}: at most 100 characters`);
  const manifest = JSON.parse(readFileSync(paths.manifest, 'utf8')) as Record<string, unknown>;
  for (const route of describeRoutes(paths.dist).filter((r) => r.name !== 'static')) {
    // `withheld-export` answers only an export the build withheld; one it wrote is the static route's, which comes first.
    for (const path of [route.path, ...route.examples].filter((p) => route.name !== 'withheld-export' || !Object.hasOwn(manifest, p))) {
      const rule = routes.exclude.find((r) => patternMatches(r, path));
      assert.equal(rule, undefined, `${route.name} answers ${path}, which ${rule} sends past the worker`);
    }
  }
});
