/**
 * RPC over HTTP batch with the real capnweb client: pipelined calls in one round trip,
 * the same answers as REST (every collection walked with pageAfter over fresh sessions,
 * cursors interchangeable both ways, the same totals), native Date and URL values, and
 * errors that carry a stable code and nothing else — no stack on the wire, no other own
 * property.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { newHttpBatchRpcSession } from 'capnweb';
import { restCollections } from '../../src/collections/index.ts';
import type { Root } from '../../src/rpc/api.d.ts';
import { nativeFields } from '../../src/rpc/values.ts';
import { startRpcServer, type RpcServer } from './server.ts';

let server: RpcServer;
before(async () => {
  // Sessions are plentiful here; the session quota has its own test.
  server = await startRpcServer({ rpc: { sessions: 100_000 } });
});
after(() => server.close());

const batch = () => newHttpBatchRpcSession<Root>(server.rpcUrl);

interface RestPage {
  data: Record<string, unknown>[];
  meta: { totalCount: number; pageSize: number };
  links: { next?: string };
}
const rest = async (path: string): Promise<RestPage> => {
  const response = await fetch(`${server.base}${path}`);
  assert.equal(response.status, 200, path);
  return (await response.json()) as RestPage;
};
const cursorOf = (next: string | undefined) => (next === undefined ? null : new URL(next, 'http://x').searchParams.get('cursor'));

/** A REST item as the RPC client receives it: date fields Date, URL fields URL. */
function nativeOf(collection: string, item: Record<string, unknown>): Record<string, unknown> {
  const c = restCollections.find((x) => x.name === collection)!;
  const out = { ...item };
  for (const [name, kind] of nativeFields(c)) {
    if (typeof out[name] !== 'string') continue;
    const text = out[name] as string;
    out[name] =
      kind === 'url' ? new URL(text) : new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : /(Z|[+-]\d{2}:\d{2})$/.test(text) ? text : `${text}Z`);
  }
  return out;
}

/** Counts the HTTP requests the client makes while `run` runs. */
async function roundTrips<T>(run: () => Promise<T>): Promise<{ value: T; requests: number; bodies: string[] }> {
  const original = globalThis.fetch;
  let requests = 0;
  const bodies: string[] = [];
  globalThis.fetch = async (input, init) => {
    requests += 1;
    const response = await original(input, init);
    const text = await response.text();
    bodies.push(text);
    return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  try {
    return { value: await run(), requests, bodies };
  } finally {
    globalThis.fetch = original;
  }
}

test('a pipelined batch — a filtered, sized selection, its info and its records — is one round trip', async () => {
  const { value, requests } = await roundTrips(async () => {
    const api = batch();
    const movies = api.content.movies.matching({ type: 'movie' }).first(5);
    return Promise.all([movies.info(), movies.records(), api.service.health()]);
  });
  assert.equal(requests, 1);
  const [info, records, health] = value;
  assert.equal(records.length, 5);
  assert.equal(info.pageSize, 5);
  assert.equal(health.status, 'ok');
  const restPage = await rest('/api/movies.json?type=movie&limit=5');
  assert.equal(info.totalCount, restPage.meta.totalCount);
  assert.deepEqual(
    records,
    restPage.data.map((item) => nativeOf('movies', item)),
  );
});

test('every collection walked with pageAfter over fresh batch sessions is the REST walk, page for page', async () => {
  for (const c of restCollections) {
    const size = c.name === 'movies' ? 7 : 100;
    let restPage = await rest(`/api/${c.name}.json?limit=${size}`);
    let selection = await (async () => {
      const s = batch().content[c.name as 'movies'].first(size);
      return Promise.all([s.info(), s.records()]);
    })();
    let pages = 0;
    for (;;) {
      const [info, records] = selection;
      pages += 1;
      assert.equal(info.totalCount, restPage.meta.totalCount, `${c.name} totalCount`);
      assert.deepEqual(
        records,
        restPage.data.map((item) => nativeOf(c.name, item)),
        `${c.name} page ${pages}`,
      );
      assert.equal(info.endCursor, cursorOf(restPage.links.next), `${c.name} cursor of page ${pages}`);
      assert.equal(info.hasNextPage, restPage.links.next !== undefined);
      if (info.endCursor === null) break;
      const cursor = info.endCursor;
      restPage = await rest(restPage.links.next!);
      const s = batch().content[c.name as 'movies'].pageAfter(cursor, size);
      selection = await Promise.all([s.info(), s.records()]);
    }
    assert.ok(pages >= 1);
  }
});

test('cursors are interchangeable: a REST cursor resumes over RPC, an endCursor resumes over REST', async () => {
  const page1 = await rest('/api/feed-items.json?limit=10&collection=movies&collection=places');
  const restCursor = cursorOf(page1.links.next)!;
  const rpcPage2 = await batch()
    .feed.select({ collections: ['movies', 'places'] })
    .pageAfter(restCursor, 10)
    .records();
  const page2 = await rest(page1.links.next!);
  assert.deepEqual(
    rpcPage2.map((r) => r.canonicalId),
    page2.data.map((r) => r.canonicalId),
  );
  const info = await batch()
    .content.places.orderedBy([{ field: 'name', direction: 'desc' }])
    .first(3)
    .info();
  const viaRest = await rest(`/api/places.json?sort=name:desc&limit=3&cursor=${encodeURIComponent(info.endCursor!)}`);
  const viaRpc = await batch()
    .content.places.orderedBy([{ field: 'name', direction: 'desc' }])
    .pageAfter(info.endCursor!, 3)
    .records();
  assert.deepEqual(
    viaRpc.map((r) => r.canonicalId),
    viaRest.data.map((r) => r.canonicalId),
  );
});

test('dates and URLs arrive as native Date and URL values', async () => {
  const api = batch();
  const [records, items, info, feed] = await Promise.all([
    api.content.movies.first(3).records(),
    api.content.places.first(3).items(),
    api.content.movies.first(1).info(),
    api.feed.select().first(3).records(),
  ]);
  assert.ok(records[0]!.addedAt instanceof Date);
  assert.ok(info.dataAsOf instanceof Date);
  assert.ok(items[0]!.url instanceof URL);
  assert.ok(feed[0]!.url instanceof URL);
  assert.ok(feed[0]!.date instanceof Date);
});

test('search and the feed are REST’s search and feed items', async () => {
  const api = batch();
  const [hits, info, feed] = await Promise.all([
    api.discovery.search({ query: 'the' }).first(20).records(),
    api.discovery.search({ query: 'the' }).info(),
    api.feed
      .select({ collections: ['movies'] })
      .first(20)
      .records(),
  ]);
  const restHits = await rest('/api/search.json?q=the&limit=20');
  assert.deepEqual(
    hits.map((h) => h.canonicalId),
    restHits.data.map((h) => h.canonicalId),
  );
  assert.equal(info.totalCount, restHits.meta.totalCount);
  const restFeed = await rest('/api/feed-items.json?collection=movies&limit=20');
  assert.deepEqual(
    feed.map((h) => h.canonicalId),
    restFeed.data.map((h) => h.canonicalId),
  );
});

/** The error a call fails with. */
async function failure(call: () => Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await call();
  } catch (error) {
    return error as Error & { code?: string };
  }
  assert.fail('the call succeeded');
}

