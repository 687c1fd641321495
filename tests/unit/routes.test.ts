/**
 * The route table as data, and the dispatcher's catch-all: whatever a handler throws or
 * rejects with, synchronously or not, the client gets the same 500 problem shape with
 * nothing of the cause, and the server goes on answering.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { paths } from '../../src/paths.ts';
import { createDispatcher } from '../../src/runtime/dispatch.ts';
import { createNodeServer } from '../../src/runtime/node.ts';
import { describeRoutes, ROUTES, type Route } from '../../src/runtime/routes.ts';
import { Runtime } from '../../src/runtime/runtime.ts';

test('the route table lists every path once, with its methods and handler kind, in matching order', () => {
  assert.deepEqual(
    ROUTES.map((r) => `${r.name} ${r.path} ${r.methods.join(',')} ${r.kind}`),
    [
      'sql /api/sql QUERY,OPTIONS answer',
      'graphql /graphql GET,POST,OPTIONS answer',
      'status /api/status.json GET answer',
      'taste-summary /api/taste/summary.json GET answer',
      'music-intersections /api/music/intersections.json POST,OPTIONS answer',
      'music-station /api/music/station.json POST,OPTIONS answer',
      'rest /api/{collection}.json GET,OPTIONS answer',
      'static /{file} GET answer',
      'withheld-export /places.{geojson,kml,gpx} GET answer',
      'record-page /{collection}/{canonicalId} GET page',
    ],
  );
  const described = describeRoutes();
  assert.equal(new Set(described.map((r) => r.path)).size, described.length, 'every path once');
  for (const route of described) assert.ok(route.examples.length > 0, `${route.name} has examples`);
});

const SECRET = 'SECRET-internal-detail /work/main/src/x.ts:12';
const failing: Route[] = [
  { name: 'throws', path: '/throws', methods: ['GET'], matches: (p) => p === '/throws', kind: 'answer', answer: () => { throw new Error(SECRET); } },
  { name: 'rejects', path: '/rejects', methods: ['POST'], matches: (p) => p === '/rejects', kind: 'answer', bodyMax: 10, answer: async () => Promise.reject(new TypeError(SECRET)) },
  { name: 'throws-value', path: '/value', methods: ['GET'], matches: (p) => p === '/value', kind: 'answer', answer: () => { throw SECRET; } },
];

let base = '';
let runtime: Runtime;
let close: () => void;
before(async () => {
  runtime = await Runtime.open({ distDir: paths.dist });
  const server = createNodeServer(createDispatcher(() => runtime, [...failing, ...ROUTES]));
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
    for (const [path, init] of [['/throws', {}], ['/rejects', { method: 'POST', body: 'x' }], ['/value', {}]] as const) {
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
  assert.equal(logged.length, 3, 'each failure is logged once, in the process');
  assert.equal((await fetch(`${base}/api/status.json`)).status, 200, 'and the server goes on');
});
