/**
 * The direct answer to a plain `tools/call` (src/mcp/direct.ts), as a property: for any
 * request a client may send to `/mcp` — any public tool or another name, arguments valid
 * or not (absent, an array, null, an own `__proto__`), any id, extra members, any
 * `Accept`, `Content-Type` and `MCP-Protocol-Version` — the handler answers exactly what
 * the same handler answers when every request goes through the SDK's server and
 * transport: the same status, the same fields as the dispatcher sends them (secured,
 * names without case) and the same bytes; and a remembering handler answers the same
 * again and again, and with another id the same but for the id. Besides, the image's records are the text `JSON.stringify` writes for
 * them, which the direct answer writes as it is.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from '../helpers/fc.ts';
import { createMcpHandler, type McpHandler, type McpOptions } from '../../functions/mcp.ts';
import type { Answer, RequestFacts } from '../../src/http/answer.ts';
import { securityHeaders } from '../../src/http/security.ts';
import type { McpContext } from '../../src/mcp/context.ts';
import { TOOLS } from '../../src/mcp/tools.ts';
import { restCollections } from '../../src/collections/index.ts';
import { recordsTable } from '../../src/core/image.ts';
import { paths } from '../../src/paths.ts';
import { ServingRuntime } from '../../src/runtime/serving.ts';
import { URLS } from '../../src/urls.ts';
import { post, serve, type Served } from './helpers.ts';

let runtime: ServingRuntime;
let context: McpContext;
const ids: Record<string, string[]> = {};
before(async () => {
  runtime = await ServingRuntime.open({ distDir: paths.dist });
  assert.equal(runtime.siteUrl, SITE);
  context = { core: runtime.core, image: runtime.image, tasteSources: runtime.tasteSources, siteUrl: runtime.siteUrl };
  for (const name of ['movies', 'places', 'sporting-events', 'books'])
    ids[name] = (runtime.image.db.prepare(`SELECT cid FROM ${recordsTable(name)} ORDER BY rid LIMIT 3`).all() as { cid: string }[]).map((r) => r.cid);
});
after(() => runtime?.close());

const QUOTAS: McpOptions = { requestQuota: 1_000_000, workQuota: 1_000_000, clientOf: () => 'tests', log: () => {} };
/** The demo's site URL (the `SITE_URL` default), whose host and origin `/mcp` admits. */
const SITE = 'http://localhost:4321';

function exchange(method: string, body: string | null, sentHeaders: Record<string, string>) {
  const headers = { Host: new URL(SITE).host, ...sentHeaders };
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const facts: RequestFacts = { method, url: new URL(`${SITE}${URLS.mcp}`), header: (name) => lower[name.toLowerCase()] ?? null };
  const bytes = body === null ? null : Buffer.from(body);
  return { facts, body: bytes, request: () => new Request(facts.url, { method, headers, body: bytes === null ? null : new Uint8Array(bytes) }) };
}

/**
 * An answer as the dispatcher sends it (src/runtime/dispatch.ts): a Web response with the
 * path's security fields beside its own, an answer secured; the client's count (each
 * handler keeps its own, and the window's time left) as what it leaves, `remaining`.
 */
async function sent(result: Response | Answer): Promise<{ status: number; headers: Record<string, string>; body: string; remaining: number }> {
  const headers: Record<string, string> = {};
  let body: string;
  if (result instanceof Response) {
    const extra = securityHeaders(URLS.mcp, result.headers.get('Content-Type') ?? undefined, context.siteUrl);
    for (const [name, value] of Object.entries(extra)) headers[name.toLowerCase()] = value;
    result.headers.forEach((value, name) => (headers[name] = value));
    body = Buffer.from(await result.arrayBuffer()).toString('base64');
  } else {
    const contentType = result.headers['Content-Type'];
    for (const [name, value] of Object.entries({ ...securityHeaders(URLS.mcp, contentType, context.siteUrl), ...result.headers }))
      headers[name.toLowerCase()] = value;
    body = result.body === null ? '' : Buffer.from(result.body).toString('base64');
  }
  const remaining = Number(/;r=(\d+)/.exec(headers.ratelimit ?? '')?.[1] ?? NaN);
  // The count, and the seconds left of the window (the clock's), are each handler's own.
  headers.ratelimit = headers.ratelimit?.replace(/;r=\d+/, ';r=…').replace(/;t=\d+/, ';t=…') ?? 'none';
  return { status: result.status, headers, body, remaining };
}

