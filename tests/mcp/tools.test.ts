/**
 * Every tool through the MCP SDK client over the wire: each result carries text and a
 * structuredContent that an outside validator (@hyperjump/json-schema, 2020-12) accepts
 * against the outputSchema tools/list published; refusals are `isError` results with a
 * safe message naming the argument or bound; the taste tools answer the same documents
 * as their REST endpoints.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { LIMITS } from '../../src/core/limits.ts';
import { schemaErrors, serveWithTools, type Served } from './helpers.ts';

let served: Served;
let client: Client;
let tools: Map<string, Tool>;
before(async () => ({ served, client, tools } = await serveWithTools()));
after(async () => {
  await client.close();
  await served.close();
});

interface Result {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** Calls a tool and checks the result against the tool's published outputSchema with the outside validator. */
async function call(name: string, args: Record<string, unknown>): Promise<Result> {
  const result = (await client.callTool({ name, arguments: args })) as Result;
  assert.equal(result.content[0]?.type, 'text');
  assert.ok(result.content[0]!.text.length > 0);
  if (!result.isError) {
    assert.ok(result.structuredContent, `${name} returns structuredContent`);
    const errors = await schemaErrors(tools.get(name)!.outputSchema!, result.structuredContent);
    assert.equal(errors, undefined, `${name}: ${JSON.stringify(errors)}`);
  }
  return result;
}

/** SPEC §4.7: the current envelope fields, then the compatibility aliases. */
const ENVELOPE = ['counts', 'generatedAt', 'selection', 'evidenceDetails', 'total', 'resultVersion', 'evidence'];

const rest = async (path: string) => (await fetch(new URL(path, served.base))).json() as Promise<Record<string, unknown>>;

test('tools/list: titles, descriptions, input and output schemas, read-only annotations', async () => {
  for (const name of ['taste.find', 'taste.get', 'sports.list', 'taste.summarize', 'taste.profile', 'music.intersect']) {
    const tool = tools.get(name);
    assert.ok(tool, name);
    assert.ok(tool.title && tool.description && tool.description.length > 40, name);
    assert.equal(tool.inputSchema.type, 'object');
    assert.equal(tool.outputSchema?.type, 'object');
    assert.equal(tool.annotations?.readOnlyHint, true);
    assert.equal(tool.annotations?.openWorldHint, false);
    // The input schemas are schemas: the outside validator accepts a schema-valid empty or minimal call's shape.
    assert.equal(
      await schemaErrors(
        tool.inputSchema,
        name === 'taste.find'
          ? { collection: 'books' }
          : name === 'taste.get'
            ? { ids: ['itm_000000000000000000000000'] }
            : name === 'music.intersect'
              ? { profile: { schemaVersion: '1', music: { artists: [], recordings: [], albums: [], genres: [], notes: [] } } }
              : {},
      ),
      undefined,
      name,
    );
  }
  const filters = (tools.get('taste.find')!.inputSchema.properties as Record<string, { properties: Record<string, unknown> }>).filters.properties;
  for (const param of ['year', 'genre', 'city', 'category', 'experienceStatus', 'domain']) assert.ok(filters[param], `derived filter ${param}`);
});

test('taste.find pages with counts, the compatibility aliases and a cursor', async () => {
  const first = await call('taste.find', { collection: 'movies', sort: 'title:asc', limit: 3 });
  const page = first.structuredContent as {
    items: { canonicalId: string }[];
    canonicalIds: string[];
    nextCursor?: string;
    counts: { returnedCount: number; totalCount: number };
    total: number;
    resultVersion: number;
    evidence: string;
    generatedAt: string;
  };
  assert.equal(page.items.length, 3);
  assert.deepEqual(
    page.items.map((i) => i.canonicalId),
    page.canonicalIds,
  );
  assert.equal(page.total, page.counts.totalCount);
  assert.equal(page.counts.returnedCount, 3);
  assert.equal(typeof page.evidence, 'string');
  assert.ok(page.nextCursor);
  const second = await call('taste.find', { collection: 'movies', sort: 'title:asc', limit: 3, cursor: page.nextCursor });
  assert.notDeepEqual((second.structuredContent as { canonicalIds: string[] }).canonicalIds, page.canonicalIds);
  const restPage = (await rest('/api/movies.json?sort=title:asc&limit=6')) as { data: { canonicalId: string }[] };
  assert.deepEqual(
    [...page.canonicalIds, ...(second.structuredContent as { canonicalIds: string[] }).canonicalIds],
    restPage.data.map((d) => d.canonicalId),
  );
});

