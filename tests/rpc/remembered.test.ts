/**
 * Remembered RPC batch answers (functions/rpc.ts): the same batch text asked again gets the
 * bytes a fresh session computed, identical to a handler with no memory at all, and every
 * batch still opens (and spends) a session of the address's quota.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startRpcServer, type RpcServer } from './server.ts';

// What the capnweb client sends for content.movies.matching({genre}).first(5), then records() and info(), pipelined.
const BATCH = [
  '["push",["pipeline",0,["content","movies","matching"],[{"genre":"Drama"}]]]',
  '["push",["pipeline",1,["first"],[5]]]',
  '["push",["pipeline",2,["records"],[]]]',
  '["push",["pipeline",2,["info"],[]]]',
  '["pull",3]',
  '["pull",4]',
].join('\n');

let warm: RpcServer;
let cold: RpcServer;
before(async () => {
  warm = await startRpcServer({ rpc: { sessions: 5 } });
  cold = await startRpcServer({ rpc: { sessions: 100, cacheBytes: 0 } });
});
after(async () => {
  await warm?.close();
  await cold?.close();
});

const send = (server: RpcServer, body: string) => fetch(server.rpcUrl, { method: 'POST', body });

test('a repeated batch is answered with the bytes a fresh session computes, and spends a session each time', async () => {
  const computed = await (await send(cold, BATCH)).text();
  assert.match(computed, /^\["resolve",4,.*\n\["resolve",3,\[\[\{"canonicalId"/);
  const answers = [];
  for (let i = 0; i < 5; i++) answers.push(await send(warm, BATCH));
  for (const answer of answers) {
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('Cache-Control'), 'no-store');
    assert.equal(await answer.text(), computed);
  }
  const left = answers.map((a) => Number(/;r=(\d+)/.exec(a.headers.get('RateLimit') ?? '')?.[1]));
  assert.deepEqual(left, [4, 3, 2, 1, 0]);
  const refused = await send(warm, BATCH);
  assert.equal(refused.status, 429);
  assert.match(refused.headers.get('Content-Type') ?? '', /problem\+json/);
});

test('another batch text is never answered with a remembered one', async () => {
  const comedy = BATCH.replace('Drama', 'Comedy');
  const [a, b] = [await (await send(cold, comedy)).text(), await (await send(cold, BATCH)).text()];
  assert.notEqual(a, b);
});
