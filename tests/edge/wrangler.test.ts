/**
 * `dist/client` as a Cloudflare Pages deployment, run by Cloudflare's own engine
 * (`wrangler pages dev`, workerd from npm), with `ORIGIN_URL` pointing at the real runtime
 * through a proxy that counts what reaches it. For a matrix covering every route kind,
 * the edge's answer equals the runtime's (status, body, and the headers a client relies
 * on); every static URL does too; page one and the prerendered pages never reach the
 * origin, and nothing does that a static file answers. A path `_routes.json` excludes is
 * served by Pages without the worker (issue 38, item 4): a query string on it reaches
 * neither the worker nor the origin, and its answer is the runtime's but for the two
 * headers Pages adds to every asset it serves alone.
 *
 * @slow: Cloudflare's engine starts, then a matrix of every route kind through it (scripts/test.ts starts it first, in a process of its own).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { newHttpBatchRpcSession, newWebSocketRpcSession } from 'capnweb';
import type { Root } from '../../src/rpc/api.d.ts';
import { restCollections } from '../../src/collections/index.ts';
import { patternMatches } from '../../src/compile/edge/header-rules.ts';
import { paths } from '../../src/paths.ts';
import { collectionUrl, LINKS } from '../../src/urls.ts';
import { startEdge, type RunningEdge } from '../helpers/edge.ts';

const ROUTES = JSON.parse(readFileSync(`${paths.client}/_routes.json`, 'utf8')) as { include: string[]; exclude: string[] };
const excluded = (path: string) => ROUTES.exclude.some((rule) => patternMatches(rule, path));

/**
 * What Pages' asset server adds to a file it serves without the worker (wrangler's
 * `attachHeaders`): a header the runtime does not send there. `Referrer-Policy` at the
 * browsers' default value and `Access-Control-Allow-Origin: *` on a public file change
 * nothing a client does; `_headers` cannot unset them without breaking Netlify, which
 * refuses Pages' `! Header` lines.
 */
const PAGES_ADDS: Record<string, string> = { 'referrer-policy': 'strict-origin-when-cross-origin', 'access-control-allow-origin': '*' };

let run: RunningEdge;
before(async () => {
  run = await startEdge();
});
after(() => run.stop());

/** Headers a client acts on; ETag and Content-Length are the host's own for static files (compared for dynamic answers below). */
const RELIED_ON = [
  'content-type',
  'cache-control',
  'cdn-cache-control',
  'surrogate-control',
  'vary',
  'link',
  'link-template',
  'x-total-count',
  'api-version',
  'content-usage',
  'content-signal',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'access-control-allow-methods',
  'allow',
  'location',
  'content-security-policy',
  'x-content-type-options',
  'referrer-policy',
  'permissions-policy',
  'strict-transport-security',
  'last-modified',
  'ratelimit-policy',
  'ratelimit-limit',
  'retry-after',
  'mcp-protocol-version',
  'www-authenticate',
];