test('taste.find refusals are isError results naming the argument, never internals', async () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ collection: 'movies', filters: { city: 'Paris' } }, /filters\.city/],
    [{ collection: 'movies', limit: LIMITS.mcpFindLimitMax + 1 }, /limit/],
    [{ collection: 'movies', cursor: 'garbage' }, /invalid-cursor/],
    [{ collection: 'movies', sort: 'nope:asc' }, /sort/],
    [{ collection: 'nope' }, /collection/],
    [{ collection: 'movies', extra: 1 }, /additional properties|extra/i],
    [{ collection: 'movies', filters: JSON.parse('{"__proto__": {"year": 1}}') }, /additional properties/i],
    [{ collection: 'movies', filters: { constructor: 'x' } }, /additional properties/i],
    [{ collection: 'movies', q: 'x'.repeat(201) }, /q must NOT have more than 200 characters/],
    [{ collection: 'movies', filters: { genre: 'a\u0000b' } }, /filters\.genre/],
  ];
  for (const [args, message] of cases) {
    const result = await call('taste.find', args);
    assert.equal(result.isError, true, JSON.stringify(args));
    assert.match(result.content[0]!.text, message);
    assert.doesNotMatch(result.content[0]!.text, /\/work\/|\.ts:\d|SQLITE|\n\s+at /);
  }
  await assert.rejects(client.callTool({ name: 'no.such.tool', arguments: {} }), /Unknown tool/);
});

test('taste.get returns the REST item per ID, reports unknown IDs, and names its bound', async () => {
  const list = (await rest('/api/places.json?limit=2')) as { data: { canonicalId: string }[] };
  const books = (await rest('/api/books.json?limit=1')) as { data: { canonicalId: string }[] };
  const ids = [list.data[0]!.canonicalId, 'itm_ffffffffffffffffffffffff', books.data[0]!.canonicalId];
  const result = await call('taste.get', { ids });
  const got = result.structuredContent as { records: { canonicalId: string; collection: string; item: unknown }[]; notFound: string[] };
  assert.deepEqual(got.notFound, ['itm_ffffffffffffffffffffffff']);
  assert.deepEqual(
    got.records.map((r) => r.collection),
    ['places', 'books'],
  );
  assert.deepEqual(got.records[0]!.item, list.data[0]);
  assert.deepEqual(got.records[1]!.item, books.data[0]);
  const tooMany = await call('taste.get', { ids: Array.from({ length: LIMITS.mcpGetIdsMax + 1 }, (_, i) => `itm_${String(i).padStart(24, '0')}`) });
  assert.equal(tooMany.isError, true);
  assert.match(tooMany.content[0]!.text, new RegExp(`${LIMITS.mcpGetIdsMax}`));
});

test('sports.list takes the SPEC filters, status included, as REST does', async () => {
  const all = (await rest('/api/sporting-events.json?facets=1&limit=1')) as { meta: { facets: Record<string, { value: string }[]> } };
  const status = all.meta.facets.experienceStatus![0]!.value;
  const sport = all.meta.facets.sport![0]!.value;
  const result = await call('sports.list', { status, sport, limit: 50 });
  const restList = (await rest(`/api/sporting-events.json?experienceStatus=${encodeURIComponent(status)}&sport=${encodeURIComponent(sport)}&limit=50`)) as {
    data: { canonicalId: string }[];
    meta: { totalCount: number };
  };
  assert.deepEqual(
    (result.structuredContent as { canonicalIds: string[] }).canonicalIds,
    restList.data.map((d) => d.canonicalId),
  );
  assert.equal((result.structuredContent as { total: number }).total, restList.meta.totalCount);
  const bad = await call('sports.list', { year: 12 });
  assert.equal(bad.isError, true);
  assert.match(bad.content[0]!.text, /year/);
});

test('sports.list matches experience and status as strings: any casing, and an unknown value is an empty page', async () => {
  const schema = tools.get('sports.list')!.inputSchema as { properties: Record<string, { enum?: unknown; examples?: string[] }> };
  for (const name of ['experience', 'status']) {
    assert.equal(schema.properties[name]!.enum, undefined, `${name} is not a closed enum`);
    assert.ok(schema.properties[name]!.examples!.length > 0, `${name} lists known values as examples`);
  }
  const restList = (await rest('/api/sporting-events.json?experience=in-person&experienceStatus=attended&limit=50')) as { data: { canonicalId: string }[] };
  assert.ok(restList.data.length > 0);
  const result = await call('sports.list', { experience: 'IN-PERSON', status: 'Attended', limit: 50 });
  assert.deepEqual(
    (result.structuredContent as { canonicalIds: string[] }).canonicalIds,
    restList.data.map((d) => d.canonicalId),
  );
  const none = await call('sports.list', { status: 'maybe' });
  assert.equal(none.isError, undefined);
  assert.deepEqual([(none.structuredContent as { total: number }).total, (none.structuredContent as { canonicalIds: string[] }).canonicalIds], [0, []]);
});

