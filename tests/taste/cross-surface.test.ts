/**
 * The taste layer across surfaces, on the built site's runtime behind the real
 * dispatcher: REST (the music POSTs, the taste summary), RPC (the capnweb client) and MCP
 * (the SDK client) read one generation's taste sources, so each collection's records are
 * read once per generation however many surfaces ask; and MCP's `taste.recommend` and
 * RPC's `discovery.recommend` pick the same records in the same order on the same
 * evidence (src/taste/recommend.ts).
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
  const result = (await client.callTool({ name, arguments: args })) as {
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
    content: { text: string }[];
  };
  assert.notEqual(result.isError, true, result.content[0]?.text);
  return result.structuredContent!;
}

test('the music catalog, its similarity index and the taste records are the generation’s: read once, shared by REST, RPC and MCP', async () => {
  const profile = (await (await fetch(new URL('/.well-known/taste-profile.json', served.base))).json()) as Record<string, unknown>;
  const station = { schemaVersion: '1', stationSeed: 'shared', affinities: [], votes: [], hardExclusions: [], recentCanonicalIds: [], limit: 6 };
  const restIntersection = await post('/api/music/intersections.json', { profile });
  const restStation = await post('/api/music/station.json', station);
  const api = rpc();
  const [rpcIntersection, rpcStation, rpcProfile, rpcSummary] = await Promise.all([
    api.taste.music.intersect({ profile: profile as never }),
    api.taste.music.station(station),
    api.taste.profile(),
    api.taste.summary(),
  ]);
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

/** Intents over each collection's demo records: fields, decades, owner marks, no signal, no match. */
const INTENTS: Readonly<Record<string, readonly string[]>> = {
  movies: ['Tokyo drama', 'a slow 90s crime film', 'Coen comedy', 'something by Wim Wenders', 'science fiction from the 2010s'],
  places: ['coffee in Lisbon', 'bars in Berlin', 'nature near Zürich', 'a cafe in Paris'],
  music: ['radiohead', 'electronic from the 2000s', 'art rock', 'fado'],
  concerts: ['Radiohead in Berlin', 'a gig in Zürich', 'Elbphilharmonie'],
  books: ['Ted Chiang', 'science fiction novels'],
};
const EVERYWHERE = ['something good please', 'zzzqqq xylophone polka'];

/** The code RPC's contract gives the evidence MCP codes as `code`: the owner's marks by name, every match of the intent as one code. */
const rpcCode = (code: string) =>
  code === 'recommended' ? 'owner-recommended' : code === 'rated' || code.startsWith('stance-') ? 'owner-rating' : 'field-mentions-intent';

interface McpPick {
  canonicalId: string;
  evidenceDetails: { code: string; text: string; fields: string[] }[];
}

async function mcpPicks(intent: string, collection: string): Promise<{ picks: McpPick[]; total: number }> {
  const out = await tool('taste.recommend', { intent, collection, limit: 10 });
  return { picks: out.recommendations as McpPick[], total: (out.counts as { totalCount: number }).totalCount };
}

/** RPC's picks from a candidate selection, each with its explanation (a second session: a batch session answers once). */
async function rpcPicks(intent: string, candidates: (api: ReturnType<typeof rpc>) => unknown): Promise<McpPick[]> {
  const first = rpc();
  const items = await first.discovery.recommend({ intent, limit: 10 }, candidates(first) as never).items();
  const again = rpc();
  const recommendations = again.discovery.recommend({ intent, limit: 10 }, candidates(again) as never);
  const explained = await Promise.all(items.map((item) => recommendations.explain({ canonicalId: item.canonicalId })));
  return explained.map((e) => ({ canonicalId: e.canonicalId, evidenceDetails: e.evidenceDetails }));
}

/** MCP's picks as RPC's contract spells their evidence. */
const asRpc = (picks: McpPick[]) =>
  picks.map((p) => ({ canonicalId: p.canonicalId, evidenceDetails: p.evidenceDetails.map((d) => ({ ...d, code: rpcCode(d.code) })) }));

test('MCP taste.recommend and RPC discovery.recommend give the same picks, in the same order, on the same evidence', async () => {
  let compared = 0;
  for (const [collection, intents] of Object.entries(INTENTS)) {
    const info = await rpc().content[collection as 'movies'].first(100).info();
    assert.ok(info.totalCount <= 100, `${collection}: the page of 100 holds every record, so both surfaces rank the same candidates`);
    for (const intent of [...intents, ...EVERYWHERE]) {
      const mcp = await mcpPicks(intent, collection);
      const viaRpc = await rpcPicks(intent, (api) => api.content[collection as 'movies'].first(100));
      assert.deepEqual(viaRpc, asRpc(mcp.picks), `${collection}: "${intent}"`);
      compared += mcp.picks.length;
    }
  }
  assert.ok(compared >= 30, `the intents pick records (${compared} compared)`);
});

test('a feed item or search hit is judged by the record it stands for, as MCP judges that record', async () => {
  for (const [intent, collection, candidates] of [
    ['something by Wim Wenders', 'movies', (api: ReturnType<typeof rpc>) => api.feed.select({ collections: ['movies'] }).first(100)],
    ['radiohead', 'music', (api: ReturnType<typeof rpc>) => api.discovery.search({ query: 'radiohead', collections: ['music'] }).first(100)],
  ] as const) {
    const mcp = await mcpPicks(intent, collection);
    assert.ok(mcp.total <= 10, 'MCP lists every match');
    const pool = new Set((await candidates(rpc()).items()).map((i) => i.canonicalId));
    const viaRpc = await rpcPicks(intent, candidates);
    assert.ok(viaRpc.length > 0, `${intent}: picks`);
    assert.deepEqual(viaRpc, asRpc(mcp.picks.filter((p) => pool.has(p.canonicalId))), intent);
  }
});

test('the intent bound is one limit at its edge on both surfaces, each refusing in its own form', async () => {
  const longest = 'jazz '.repeat(60);
  assert.equal([...longest].length, 300);
  await tool('taste.recommend', { intent: longest });
  const accepted = rpc();
  await accepted.discovery.recommend({ intent: longest }, accepted.content.music.first(10)).items();
  const mcpRefusal = (await client.callTool({ name: 'taste.recommend', arguments: { intent: `${longest}x` } })) as {
    isError?: boolean;
    content: { text: string }[];
  };
  assert.equal(mcpRefusal.isError, true);
  assert.match(mcpRefusal.content[0]!.text, /^Invalid arguments for taste\.recommend: .*intent/);
  const api = rpc();
  const [rpcRefusal] = await Promise.allSettled([api.discovery.recommend({ intent: `${longest}x` }, api.content.music.first(10)).items()]);
  const reason = (rpcRefusal as PromiseRejectedResult).reason as { code: string; message: string };
  assert.equal(reason.code, 'INVALID_ARGUMENT');
  assert.match(reason.message, /^recommend\.intent: intent is at most 300 characters/);
});
