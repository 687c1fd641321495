/**
 * `Selection.export({format, limit})`: the bytes of each format are those the REST
 * encoders and the export files produce for the same records; a complete export holds
 * every page; a format the collection cannot produce is UNSUPPORTED_FORMAT; an HTTP
 * batch export over 131,072 bytes is RESOURCE_LIMIT naming the ways out, and the same
 * export over WebSocket succeeds whole.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { newHttpBatchRpcSession, newWebSocketRpcSession, type RpcStub } from 'capnweb';
import { paths } from '../../src/paths.ts';
import type { Root } from '../../src/rpc/api.d.ts';
import { startRpcServer, type RpcServer } from './server.ts';

let server: RpcServer;
let ws: RpcStub<Root>;
before(async () => {
  server = await startRpcServer({ rpc: { sessions: 100_000 } });
  ws = newWebSocketRpcSession<Root>(server.wsUrl);
});
after(async () => {
  ws[Symbol.dispose]();
  await server.close();
});

const batch = () => newHttpBatchRpcSession<Root>(server.rpcUrl);
const file = (name: string) => readFileSync(join(paths.dist, 'client', name), 'utf8');
const restBody = async (path: string, accept: string) => (await fetch(`${server.base}${path}`, { headers: { Accept: accept } })).text();

async function codeOf(call: () => Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await call();
  } catch (error) {
    return error as { code?: string; message: string };
  }
  assert.fail('the call succeeded');
}

test('map and calendar exports are the bytes of the export files', async () => {
  const api = batch();
  const [kml, gpx, geojson, concerts, sports] = await Promise.all([
    api.content.places.export({ format: 'kml' }),
    api.content.places.export({ format: 'gpx' }),
    api.content.places.export({ format: 'geojson', limit: 5 }),
    api.content.concerts.export({ format: 'ics' }),
    api.content['sporting-events'].export({ format: 'ics' }),
  ]);
  assert.equal(kml.body, file('places.kml'));
  assert.equal(kml.mediaType, 'application/vnd.google-earth.kml+xml; charset=utf-8');
  assert.equal(gpx.body, file('places.gpx'));
  assert.equal(concerts.body, file('concerts.ics'));
  assert.equal(sports.body, file('sports.ics'));
  assert.equal(geojson.count, 5);
  assert.equal((JSON.parse(geojson.body) as { features: unknown[] }).features.length, 5);
});

test('JSON and CSV exports are REST’s bytes for the same records', async () => {
  const api = batch();
  const [json, csv, limited] = await Promise.all([
    api.content.movies.matching({ type: 'movie' }).export({ format: 'json' }),
    api.content.movies.export({ format: 'csv' }),
    api.content.books.export({ format: 'json', limit: 3 }),
  ]);
  assert.equal(json.body, await restBody('/api/movies.json?type=movie&limit=100', 'application/json'));
  assert.equal(csv.body, await restBody('/api/movies.json?limit=100', 'text/csv'));
  assert.equal(limited.count, 3);
  assert.deepEqual(
    (JSON.parse(limited.body) as { data: unknown[] }).data,
    ((await (await fetch(`${server.base}/api/books.json?limit=3`)).json()) as { data: unknown[] }).data,
  );
});

test('a complete export holds every page; over HTTP batch a body past the bound is RESOURCE_LIMIT naming WebSocket and limit, over WebSocket it succeeds', async () => {
  const described = await batch().service.describe();
  assert.equal(described.limits.rpcBatchExportBytesMax, 131_072, 'the bound served is SPEC §8’s');
  const info = await batch().feed.select().info();
  const whole = await ws.feed.select().export({ format: 'json' });
  assert.equal(whole.count, info.totalCount);
  const ids = (JSON.parse(whole.body) as { data: { canonicalId: string }[] }).data.map((item) => item.canonicalId);
  assert.equal(new Set(ids).size, info.totalCount, 'every item, each once');
  // The demo's largest export is under 131,072 bytes: the bound is moved to its size to probe the edge.
  const bytes = Buffer.byteLength(whole.body);
  for (const [bound, fits] of [
    [bytes, true],
    [bytes - 1, false],
  ] as const) {
    const bounded = await startRpcServer({ runtime: server.runtime, rpc: { sessions: 1000, exportBytes: { batch: bound } } });
    try {
      const api = newHttpBatchRpcSession<Root>(bounded.rpcUrl);
      if (fits) assert.equal((await api.feed.select().export({ format: 'json' })).body, whole.body);
      else {
        const refused = await codeOf(() => api.feed.select().export({ format: 'json' }));
        assert.equal(refused.code, 'RESOURCE_LIMIT');
        assert.match(refused.message, new RegExp(`${bytes} bytes, over the ${bound}-byte bound.*WebSocket.*limit`));
      }
    } finally {
      await bounded.close();
    }
  }
});

test('a format the collection cannot produce is UNSUPPORTED_FORMAT; an unknown one INVALID_ARGUMENT', async () => {
  const kml = await codeOf(() => batch().content.movies.export({ format: 'kml' }));
  assert.equal(kml.code, 'UNSUPPORTED_FORMAT');
  assert.match(kml.message, /movies is not available as kml; it is available as json, csv/);
  assert.equal((await codeOf(() => batch().content.movies.export({ format: 'ics' }))).code, 'UNSUPPORTED_FORMAT');
  assert.equal((await codeOf(() => batch().content.movies.export({ format: 'pdf' as never }))).code, 'INVALID_ARGUMENT');
  assert.equal((await codeOf(() => batch().content.movies.export({ format: 'json', limit: 0 }))).code, 'INVALID_ARGUMENT');
});