/** The answer but for the client's count. */
const comparable = ({ remaining: _count, ...answer }: Awaited<ReturnType<typeof sent>>) => answer;

const names = restCollections.map((c) => c.name);
const argumentsOf = (tool: string): fc.Arbitrary<unknown> => {
  const record = (collection: string) => fc.constantFrom(...(ids[collection] ?? []), 'itm_ffffffffffffffffffffffff');
  switch (tool) {
    case 'taste.find':
      return fc.record(
        {
          collection: fc.constantFrom(...names, 'nope'),
          filters: fc.constantFrom({}, { genre: 'Drama' }, { genre: ['Drama', 'Comedy'] }, { year: 2001 }, { year: 'x' }, { city: 'Paris' }),
          q: fc.constantFrom('the', 'é', '', '"\\\u2028', '𝄞 \ud800'),
          sort: fc.constantFrom('year:desc', 'title', 'nope'),
          limit: fc.constantFrom(1, 5, 50, 0, 51, 'x'),
          cursor: fc.constantFrom('abc'),
          other: fc.constant(1),
        },
        { requiredKeys: ['collection'] },
      );
    case 'sports.list':
      return fc.record({ limit: fc.constantFrom(1, 3), status: fc.constantFrom('attended', 'x'), year: fc.constantFrom(2019, 'x') }, { requiredKeys: [] });
    case 'taste.get':
    case 'taste.render_recommendations':
      return fc.record({ ids: fc.array(record('movies'), { maxLength: 3 }) });
    case 'places.render_map':
      return fc.record({ ids: fc.array(fc.oneof(record('places'), record('movies')), { maxLength: 3 }) });
    case 'sports.render_events':
      return fc.record({ ids: fc.array(record('sporting-events'), { maxLength: 3 }) });
    case 'taste.summarize':
      return fc.record({ exampleLimit: fc.constantFrom(0, 2, -1) }, { requiredKeys: [] });
    case 'taste.recommend':
      return fc.record({ intent: fc.constantFrom('a documentary film', 'anything', ''), collection: fc.constantFrom('movies', 'books') }, { requiredKeys: [] });
    case 'places.plan':
      return fc.record({ city: fc.constantFrom('Paris', 'Nowhere'), limit: fc.constantFrom(2, 0) }, { requiredKeys: [] });
    default:
      return fc.constantFrom({}, { x: 1 });
  }
};

/** Mostly what a client sends (the direct answer's case), else anything the transport refuses or reads otherwise. */
const often = <T>(usual: T, ...others: T[]) => fc.oneof({ weight: 4, arbitrary: fc.constant(usual) }, fc.constantFrom(...others));
const callArbitrary = fc
  .constantFrom(...TOOLS.map((t) => t.name), 'no.such.tool')
  .chain((name) =>
    fc.record({
      name: fc.constant(name),
      args: fc.oneof({ weight: 6, arbitrary: argumentsOf(name) }, fc.constantFrom(undefined, null, [], 'x', '__proto__')),
      id: often<unknown>(1, 0, -4, 'x', '', 1.5, null, 2 ** 53),
      extra: often(undefined, 'params._meta', 'params.task', 'top'),
      /** The id of the same call asked once more. */
      again: fc.constantFrom<unknown>(2, 'é', -7),
    }),
  )
  .map(({ name, args, id, extra, again }) => {
    const text = (id: unknown) => {
      const params: Record<string, unknown> = { name };
      if (args !== undefined && args !== '__proto__') params.arguments = args;
      if (extra === 'params._meta') params._meta = { progressToken: 'p' };
      if (extra === 'params.task') params.task = { ttl: 1000 };
      const message: Record<string, unknown> = { jsonrpc: '2.0', id, method: 'tools/call', params };
      if (extra === 'top') message.other = true;
      const json = JSON.stringify(message);
      // An own `__proto__` among the arguments, as JSON.parse makes one.
      return args === '__proto__' ? json.replace('"params":{', '"params":{"arguments":{"__proto__":{"collection":"movies"}},') : json;
    };
    return { body: text(id), again: text(again) };
  });

