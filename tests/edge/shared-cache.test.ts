/**
 * A CDN in front of the runtime, of the kind that keys its cache on the URL alone and
 * ignores `Vary` (Cloudflare's cache does, images aside): whatever order clients come in,
 * none gets another's representation of a negotiated URL. The cache here is a small
 * proxy that stores what the runtime's caching fields allow — either `Cache-Control`
 * alone, or, as CDNs that read RFC 9213 targeted fields do, `CDN-Cache-Control` or
 * `Surrogate-Control` first — and never looks at `Vary`.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { startServer, type RunningServer } from '../helpers/server.ts';

interface Stored {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/** Whether a response may be stored, read from the first of `fields` it carries. */
function storable(headers: Headers, fields: readonly string[]): boolean {
  const field = fields.find((f) => headers.has(f));
  if (!field) return false;
  const directives = headers
    .get(field)!
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  if (directives.some((d) => d === 'no-store' || d === 'private' || d === 'no-cache')) return false;
  return directives.some((d) => /^(s-maxage|max-age)=[1-9]\d*$/.test(d));
}

/** A URL-keyed caching proxy to `origin` that ignores Vary; counts what it stored. */
async function cachingProxy(origin: string, fields: readonly string[]): Promise<{ base: string; stored: Map<string, Stored>; close: () => Promise<void> }> {
  const stored = new Map<string, Stored>();
  const server: Server = createServer(async (req, res) => {
    const key = req.url!;
    let answer = stored.get(key);
    if (!answer) {
      const headers = Object.fromEntries(
        Object.entries(req.headers)
          .filter(([k]) => k !== 'host' && k !== 'connection')
          .map(([k, v]) => [k, String(v)]),
      );
      const response = await fetch(`${origin}${key}`, { headers, redirect: 'manual' });
      answer = {
        status: response.status,
        headers: [...response.headers].filter(([k]) => k !== 'content-encoding' && k !== 'transfer-encoding' && k !== 'connection' && k !== 'keep-alive'),
        body: Buffer.from(await response.arrayBuffer()),
      };
      if (response.status === 200 && storable(response.headers, fields)) stored.set(key, answer);
    }
    res.writeHead(answer.status, Object.fromEntries(answer.headers.filter(([k]) => k !== 'content-length')));
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stored, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

let origin: RunningServer;
before(async () => {
  origin = await startServer();
});
after(() => origin.stop());

const recordPage = async () => {
  const page = (await (await fetch(`${origin.base}/api/movies.json`)).json()) as { data: { canonicalId: string }[] };
  return `/movies/${page.data[0]!.canonicalId}`;
};

/** Negotiated URLs with two representations each: what a client asks for and the media type it must get. */
const cases = async () => [
  { path: '/movies/', a: ['text/html', 'text/html'], b: ['text/markdown', 'text/markdown'] },
  { path: '/movies/?genre=Drama', a: ['text/html', 'text/html'], b: ['text/markdown', 'text/markdown'] },
  { path: await recordPage(), a: ['text/html', 'text/html'], b: ['text/markdown', 'text/markdown'] },
  { path: '/api/movies.json', a: ['application/json', 'application/json'], b: ['text/csv', 'text/csv'] },
  { path: '/api/places.json?limit=3', a: ['application/json', 'application/json'], b: ['application/geo+json', 'application/geo+json'] },
  { path: '/problems/invalid-cursor', a: ['application/json', 'application/json'], b: ['text/html', 'text/html'] },
];

for (const [name, fields] of [
  ['Cache-Control alone', ['Cache-Control']],
  ['CDN-Cache-Control, Surrogate-Control, then Cache-Control', ['CDN-Cache-Control', 'Surrogate-Control', 'Cache-Control']],
] as const) {
  test(`a URL-keyed cache that ignores Vary and reads ${name} never serves one client's representation to another, in either order`, async () => {
    for (const { path, a, b } of await cases()) {
      for (const order of [
        [a, b, a, b],
        [b, a, b, a],
      ]) {
        const proxy = await cachingProxy(origin.base, fields);
        try {
          for (const [accept, expected] of order) {
            const direct = await fetch(`${origin.base}${path}`, { headers: { Accept: accept! } });
            const viaCache = await fetch(`${proxy.base}${path}`, { headers: { Accept: accept! } });
            assert.equal(viaCache.status, 200, `${path} ${accept}`);
            assert.equal(
              viaCache.headers.get('content-type')!.split(';')[0],
              expected,
              `${path}: asked ${accept}, order ${order.map((o) => o[0]).join(' → ')}`,
            );
            assert.deepEqual(Buffer.from(await viaCache.arrayBuffer()), Buffer.from(await direct.arrayBuffer()), `${path} ${accept}`);
          }
          assert.equal(proxy.stored.size, 0, `${path}: a negotiated answer was stored by a cache that ignores Vary`);
        } finally {
          await proxy.close();
        }
      }
    }
  });
}

test('a URL-keyed cache still stores what is not negotiated (an export, a stylesheet)', async () => {
  const proxy = await cachingProxy(origin.base, ['CDN-Cache-Control', 'Surrogate-Control', 'Cache-Control']);
  try {
    for (const path of ['/places.geojson', '/openapi.json']) {
      await (await fetch(`${proxy.base}${path}`)).arrayBuffer();
      assert.ok(proxy.stored.has(path), path);
    }
  } finally {
    await proxy.close();
  }
});