interface Probe {
  name: string;
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

interface Seen {
  status: number;
  headers: Record<string, string>;
  etag: string | null;
  body: Buffer;
}

async function send(base: string, probe: Probe): Promise<Seen> {
  const response = await fetch(`${base}${probe.path}`, { method: probe.method ?? 'GET', headers: probe.headers, body: probe.body, redirect: 'manual' });
  const headers = Object.fromEntries(RELIED_ON.filter((h) => response.headers.has(h)).map((h) => [h, response.headers.get(h)!]));
  return { status: response.status, headers, etag: response.headers.get('etag'), body: Buffer.from(await response.arrayBuffer()) };
}

async function assertSame(probe: Probe, options: { sameEtag?: boolean } = {}): Promise<Seen> {
  const origin = await send(run.origin, probe);
  const edge = await send(run.edge, probe);
  assert.equal(edge.status, origin.status, `${probe.name}: status`);
  const expected = excluded(probe.path.split('?')[0]!) ? { ...PAGES_ADDS, ...origin.headers } : origin.headers;
  assert.deepEqual(edge.headers, expected, `${probe.name}: headers`);
  assert.ok(edge.body.equals(origin.body), `${probe.name}: body differs (${edge.body.length} vs ${origin.body.length} bytes)`);
  if (options.sameEtag) assert.equal(edge.etag, origin.etag, `${probe.name}: ETag`);
  return edge;
}

const firstMovie = async () => ((await (await fetch(`${run.origin}/api/movies.json`)).json()) as { data: { canonicalId: string }[] }).data[0]!.canonicalId;
const nextLink = async () => ((await (await fetch(`${run.origin}/api/movies.json?limit=2`)).json()) as { links: { next: string } }).links.next;

test('the matrix: every route kind answers the same through the edge as from the runtime', async () => {
  const id = await firstMovie();
  const mcpHeaders = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-11-25' };
  const probes: (Probe & { dynamic: boolean; status?: number; type?: string })[] = [
    { name: 'page one JSON', path: '/api/movies.json', dynamic: false },
    { name: 'page one, HEAD', path: '/api/movies.json', method: 'HEAD', dynamic: false },
    { name: 'a filtered list', path: '/api/movies.json?type=movie&limit=3', dynamic: true },
    { name: 'a cursor page', path: await nextLink(), dynamic: true },
    { name: 'a list as CSV (Accept the static file does not cover)', path: '/api/movies.json', headers: { Accept: 'text/csv' }, dynamic: true },
    {
      name: 'a list with an unsupported API-Version',
      path: '/api/movies.json',
      headers: { 'API-Version': '9' },
      dynamic: true,
      status: 400,
      type: 'application/problem+json',
    },
    { name: 'a page as HTML', path: '/movies/', headers: { Accept: 'text/html' }, dynamic: false },
    { name: 'a twin by Accept', path: '/movies/', headers: { Accept: 'text/markdown' }, dynamic: false },
    { name: 'a twin by URL', path: '/movies/index.md', dynamic: false },
    { name: 'a filtered page', path: '/movies/?genre=Drama', headers: { Accept: 'text/markdown' }, dynamic: true },
    { name: 'a problem type as JSON and as HTML', path: '/problems/invalid-cursor', headers: { Accept: 'text/html' }, dynamic: false },
    { name: 'a record page', path: `/movies/${id}`, headers: { Accept: 'text/html' }, dynamic: true },
    { name: 'a record twin', path: `/movies/${id}`, headers: { Accept: 'text/markdown' }, dynamic: true },
    { name: 'an export', path: '/places.geojson', dynamic: false },
    { name: 'a calendar', path: '/calendar.ics', dynamic: false },
    {
      name: 'SQL',
      path: '/api/sql',
      method: 'QUERY',
      headers: { 'Content-Type': 'application/sql' },
      body: 'SELECT title FROM public.writing ORDER BY title LIMIT 2',
      dynamic: true,
    },
    {
      name: 'GraphQL',
      path: '/graphql',
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: '{ __typename }' }),
      dynamic: true,
    },
    {
      name: 'MCP initialize',
      path: '/mcp',
      method: 'POST',
      headers: mcpHeaders,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'edge-test', version: '1.0.0' } },
      }),
      dynamic: true,
    },
    {
      name: 'a CORS preflight',
      path: '/api/movies.json',
      method: 'OPTIONS',
      headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'GET' },
      dynamic: true,
    },
    { name: 'the status document', path: '/api/status.json', dynamic: true },
    {
      name: 'an OAuth path (no owner lane configured: the runtime says so)',
      path: '/oauth/register',
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
      dynamic: true,
    },
    { name: 'the owner lane', path: '/owner/mcp', method: 'POST', headers: mcpHeaders, body: '{}', dynamic: true },
    { name: 'a 404 for a program', path: '/nothing-here.json', dynamic: true, status: 404, type: 'application/problem+json' },
    { name: 'a 404 for a browser', path: '/nothing-here/', headers: { Accept: 'text/html' }, dynamic: true, status: 404, type: 'text/html' },
    { name: 'a 405', path: '/api/movies.json', method: 'DELETE', dynamic: true, status: 405 },
  ];
  for (const probe of probes) {
    const before = run.hits.length;
    // Dynamic answers come from the runtime untouched, ETag included.
    const seen = await assertSame(probe, { sameEtag: probe.dynamic && probe.name !== 'the status document' && probe.name !== 'MCP initialize' });
    assert.equal(seen.status, probe.status ?? seen.status, probe.name);
    if (probe.status === undefined)
      assert.ok(
        seen.status === 200 || (seen.status === 204 && probe.method === 'OPTIONS') || probe.path.startsWith('/oauth') || probe.path.startsWith('/owner'),
        `${probe.name}: ${seen.status}`,
      );
    if (probe.type) assert.equal(seen.headers['content-type']?.split(';')[0], probe.type, probe.name);
    assert.equal(run.hits.length - before, probe.dynamic ? 1 : 0, `${probe.name}: ${probe.dynamic ? 'should reach' : 'must not reach'} the origin`);
  }
});

