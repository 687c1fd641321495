/**
 * Remembered `tools/call` answers (functions/mcp.ts): the same call asked again is answered
 * from memory with exactly the bytes the SDK's transport wrote the first time, but for the
 * request's own id; a runtime with the answer cache off computes the same bytes; and both
 * quotas are still charged on every replay.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { post, serve, type Served } from './helpers.ts';

const call = (id: unknown, args: Record<string, unknown> = { collection: 'movies', filters: { genre: 'Drama' }, limit: 5 }) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'taste.find', arguments: args },
});
const VERSION = { 'MCP-Protocol-Version': '2025-11-25' };

let warm: Served;
let cold: Served;
before(async () => {
  warm = await serve({ mcpQuota: 1_000, mcpWorkBudget: 6 });
  cold = await serve({ mcpQuota: 1_000, answerCacheBytes: 0 });
});
after(async () => {
  await warm?.close();
  await cold?.close();
});

const remaining = (response: Response) => Number(/;r=(\d+)/.exec(response.headers.get('RateLimit') ?? '')?.[1]);

test('a repeated tools/call is answered with the computed bytes and its own id; every call spends both quotas', async () => {
  const ids: unknown[] = [1, 'second', 3, -4];
  const answers: Response[] = [];
  for (const id of ids) answers.push(await post(warm.base, call(id), VERSION));
  const bodies = await Promise.all(answers.map((r) => r.text()));
  for (const [i, response] of answers.entries()) {
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('Content-Type'), 'application/json');
    assert.equal(response.headers.get('Cache-Control'), 'no-store');
    assert.deepEqual(JSON.parse(bodies[i]!).id, ids[i]);
  }
  // Remembered from its second request, replayed from its third: the same bytes as computed without any cache.
  const computed = await (await post(cold.base, call(3), VERSION)).text();
  assert.equal(bodies[2], computed);
  assert.equal(bodies[3], computed.replace(/"id":3}$/, '"id":-4}'));
  // Each call spent a request of the quota, replays included.
  const left = answers.map(remaining);
  assert.deepEqual(
    left,
    left.map((_, i) => left[0]! - i),
  );
  // …and a unit of tool work: 6 units, 4 spent, 2 more calls pass, the next is refused before any replay.
  assert.equal((await post(warm.base, call(5), VERSION)).status, 200);
  assert.equal((await post(warm.base, call(6), VERSION)).status, 200);
  const refused = await post(warm.base, call(7), VERSION);
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get('Retry-After') !== null, true);
});

test('calls that differ in arguments, headers or members are never answered with another call’s bytes', async () => {
  const served = await serve({ mcpQuota: 1_000, mcpWorkBudget: 1_000 });
  try {
    for (let i = 0; i < 3; i++) await post(served.base, call(i), VERSION);
    const other = JSON.parse(await (await post(served.base, call(9, { collection: 'movies', filters: { genre: 'Comedy' }, limit: 5 }), VERSION)).text());
    const drama = JSON.parse(await (await post(cold.base, call(9), VERSION)).text());
    assert.notDeepEqual(other.result.structuredContent.canonicalIds, drama.result.structuredContent.canonicalIds);
    // The same call with `_meta` or another protocol version goes through the transport: still the same records, its own id.
    const withMeta = { ...call(10), params: { ...call(10).params, _meta: { progressToken: 'p' } } };
    const metaAnswer = JSON.parse(await (await post(served.base, withMeta, VERSION)).text());
    assert.equal(metaAnswer.id, 10);
    assert.deepEqual(metaAnswer.result.structuredContent.canonicalIds, drama.result.structuredContent.canonicalIds);
    const unsupported = await post(served.base, call(11), { 'MCP-Protocol-Version': '1999-01-01' });
    assert.equal(unsupported.status, 400);
    // A request the transport refuses (no text/event-stream in Accept) is refused again, not replayed.
    const notAccepted = await post(served.base, call(12), { ...VERSION, Accept: 'application/json' });
    assert.equal(notAccepted.status, 406);
  } finally {
    await served.close();
  }
});
