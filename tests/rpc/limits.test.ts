/**
 * The RPC bounds of SPEC §8, each hit exactly at its edge: 65,536 bytes and 32
 * operations per HTTP batch (checked before capnweb parses: 413, nothing run), 100
 * sessions per 60 s per address with WebSocket upgrades counted (the 101st is a 429 with
 * Retry-After and the RateLimit fields), the session call and work budgets (pipelining
 * and `.map()` included), and the 131,072-byte export bound of a batch.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { newHttpBatchRpcSession } from 'capnweb';
import { LIMITS } from '../../src/core/limits.ts';
import type { Root } from '../../src/rpc/api.d.ts';
import { startRpcServer, type RpcServer } from './server.ts';

let server: RpcServer;
before(async () => {
  server = await startRpcServer({ rpc: { sessions: 100_000 } });
});
after(() => server.close());

const post = (body: string, url = server.rpcUrl) => fetch(url, { method: 'POST', body });

/** A batch of `calls` pushed service.health() calls, each pulled; padded with spaces inside the last message to `bytes` if given. */
function rawBatch(calls: number, bytes?: number): string {
  const lines: string[] = [];
  for (let i = 1; i <= calls; i++) lines.push('["push",["pipeline",0,["service","health"],[]]]', `["pull",${i}]`);
  let body = lines.join('\n');
  if (bytes !== undefined) {
    const padding = bytes - Buffer.byteLength(body) - '\n["push",["pipeline",0,["service","describe"],[]]]'.length;
    body += `\n["push",["pipeline",0,["service","describe"],[]${' '.repeat(padding)}]]`;
  }
  return body;
}