test('a bad filter, sort field, page size or cursor fails with INVALID_ARGUMENT naming the argument, as REST’s 400 names the parameter', async () => {
  const cases: [() => Promise<unknown>, RegExp][] = [
    [
      () =>
        batch()
          .content.movies.matching({ gnere: 'Drama' } as never)
          .info(),
      /^matching\.gnere: /,
    ],
    [() => batch().content.movies.matching({ year: 'soon' }).records(), /^matching\.year: /],
    [
      () =>
        batch()
          .content.movies.orderedBy([{ field: 'colour' as never, direction: 'asc' }])
          .info(),
      /^orderedBy\(keys\): /,
    ],
    [() => batch().content.movies.first(101).info(), /^first\(n\): /],
    [() => batch().content.movies.pageAfter('not-a-cursor').info(), /^pageAfter\(cursor\): /],
    [() => batch().discovery.search({ query: '' }).info(), /^search\.query: /],
  ];
  for (const [call, message] of cases) {
    const error = await failure(call);
    assert.equal(error.code, 'INVALID_ARGUMENT', error.message);
    assert.match(error.message, message);
  }
  // A cursor of another query is refused, as REST refuses it.
  const cursor = (await batch().content.movies.first(2).info()).endCursor!;
  assert.equal((await failure(() => batch().content.books.pageAfter(cursor).records())).code, 'INVALID_ARGUMENT');
});

test('errors carry their code and message only: no stack on the wire, no other own property; members that do not exist are NOT_FOUND', async () => {
  const { value: error, bodies } = await roundTrips(() =>
    failure(() =>
      batch()
        .content.movies.matching({ nope: 1 } as never)
        .info(),
    ),
  );
  assert.deepEqual(Object.keys(error), ['code']);
  assert.doesNotMatch(bodies.join('\n'), /\n\s*at |\.ts:\d|\/work\/|node_modules/);
  const rejected = bodies
    .join('\n')
    .split('\n')
    .map((line) => JSON.parse(line) as unknown[])
    .find((message) => message[0] === 'reject')!;
  const [tag, name, message, stack, properties, ...rest] = rejected[2] as unknown[];
  assert.deepEqual(
    [tag, name, stack, properties, rest],
    ['error', 'Error', null, { code: 'INVALID_ARGUMENT' }, []],
    'name, message, no stack, the code and nothing else',
  );
  assert.match(String(message), /^matching\.nope: /);
  for (const member of ['open', 'query', 'getMeta', 'getStatus']) {
    const missing = await failure(() => (batch() as unknown as Record<string, () => Promise<unknown>>)[member]!());
    assert.equal(missing.code, 'NOT_FOUND', member);
    assert.deepEqual(Object.keys(missing), ['code']);
  }
});

test('next() and feed.stream() need a WebSocket: over HTTP batch they fail with WEBSOCKET_REQUIRED', async () => {
  assert.equal((await failure(() => batch().content.movies.first(2).next().info())).code, 'WEBSOCKET_REQUIRED');
  assert.equal((await failure(() => batch().feed.stream())).code, 'WEBSOCKET_REQUIRED');
});

test('a batch session is single-use: its stubs stop working once the batch is answered', async () => {
  const api = batch();
  await api.service.health();
  await assert.rejects(() => Promise.resolve(api.service.health()));
});