test('taste.summarize is /api/taste/summary.json with the aliases', async () => {
  const result = await call('taste.summarize', { exampleLimit: 3 });
  const { total, resultVersion, evidence, evidenceDetails, ...document } = result.structuredContent as Record<string, unknown>;
  assert.ok(Array.isArray(evidenceDetails) && evidenceDetails.length > 0);
  assert.deepEqual(document, await rest('/api/taste/summary.json?exampleLimit=3'));
  assert.equal(total, (document.counts as { collectionCount: number }).collectionCount);
  assert.equal(resultVersion, 1);
  assert.equal(typeof evidence, 'string');
  assert.equal((await call('taste.summarize', { exampleLimit: 13 })).isError, true);
});

/** The REST document inside a result: the result without its envelope fields. */
const document = (structured: Record<string, unknown>) => Object.fromEntries(Object.entries(structured).filter(([name]) => !ENVELOPE.includes(name)));

test('taste.profile is /.well-known/taste-profile.json, and music.intersect answers as REST', async () => {
  const result0 = (await call('taste.profile', {})).structuredContent!;
  const profile = document(result0);
  assert.deepEqual(profile, await rest('/.well-known/taste-profile.json'));
  const result = await call('music.intersect', { profile });
  const answer = await fetch(new URL('/api/music/intersections.json', served.base), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ profile }),
  });
  assert.deepEqual(document(result.structuredContent!), await answer.json());
  assert.equal((result.structuredContent as { abstained: boolean }).abstained, false);
  // The whole taste.profile result is a profile music.intersect takes: its envelope fields are ignored.
  assert.deepEqual(document((await call('music.intersect', { profile: result0 })).structuredContent!), document(result.structuredContent!));
  const invalid = await call('music.intersect', { profile: { ...profile, extra: true } });
  assert.equal(invalid.isError, true);
  assert.doesNotMatch(invalid.content[0]!.text, /\/work\//);
});

test('every public tool result carries counts, generatedAt, selection, evidenceDetails and the aliases total, resultVersion, evidence; the output schemas require them', async () => {
  const ids = async (collection: string, n: number) =>
    ((await call('taste.find', { collection, limit: n })).structuredContent as { canonicalIds: string[] }).canonicalIds;
  const city = ((await rest('/api/places.json?facets=1&limit=1')) as { meta: { facets: Record<string, { value: string }[]> } }).meta.facets.city![0]!.value;
  const profile = (await call('taste.profile', {})).structuredContent!;
  const calls: [string, Record<string, unknown>][] = [
    ['taste.find', { collection: 'movies', limit: 3 }],
    ['taste.find', { collection: 'books', q: 'the', limit: 2 }],
    ['taste.get', { ids: await ids('movies', 2) }],
    ['sports.list', { limit: 3 }],
    ['taste.summarize', { exampleLimit: 2 }],
    ['taste.summarize', { exampleLimit: 0 }],
    ['taste.profile', {}],
    ['music.intersect', { profile }],
    ['music.intersect', { profile: { schemaVersion: '1', music: { artists: [], recordings: [], albums: [], genres: [], notes: [] } } }],
    ['taste.recommend', { intent: 'something to watch' }],
    ['taste.recommend', { intent: 'a documentary film', collection: 'movies' }],
    ['places.plan', { city, limit: 3 }],
    ['taste.render_recommendations', { ids: await ids('movies', 2) }],
    ['places.render_map', { ids: await ids('places', 2) }],
    ['sports.render_events', { ids: await ids('sporting-events', 2) }],
  ];
  assert.deepEqual(new Set(calls.map(([name]) => name)), new Set(tools.keys()), 'every tool tools/list publishes is called');
  for (const name of tools.keys()) {
    const schema = tools.get(name)!.outputSchema as { required: string[]; properties: Record<string, unknown> };
    for (const field of ENVELOPE) assert.ok(schema.required.includes(field) && field in schema.properties, `${name}'s outputSchema requires ${field}`);
  }
  for (const [name, args] of calls) {
    // call() validates structuredContent against the published outputSchema with hyperjump.
    const result = await call(name, args);
    assert.notEqual(result.isError, true, `${name} ${JSON.stringify(args).slice(0, 80)}: ${result.content[0]!.text}`);
    const structured = result.structuredContent!;
    for (const field of ENVELOPE) assert.ok(field in structured, `${name} carries ${field}`);
    assert.equal(typeof structured.evidence, 'string', `${name}: evidence is one string`);
    assert.equal(structured.resultVersion, 1);
    assert.ok(Array.isArray(structured.evidenceDetails), name);
    const counts = structured.counts as { totalCount?: number; collectionCount?: number };
    assert.equal(structured.total, counts.totalCount ?? counts.collectionCount, `${name}: total is the alias of the count`);
    assert.ok(!Number.isNaN(Date.parse(String(structured.generatedAt))), `${name}: generatedAt`);
  }
});
