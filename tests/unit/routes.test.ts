/**
 * The route table as data, and the dispatcher's catch-all: whatever a handler throws or
 * rejects with, synchronously or not, the client gets the same 500 problem shape with
 * nothing of the cause, and the server goes on answering.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { connect, type AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { paths } from '../../src/paths.ts';
import { createDispatcher } from '../../src/runtime/dispatch.ts';
import { createNodeServer } from '../../src/runtime/node.ts';
import { TEST_KEEP_ALIVE_MS } from '../helpers/keep-alive.ts';
import type { Route } from '../../src/runtime/route.ts';
import { describeRoutes, DISPATCH_TABLE, ROUTES } from '../../src/runtime/routes.ts';
import { ServingRuntime } from '../../src/runtime/serving.ts';

test('the route table lists every path once, with its methods and handler kind, in matching order', () => {
  assert.deepEqual(
    ROUTES.map((r) => `${r.name} ${r.path} ${r.methods.join(',')} ${r.kind}`),
    [
      'sql /api/sql QUERY,OPTIONS answer',
      'graphql /graphql GET,POST,OPTIONS answer',
      'mcp /mcp GET,POST,DELETE,OPTIONS fetch',
      'status /api/status.json GET answer',
      'taste-summary /api/taste/summary.json GET answer',
      'music-intersections /api/music/intersections.json POST,OPTIONS answer',
      'music-station /api/music/station.json POST,OPTIONS answer',
      'oauth-protected-resource /.well-known/oauth-protected-resource/owner/mcp GET,OPTIONS answer',
      'oauth-authorization-server /.well-known/oauth-authorization-server GET,OPTIONS answer',
      'oauth-register /oauth/register POST,OPTIONS answer',
      'oauth-authorize /oauth/authorize GET,POST answer',
      'oauth-callback /oauth/callback GET answer',
      'oauth-token /oauth/token POST,OPTIONS answer',
      'oauth-revoke /oauth/revoke POST,OPTIONS answer',
      'oauth-clients /oauth/clients GET,POST answer',
      'owner-mcp /owner/mcp POST,OPTIONS fetch',
      'micropub /micropub GET,POST,OPTIONS answer',
      'micropub-media /micropub/media POST,OPTIONS answer',
      'rpc /api/rpc GET,POST,OPTIONS fetch',
      'rest /api/{collection}.json GET,OPTIONS answer',
      'collection-page /{collection}/ GET answer',
      'search-page /search/ GET answer',
      'static /{file} GET answer',
      'withheld-export /places.{geojson,kml,gpx} GET answer',
      'record-page /{collection}/{canonicalId} GET answer',
    ],
  );
  const described = describeRoutes();
  assert.equal(new Set(described.map((r) => r.path)).size, described.length, 'every path once');
  for (const route of described) assert.ok(route.examples.length > 0, `${route.name} has examples`);
});

const SECRET = 'SECRET-internal-detail /work/main/src/x.ts:12';
/** The WebSocket handshake's accept value (RFC 6455 §4.2.2). */
const acceptOf = (key: string) => createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');

const failing: Route[] = [
  {
    name: 'fetch-rejects',
    path: '/fetch-rejects',
    methods: ['GET'],
    matches: (p) => p === '/fetch-rejects',
    kind: 'fetch',
    fetch: async () => Promise.reject(new Error(SECRET)),
  },
  {
    name: 'throws',
    path: '/throws',
    methods: ['GET'],
    matches: (p) => p === '/throws',
    kind: 'answer',
    answer: () => {
      throw new Error(SECRET);
    },
  },
  {
    name: 'rejects',
    path: '/rejects',
    methods: ['POST'],
    matches: (p) => p === '/rejects',
    kind: 'answer',
    bodyMax: 10,
    answer: async () => Promise.reject(new TypeError(SECRET)),
  },
  {
    name: 'throws-value',
    path: '/value',
    methods: ['GET'],
    matches: (p) => p === '/value',
    kind: 'answer',
    answer: () => {
      throw SECRET;
    },
  },
];