const headersArbitrary = fc
  .record(
    {
      Accept: often('application/json, text/event-stream', 'text/event-stream, application/json;q=0.9', 'application/json', '*/*', undefined),
      'Content-Type': often('application/json', 'application/json; charset=utf-8', 'Application/JSON', 'text/plain', undefined),
      'MCP-Protocol-Version': often('2025-11-25', '2025-06-18', '2025-03-26', '1999-01-01', undefined),
      Origin: fc.constantFrom(SITE, 'http://127.0.0.1:9', undefined),
    },
    { requiredKeys: [] },
  )
  .map((headers) => Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined)) as Record<string, string>);

test('a direct answer is what the SDK’s server and transport answer, and a remembered one the same again', async () => {
  const handler = (options: Partial<McpOptions>): McpHandler => createMcpHandler(context, { ...QUOTAS, ...options });
  const full = handler({ direct: false, cacheBytes: 0 });
  const direct = handler({ cacheBytes: 0 });
  const remembering = handler({});
  let answeredDirectly = 0;
  await fc.assert(
    fc.asyncProperty(callArbitrary, headersArbitrary, async ({ body, again }, headers) => {
      const expected = comparable(await sent(await full(exchange('POST', body, headers))));
      const answer = await direct(exchange('POST', body, headers));
      if (!(answer instanceof Response)) answeredDirectly++;
      assert.deepEqual(comparable(await sent(answer)), expected, `${body} ${JSON.stringify(headers)}`);
      let before: number | undefined;
      for (let i = 0; i < 3; i++) {
        const answer = await sent(await remembering(exchange('POST', body, headers)));
        assert.deepEqual(comparable(answer), expected, `${body} ${JSON.stringify(headers)} #${i}`);
        if (before !== undefined) assert.equal(answer.remaining, before - 1, 'one request of the quota per call');
        before = answer.remaining;
      }
      // The same call with another id: the remembered answer with that id written in.
      const otherId = await sent(await remembering(exchange('POST', again, headers)));
      assert.deepEqual(comparable(otherId), comparable(await sent(await full(exchange('POST', again, headers)))), `${again} ${JSON.stringify(headers)}`);
    }),
    { numRuns: 200 },
  );
  assert.ok(answeredDirectly >= 50, `${answeredDirectly} of 200 calls answered directly`);
});

test('every record of the image is the text JSON.stringify writes for it', () => {
  for (const name of names) {
    for (const { json } of runtime.image.db.prepare(`SELECT json FROM ${recordsTable(name)}`).all() as { json: string }[]) {
      assert.equal(JSON.stringify(JSON.parse(json)), json, `${name}: ${json.slice(0, 80)}`);
    }
  }
});

let served: Served;
after(() => served?.close());

test('over HTTP, a direct answer carries the fields of the transport’s answer to the same call', async () => {
  served = await serve({ mcpQuota: 1_000, mcpWorkBudget: 1_000, answerCacheBytes: 0 });
  const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'taste.find', arguments: { collection: 'movies', limit: 3 } } };
  const headers = { 'MCP-Protocol-Version': '2025-11-25', Origin: SITE };
  const direct = await post(served.base, call, headers);
  // `_meta` without a progress token changes nothing of the answer, but takes the call through the SDK.
  const transport = await post(served.base, { ...call, params: { ...call.params, _meta: {} } }, headers);
  const fields = (response: Response) =>
    Object.fromEntries([...response.headers].filter(([name]) => !['date', 'ratelimit', 'content-length', 'transfer-encoding'].includes(name)));
  assert.deepEqual(fields(direct), fields(transport));
  assert.equal(await direct.text(), await transport.text());
});