test("a 304 through the edge: for a static file with its edge ETag, for a dynamic list with the runtime's", async () => {
  for (const path of ['/api/movies.json', '/movies/', '/api/movies.json?type=movie']) {
    const first = await fetch(`${run.edge}${path}`);
    await first.arrayBuffer();
    const origin = await fetch(`${run.origin}${path}`);
    await origin.arrayBuffer();
    const again = await send(run.edge, { name: '304', path, headers: { 'If-None-Match': first.headers.get('etag')! } });
    const fromOrigin = await send(run.origin, { name: '304', path, headers: { 'If-None-Match': origin.headers.get('etag')! } });
    assert.equal(again.status, 304, path);
    assert.equal(fromOrigin.status, 304, path);
    assert.equal(again.body.length, 0);
  }
});

test('RPC through the edge: an HTTP batch and a WebSocket session answer as the runtime does', async () => {
  const ask = async (api: ReturnType<typeof newHttpBatchRpcSession<Root>>) => {
    const selection = api.content.movies.matching({ type: 'movie' }).first(3);
    return JSON.stringify(await selection.items());
  };
  const viaEdge = await ask(newHttpBatchRpcSession<Root>(`${run.edge}/api/rpc`));
  const direct = await ask(newHttpBatchRpcSession<Root>(`${run.origin}/api/rpc`));
  assert.equal(viaEdge, direct);

  const before = run.hits.length;
  const socket = newWebSocketRpcSession<Root>(`${run.edge.replace('http', 'ws')}/api/rpc`);
  const local = newWebSocketRpcSession<Root>(`${run.origin.replace('http', 'ws')}/api/rpc`);
  try {
    const [a, b] = await Promise.all([socket.content.movies.first(2).items(), local.content.movies.first(2).items()]);
    assert.equal(JSON.stringify(a), JSON.stringify(b));
    const [c, d] = await Promise.all([socket.service.health(), local.service.health()]);
    assert.equal(JSON.stringify(Object.keys(c as object).sort()), JSON.stringify(Object.keys(d as object).sort()));
  } finally {
    socket[Symbol.dispose]();
    local[Symbol.dispose]();
  }
  const upgrade = run.hits.slice(before).find((h) => h.headers.upgrade === 'websocket');
  assert.ok(upgrade, 'the WebSocket upgrade reached the origin');
});

test('the origin sees the client address appended to X-Forwarded-For', async () => {
  const before = run.hits.length;
  await send(run.edge, { name: 'xff', path: '/api/movies.json?limit=1', headers: { 'X-Forwarded-For': '203.0.113.9' } });
  const hit = run.hits[before]!;
  assert.match(String(hit.headers['x-forwarded-for']), /^203\.0\.113\.9, \S+$/);
});

test('every static URL answers the same at the edge as from the runtime, without reaching the origin', async () => {
  const manifest = JSON.parse(readFileSync(paths.manifest, 'utf8')) as Record<string, { headers: Record<string, string> }>;
  const before = run.hits.length;
  for (const [path, entry] of Object.entries(manifest)) {
    await assertSame({ name: path, path, headers: { Accept: entry.headers['Content-Type']!.split(';')[0]! } });
  }
  // Pages redirects a `.html` URL to its extensionless name, so the worker lets the runtime answer those.
  assert.deepEqual(
    run.hits.slice(before).map((h) => h.url),
    Object.keys(manifest).filter((p) => p.endsWith('.html')),
    'static files reached the origin',
  );
});