/** Routes that show the Web-standard path: a streamed body, a bounded request body, and a path that takes WebSocket upgrades. */
let release: () => void = () => {};
const webRoutes: Route[] = [
  {
    name: 'stream',
    path: '/stream',
    methods: ['GET'],
    matches: (p) => p === '/stream',
    kind: 'fetch',
    fetch: () => {
      const gate = new Promise<void>((resolve) => (release = resolve));
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode('event: one\n\n'));
          await gate;
          controller.enqueue(new TextEncoder().encode('event: two\n\n'));
          controller.close();
        },
      });
      return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
    },
  },
  {
    name: 'echo-size',
    path: '/echo',
    methods: ['POST'],
    matches: (p) => p === '/echo',
    kind: 'fetch',
    bodyMax: 4,
    fetch: async (_rt, exchange) => {
      const request = exchange.request();
      return Response.json({ bytes: (await request.arrayBuffer()).byteLength, host: request.headers.get('host'), url: request.url });
    },
  },
  {
    name: 'socket',
    path: '/socket',
    methods: ['POST'],
    matches: (p) => p === '/socket' || p === '/socket-throws',
    kind: 'answer',
    answer: () => ({ status: 200, headers: { 'Content-Type': 'text/plain' }, body: Buffer.from('batch') }),
    upgrade: (_rt, req, socket) => {
      if (req.url === '/socket-throws') throw new Error(SECRET);
      const key = String(req.headers['sec-websocket-key']);
      socket.end(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${acceptOf(key)}\r\n\r\n`);
    },
  },
];

let base = '';
let runtime: ServingRuntime;
let close: () => void;
before(async () => {
  runtime = await ServingRuntime.open({ distDir: paths.dist });
  const server = createNodeServer(
    createDispatcher(() => runtime, { ...DISPATCH_TABLE, routes: [...failing, ...webRoutes, ...ROUTES] }),
    { keepAliveTimeoutMs: TEST_KEEP_ALIVE_MS },
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
after(async () => {
  close();
  await runtime.close();
});

test('a thrown error, a rejection or a thrown non-error becomes the same 500 problem, revealing nothing', async () => {
  const logged: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => logged.push(args);
  try {
    for (const [path, init] of [
      ['/throws', {}],
      ['/rejects', { method: 'POST', body: 'x' }],
      ['/value', {}],
      ['/fetch-rejects', {}],
    ] as const) {
      const response = await fetch(`${base}${path}`, init);
      assert.equal(response.status, 500, path);
      assert.equal(response.headers.get('content-type'), 'application/problem+json');
      const text = await response.text();
      assert.doesNotMatch(text, /SECRET|\/work\/|\.ts:/);
      assert.deepEqual(Object.keys(JSON.parse(text) as object), ['type', 'title', 'status', 'detail']);
      assert.equal((JSON.parse(text) as { type: string }).type, '/problems/internal-error');
    }
  } finally {
    console.error = original;
  }
  assert.equal(logged.length, 4, 'each failure is logged once, in the process');
  assert.equal((await fetch(`${base}/api/status.json`)).status, 200, 'and the server goes on');
});

test('a Web-standard route streams its body as it is produced, with the security headers', async () => {
  const response = await fetch(`${base}/stream`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'text/event-stream');
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
  const reader = response.body!.getReader();
  // The first event arrives while the handler still holds the second back.
  assert.equal(new TextDecoder().decode((await reader.read()).value), 'event: one\n\n');
  release();
  assert.equal(new TextDecoder().decode((await reader.read()).value), 'event: two\n\n');
  assert.equal((await reader.read()).done, true);
});

test('a Web-standard route sees its body bounded and its URL on the fixed origin, with the client’s Host among the headers', async () => {
  const small = (await (await fetch(`${base}/echo`, { method: 'POST', body: 'abc' })).json()) as { bytes: number; host: string; url: string };
  assert.equal(small.bytes, 3);
  assert.equal(small.host, new URL(base).host);
  assert.equal(new URL(small.url).pathname, '/echo');
  const large = (await (await fetch(`${base}/echo`, { method: 'POST', body: 'x'.repeat(100_000) })).json()) as { bytes: number };
  assert.equal(large.bytes, 5, 'one byte past the bound: enough to refuse, never the whole body');
});

/** A raw handshake, so refusals written on the socket can be read as HTTP. */
async function handshake(path: string, headers: Record<string, string> = {}): Promise<string> {
  const socket = connect({ host: '127.0.0.1', port: Number(new URL(base).port) });
  await once(socket, 'connect');
  const lines = [
    `GET ${path} HTTP/1.1`,
    `Host: ${new URL(base).host}`,
    'Upgrade: websocket',
    'Connection: Upgrade',
    'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n`);
  let text = '';
  for await (const chunk of socket) text += String(chunk);
  return text;
}

test('a WebSocket handshake reaches the route that takes upgrades; elsewhere Upgrade is an ordinary request; a throwing upgrade is a 500 problem', async () => {
  const opened = new WebSocket(`${base.replace('http', 'ws')}/socket`);
  await new Promise((resolve, reject) => {
    opened.onopen = resolve;
    opened.onerror = reject;
  });
  opened.close();
  assert.match(await handshake('/socket'), /^HTTP\/1\.1 101 /);
  assert.equal((await fetch(`${base}/socket`, { method: 'POST' })).status, 200, 'the same path answers HTTP too');
  const ordinary = await handshake('/api/status.json');
  assert.match(ordinary, /^HTTP\/1\.1 200 /, 'a path without upgrades answers the GET');
  const duplicateHost = await handshake('/socket', { Host: 'second.example' });
  assert.match(duplicateHost, /^HTTP\/1\.1 400 [\s\S]*"type":"\/problems\/bad-request"/);
  const original = console.error;
  console.error = () => {};
  try {
    const thrown = await handshake('/socket-throws');
    assert.match(thrown, /^HTTP\/1\.1 500 [\s\S]*"type":"\/problems\/internal-error"/);
    assert.doesNotMatch(thrown, /SECRET/);
  } finally {
    console.error = original;
  }
});
