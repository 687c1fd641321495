/**
 * RPC over WebSocket with the real capnweb client: `next()` walks a collection as REST
 * does, `feed.stream()` delivers every feed item exactly once, and the session bounds
 * hold at their edges — message size (`maxPayload`), operations per message, calls in
 * flight, idle time. When the socket drops, every capability derived in the session is
 * dead, and a new session rebuilds them.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, test } from 'node:test';
import { newWebSocketRpcSession, type RpcStub } from 'capnweb';
import { WebSocket as WsClient } from 'ws';
import { LIMITS } from '../../src/core/limits.ts';
import type { Root } from '../../src/rpc/api.d.ts';
import { startRpcServer, type RpcServer } from './server.ts';

let server: RpcServer;
before(async () => {
  server = await startRpcServer({ rpc: { sessions: 100_000 } });
});
after(() => server.close());

const sessions: RpcStub<Root>[] = [];
const open = (url = server.wsUrl) => {
  const api = newWebSocketRpcSession<Root>(url);
  sessions.push(api);
  return api;
};
after(() => {
  for (const api of sessions) api[Symbol.dispose]();
});

interface RestPage {
  data: { canonicalId: string }[];
  links: { next?: string };
}
async function restWalk(path: string): Promise<string[]> {
  const ids: string[] = [];
  let next: string | undefined = path;
  while (next !== undefined) {
    const page = (await (await fetch(`${server.base}${next}`)).json()) as RestPage;
    ids.push(...page.data.map((item) => item.canonicalId));
    next = page.links.next;
  }
  return ids;
}

test('next() walks a selection page after page, as REST’s next links do', async () => {
  const api = open();
  const ids: string[] = [];
  let page = api.content['sporting-events'].orderedBy([{ field: 'date', direction: 'asc' }]).first(7);
  for (;;) {
    const [info, records] = await Promise.all([page.info(), page.records()]);
    ids.push(...records.map((r) => r.canonicalId));
    if (!info.hasNextPage) break;
    page = page.next();
  }
  assert.deepEqual(ids, await restWalk('/api/sporting-events.json?sort=date:asc&limit=7'));
  await assert.rejects(
    () => Promise.resolve(page.next().info()),
    (error: { code?: string }) => error.code === 'NOT_FOUND',
  );
});

test('feed.stream() delivers every feed item of its selection exactly once, newest first, then ends', async () => {
  const api = open();
  const stream = await api.feed.stream();
  const ids: string[] = [];
  for await (const item of stream) {
    assert.ok(item.date instanceof Date && item.url instanceof URL);
    ids.push(item.canonicalId);
  }
  const expected = await restWalk('/api/feed-items.json?limit=100');
  assert.equal(ids.length, expected.length);
  assert.equal(new Set(ids).size, ids.length, 'each once');
  assert.deepEqual(ids, expected);
  const movies: string[] = [];
  for await (const item of await api.feed.stream({ collections: ['movies'] })) movies.push(item.canonicalId);
  assert.deepEqual(movies, await restWalk('/api/feed-items.json?collection=movies&limit=100'));
});

/** A raw `ws` client speaking capnweb messages, to send frames the capnweb client never would. */
async function rawSession(url = server.wsUrl): Promise<{ ws: WsClient; closed: Promise<number>; replies: string[] }> {
  const ws = new WsClient(url);
  const replies: string[] = [];
  ws.on('message', (data) => replies.push(String(data)));
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await once(ws, 'open');
  return { ws, closed, replies };
}

const healthCall = (id: number) => ['["push",["pipeline",0,["service","health"],[]]]', `["pull",${id}]`];

test('32 calls in flight are answered; a 33rd closes the session with 1008', async () => {
  const ok = await rawSession();
  const socket = (ok.ws as unknown as { _socket: import('node:net').Socket })._socket;
  socket.cork();
  for (let i = 1; i <= LIMITS.rpcInFlightMax; i++) for (const frame of healthCall(i)) ok.ws.send(frame);
  socket.uncork();
  while (ok.replies.length < 32) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(ok.replies.filter((r) => r.startsWith('["resolve"')).length, 32);
  ok.ws.close();
  const over = await rawSession();
  const overSocket = (over.ws as unknown as { _socket: import('node:net').Socket })._socket;
  overSocket.cork();
  for (let i = 1; i <= LIMITS.rpcInFlightMax + 1; i++) for (const frame of healthCall(i)) over.ws.send(frame);
  overSocket.uncork();
  assert.equal(await over.closed, 1008);
});

test('a message of 65,536 bytes is read; one byte more closes the session with 1009; so do 33 operations in one message', async () => {
  const frame = (bytes: number) => {
    const head = '["push",["pipeline",0,["service","health"],[]';
    return `${head}${' '.repeat(bytes - head.length - 2)}]]`;
  };
  const ok = await rawSession();
  ok.ws.send(frame(LIMITS.rpcBatchBytesMax));
  ok.ws.send('["pull",1]');
  while (ok.replies.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.match(ok.replies[0]!, /^\["resolve",1,/);
  ok.ws.close();
  const big = await rawSession();
  big.ws.send(frame(LIMITS.rpcBatchBytesMax + 1));
  assert.equal(await big.closed, 1009);
  const many = await rawSession();
  many.ws.send(`["push",["pipeline",0,["service","health"],[[[${Array.from({ length: 32 }, () => '["pipeline",0,["service"]]').join(',')}]]]]]`);
  assert.equal(await many.closed, 1009);
});

test('an idle session is closed after its idle time, and its capabilities die with it', async () => {
  const idle = await startRpcServer({ runtime: server.runtime, rpc: { sessions: 1000, websocket: { idleMs: 150 } } });
  try {
    const raw = await rawSession(idle.wsUrl);
    assert.equal(await raw.closed, 1001);
    const api = newWebSocketRpcSession<Root>(idle.wsUrl);
    const selection = api.content.movies.first(2);
    await selection.info();
    await new Promise((resolve) => setTimeout(resolve, 400));
    await assert.rejects(() => Promise.resolve(selection.records()));
    api[Symbol.dispose]();
  } finally {
    await idle.close();
  }
});

test('when the socket drops, every capability derived in the session rejects; a new session rebuilds them', async () => {
  const api = open();
  const selection = api.content.movies.matching({ type: 'movie' }).first(3);
  const before = await selection.records();
  assert.equal(before.length, 3);
  const broken = new Promise((resolve) => api.onRpcBroken(resolve));
  server.dropSockets();
  await broken;
  await assert.rejects(() => Promise.resolve(selection.records()));
  await assert.rejects(() => Promise.resolve(selection.next().info()));
  await assert.rejects(() => Promise.resolve(api.service.health()));
  const again = open();
  const rebuilt = await again.content.movies.matching({ type: 'movie' }).first(3).records();
  assert.deepEqual(
    rebuilt.map((r) => r.canonicalId),
    before.map((r) => r.canonicalId),
  );
});