test('a batch of exactly 65,536 bytes runs; one byte more is a 413 problem and nothing runs', async () => {
  const atBound = rawBatch(2, LIMITS.rpcBatchBytesMax);
  assert.equal(Buffer.byteLength(atBound), 65_536);
  const ok = await post(atBound);
  assert.equal(ok.status, 200);
  assert.match(await ok.text(), /\["resolve",1,/);
  const over = await post(rawBatch(2, LIMITS.rpcBatchBytesMax + 1));
  assert.equal(over.status, 413);
  assert.equal(over.headers.get('content-type'), 'application/problem+json');
  assert.equal(((await over.json()) as { type: string }).type, '/problems/rpc-batch-too-large');
});

test('32 operations in a batch run; 33 are a 413 problem, counted before capnweb runs', async () => {
  const ok = await post(rawBatch(32));
  assert.equal(ok.status, 200);
  assert.equal((await ok.text()).split('\n').length, 32, 'every call answered');
  const over = await post(rawBatch(33));
  assert.equal(over.status, 413);
  assert.match(((await over.json()) as { detail: string }).detail, /more than 32 operations/);
  // Operations nested in arguments count too: a call whose one argument is an array of 32 property reads.
  const nested = `["push",["pipeline",0,["service","health"],[[[${Array.from({ length: 32 }, () => '["pipeline",0,["service"]]').join(',')}]]]]]`;
  assert.equal((await post(nested)).status, 413);
  // The real client meets the same bound.
  const api = newHttpBatchRpcSession<Root>(server.rpcUrl);
  assert.equal((await Promise.all(Array.from({ length: 32 }, () => api.service.health()))).length, 32);
  const tooMany = newHttpBatchRpcSession<Root>(server.rpcUrl);
  await assert.rejects(() => Promise.all(Array.from({ length: 33 }, () => tooMany.service.health())), /413/);
});

test('a body that is not capnweb’s format is a 400 problem; a GET without an upgrade is a 426 naming both ways in', async () => {
  const malformed = await post('{"not": "a batch"');
  assert.equal(malformed.status, 400);
  assert.equal(((await malformed.json()) as { type: string }).type, '/problems/rpc-batch-malformed');
  const get = await fetch(server.rpcUrl);
  assert.equal(get.status, 426);
  assert.equal(get.headers.get('upgrade'), 'websocket');
  assert.match(((await get.json()) as { detail: string }).detail, /POST \/api\/rpc.*Upgrade: websocket/);
  const options = await fetch(server.rpcUrl, { method: 'OPTIONS' });
  assert.equal(options.status, 204);
  assert.match(options.headers.get('access-control-allow-methods') ?? '', /POST/);
});

/** A raw WebSocket handshake to the RPC path; resolves with the status line and headers. */
async function handshake(base: string): Promise<string> {
  const url = new URL(base);
  const socket = connect({ host: url.hostname, port: Number(url.port) });
  await once(socket, 'connect');
  socket.write(
    [
      'GET /api/rpc HTTP/1.1',
      `Host: ${url.host}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      'Sec-WebSocket-Version: 13',
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
      '',
      '',
    ].join('\r\n'),
  );
  const [chunk] = (await once(socket, 'data')) as [Buffer];
  socket.destroy();
  return chunk.toString();
}

test('100 sessions per address in 60 seconds, upgrades counted: the 101st is a 429 with Retry-After and RateLimit fields', async () => {
  const limited = await startRpcServer({ runtime: server.runtime, rpc: {} });
  try {
    for (let i = 0; i < 99; i++) assert.equal((await post(rawBatch(1), limited.rpcUrl)).status, 200, `session ${i + 1}`);
    assert.match(await handshake(limited.base), /^HTTP\/1\.1 101 /, 'the 100th session, a WebSocket');
    const refused = await post(rawBatch(1), limited.rpcUrl);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '60');
    assert.match(refused.headers.get('ratelimit-policy') ?? '', /^"rpc-sessions";q=100;w=60$/);
    assert.match(refused.headers.get('ratelimit') ?? '', /^"rpc-sessions";r=0;t=\d+$/);
    assert.equal(((await refused.json()) as { type: string }).type, '/problems/rate-limited');
    assert.match(await handshake(limited.base), /^HTTP\/1\.1 429 [\s\S]*Retry-After: 60/, 'an upgrade past the quota is refused the same way');
  } finally {
    limited.dropSockets();
    await limited.close();
  }
});

/** The code a call fails with. */
async function codeOf(call: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await call();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

test('the call budget: exactly its calls run, the next is RESOURCE_LIMIT; .map() replays are calls', async () => {
  const budgeted = await startRpcServer({ runtime: server.runtime, rpc: { sessions: 1000, budgets: { calls: 5, work: 10_000 } } });
  try {
    const api = () => newHttpBatchRpcSession<Root>(budgeted.rpcUrl);
    const five = api();
    assert.equal(
      (await Promise.all([five.service.health(), five.service.health(), five.service.health(), five.service.health(), five.service.health()])).length,
      5,
    );
    const six = api();
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => six.service.health()));
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 5);
    assert.equal((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason.code, 'RESOURCE_LIMIT');
    // content.movies (1), first (2), records (3), then one health() per record: the fourth replay is over.
    const mapped = api();
    assert.equal(
      await codeOf(() =>
        mapped.content.movies
          .first(10)
          .records()
          .map(() => mapped.service.health()),
      ),
      'RESOURCE_LIMIT',
    );
  } finally {
    await budgeted.close();
  }
});

test('the work budget: a records() of n weighs n + 1, an info() 1; exactly the budget runs, the next unit is RESOURCE_LIMIT', async () => {
  const budgeted = await startRpcServer({ runtime: server.runtime, rpc: { sessions: 1000, budgets: { calls: 1000, work: 102 } } });
  try {
    const api = newHttpBatchRpcSession<Root>(budgeted.rpcUrl);
    const page = api.feed.select().first(100);
    const [records, info] = await Promise.all([page.records(), page.info()]);
    assert.equal(records.length, 100);
    assert.equal(info.pageSize, 100);
    const over = newHttpBatchRpcSession<Root>(budgeted.rpcUrl);
    const again = over.feed.select().first(100);
    const settled = await Promise.allSettled([again.records(), again.info(), again.info()]);
    assert.deepEqual(
      settled.map((s) => s.status),
      ['fulfilled', 'fulfilled', 'rejected'],
    );
    assert.equal((settled[2] as PromiseRejectedResult).reason.code, 'RESOURCE_LIMIT');
  } finally {
    await budgeted.close();
  }
});