test('origin hits: page one and prerendered pages (and their twins) never reach the origin; a query string always does', async () => {
  const before = run.hits.length;
  const lists = Object.keys(JSON.parse(readFileSync(paths.manifest, 'utf8')) as object).filter(
    (p) => /^\/api\/[a-z-]+\.json$/.test(p) || /^\/[a-z-]+\/$/.test(p),
  );
  for (const path of lists) {
    for (const accept of ['application/json', 'text/html', 'text/markdown', '*/*'])
      await (await fetch(`${run.edge}${path}`, { headers: { Accept: accept } })).arrayBuffer();
  }
  const reached = run.hits.slice(before).map((h) => `${h.method} ${h.url} ${h.headers.accept}`);
  // Only a list asked for in a media type its page-one file is not (HTML, Markdown of a JSON list) may go on.
  assert.deepEqual(
    reached.filter((r) => !/^GET \/api\/[a-z-]+\.json (text\/html|text\/markdown)$/.test(r)),
    [],
  );
  const dynamicBefore = run.hits.length;
  await (await fetch(`${run.edge}/api/movies.json?limit=1`)).arrayBuffer();
  await (await fetch(`${run.edge}/movies/?limit=1`)).arrayBuffer();
  assert.equal(run.hits.length - dynamicBefore, 2);
});

test('_routes.json: static files skip the worker, and every other kind of path still meets it', async () => {
  const manifest = JSON.parse(readFileSync(paths.manifest, 'utf8')) as Record<string, unknown>;
  const files = Object.keys(manifest);
  const skipping = files.filter(excluded);
  for (const kind of ['/_astro/', '/media/', '.ics', '.geojson', 'feed.xml'])
    assert.ok(
      skipping.some((p) => p.includes(kind)),
      `a ${kind} file skips the worker`,
    );
  // Pages, lists, twins asked for at a page's path, record pages and every dynamic surface meet it.
  const lists = new Set([...restCollections.map((c) => collectionUrl(c.name)), LINKS.search]);
  const kept = files.filter((p) => p.endsWith('/') || lists.has(p));
  const dynamic = [
    '/api/rpc',
    '/api/sql',
    '/graphql',
    '/mcp',
    '/owner/mcp',
    '/oauth/register',
    '/api/status.json',
    `/movies/${await firstMovie()}`,
    '/problems/invalid-cursor',
  ];
  for (const path of [...kept, ...dynamic]) assert.ok(!excluded(path), `${path} meets the worker`);
  // Served by Pages alone: a query string the worker would send to the origin reaches nothing, and Pages' own headers show.
  const before = run.hits.length;
  for (const path of skipping) {
    const edge = await fetch(`${run.edge}${path}?v=2`);
    const body = Buffer.from(await edge.arrayBuffer());
    const origin = Buffer.from(await (await fetch(`${run.origin}${path}?v=2`)).arrayBuffer());
    assert.equal(edge.status, 200, path);
    assert.ok(body.equals(origin), `${path}: the runtime's bytes`);
    assert.equal(edge.headers.get('referrer-policy'), PAGES_ADDS['referrer-policy'], `${path}: answered by Pages, not the worker (which drops that header)`);
  }
  assert.deepEqual(
    run.hits.slice(before).filter((h) => !h.url.startsWith('/?')),
    [],
    'no excluded path reached the origin',
  );
});

test('dist/client holds no secret: no cursor secret, no origin address', () => {
  const worker = readFileSync(`${paths.client}/_worker.js`, 'utf8');
  assert.ok(!worker.includes('collections-demo-secret'));
  assert.ok(!worker.includes(run.origin));
  assert.ok(ROUTES.include.length + ROUTES.exclude.length <= 100);
});
