/**
 * The taste layer across surfaces, on the built site's runtime behind the real
 * dispatcher: REST (the music POSTs, the taste summary), RPC (the capnweb client) and MCP
 * (the SDK client) read one generation's taste sources, so each collection's records are
 * read once per generation however many surfaces ask.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { newHttpBatchRpcSession } from 'capnweb';
import type { Root } from '../../src/rpc/api.d.ts';
import { connect, serve, type Served } from '../mcp/helpers.ts';

let served: Served;
let client: Client;
/** How often the core read every record of a collection, by collection. */
const reads = new Map<string, number>();

before(async () => {
  served = await serve({ mcpQuota: 1_000_000, mcpWorkBudget: 1_000_000, restQuota: 1_000_000, rpcSessions: 1_000_000 });
  const core = served.runtime.core;
  const records = core.records.bind(core);
  core.records = (c) => {
    reads.set(c.name, (reads.get(c.name) ?? 0) + 1);
    return records(c);
  };
  client = await connect(served.base);
});
after(async () => {
  await client.close();
  await served.close();
});

const rpc = () => newHttpBatchRpcSession<Root>(new URL('/api/rpc', served.base).href);

async function post(path: string, body: unknown): Promise<unknown> {
  const response = await fetch(new URL(path, served.base), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(response.status, 200, path);
  return response.json();
}

async function tool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = (await client.callTool({ name, arguments: args })) as { structuredContent?: Record<string, unknown>; isError?: boolean; content: { text: string }[] };
  assert.notEqual(result.isError, true, result.content[0]?.text);
  return result.structuredContent!;
}

test('the music catalog, its similarity index and the taste records are the generation’s: read once, shared by REST, RPC and MCP', async () => {
  const profile = (await (await fetch(new URL('/.well-known/taste-profile.json', served.base))).json()) as Record<string, unknown>;
  const station = { schemaVersion: '1', stationSeed: 'shared', affinities: [], votes: [], hardExclusions: [], recentCanonicalIds: [], limit: 6 };
  const restIntersection = await post('/api/music/intersections.json', { profile });
  const restStation = await post('/api/music/station.json', station);
  const api = rpc();
  const [rpcIntersection, rpcStation, rpcProfile, rpcSummary] = await Promise.all([api.taste.music.intersect({ profile: profile as never }), api.taste.music.station(station), api.taste.profile(), api.taste.summary()]);
  const mcpIntersection = await tool('music.intersect', { profile });
  const mcpProfile = await tool('taste.profile', {});
  await tool('taste.summarize', {});
  const restSummary = await (await fetch(new URL('/api/taste/summary.json', served.base))).json();

  assert.deepEqual(rpcIntersection, restIntersection);
  assert.deepEqual(rpcStation, restStation);
  assert.deepEqual(rpcProfile, profile);
  assert.deepEqual(rpcSummary, restSummary);
  assert.deepEqual(mcpIntersection.matches, (restIntersection as { matches: unknown }).matches);
  assert.deepEqual(mcpProfile.music, profile.music);
  assert.equal(reads.get('music'), 1, 'the music records are read once for every surface');
  assert.equal(reads.get('movies'), 1, 'the movie records are read once for every surface');
  const sources = served.runtime.tasteSources;
  assert.equal(sources.stationDeps, sources.stationDeps, 'one similarity index');
});
