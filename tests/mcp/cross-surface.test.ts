/**
 * MCP answers what REST answers. For every collection, one filter (a frequent value read
 * from REST's own facets) and a non-default two-key sort, walked page by page through
 * `taste.find` and the REST list: the same canonical IDs in the same order, the same
 * cursors, the same totals, every item equal to the REST item. Sporting events are
 * walked once more through `sports.list`, whose `status` is REST's `experienceStatus`.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { restCollections } from '../../src/collections/index.ts';
import { connect, serve, type Served } from './helpers.ts';

let served: Served;
let client: Client;
before(async () => {
  served = await serve({ mcpQuota: 1_000_000, mcpWorkBudget: 1_000_000, restQuota: 1_000_000 });
  client = await connect(served.base);
});
after(async () => {
  await client.close();
  await served.close();
});

const PAGE = 7;

interface RestPage {
  data: Record<string, unknown>[];
  meta: { totalCount: number; facets?: Record<string, { value: string; count: number }[]> };
  links: { next?: string };
}
interface ToolPage {
  items: Record<string, unknown>[];
  canonicalIds: string[];
  nextCursor?: string;
  total: number;
}

async function rest(path: string): Promise<RestPage> {
  const r = await fetch(new URL(path, served.base));
  assert.equal(r.status, 200, path);
  return (await r.json()) as RestPage;
}

async function tool(name: string, args: Record<string, unknown>): Promise<ToolPage> {
  const result = (await client.callTool({ name, arguments: args })) as { structuredContent?: ToolPage; isError?: boolean; content: { text: string }[] };
  assert.notEqual(result.isError, true, result.content[0]?.text);
  return result.structuredContent!;
}

async function walk(label: string, restStart: string, call: (cursor: string | undefined) => Promise<ToolPage>): Promise<void> {
  let restPath: string | undefined = restStart;
  let cursor: string | undefined;
  const restIds: string[] = [];
  const toolIds: string[] = [];
  let pages = 0;
  while (restPath) {
    const restPage = await rest(restPath);
    const page = await call(cursor);
    restIds.push(...restPage.data.map((d) => d.canonicalId as string));
    toolIds.push(...page.canonicalIds);
    assert.deepEqual(page.items, restPage.data, `${label}: items equal REST items on page ${pages + 1}`);
    assert.equal(page.total, restPage.meta.totalCount);
    const restCursor = restPage.links.next ? (new URL(restPage.links.next, served.base).searchParams.get('cursor') ?? undefined) : undefined;
    assert.equal(page.nextCursor, restCursor, 'the same opaque cursor');
    cursor = page.nextCursor;
    restPath = restPage.links.next;
    pages += 1;
  }
  assert.deepEqual(toolIds, restIds);
  assert.ok(restIds.length > 0, `${label}: the walk found records`);
}

for (const c of restCollections) {
  test(`${c.name}: a filtered, sorted walk gives the same pages through taste.find as through REST`, async () => {
    const facets = (await rest(`/api/${c.name}.json?facets=1&limit=1`)).meta.facets ?? {};
    const [param, values] = Object.entries(facets).sort(([, a], [, b]) => (b[0]?.count ?? 0) - (a[0]?.count ?? 0))[0] ?? [];
    const value = values?.[0]?.value;
    const sortFields = Object.keys(c.sort);
    const sortKeys = [sortFields.at(-1)!, sortFields[0]!].filter((f, i, all) => all.indexOf(f) === i);
    const sort = sortKeys.map((f, i) => `${f}:${['desc', 'asc'][i]}`).join(',');
    const search = new URLSearchParams({ limit: String(PAGE), sort });
    const filters: Record<string, unknown> = {};
    if (param && value !== undefined) {
      search.set(param, value);
      filters[param] = c.filters[param]!.kind.type === 'integer' ? Number(value) : value;
    }
    await walk(c.name, `/api/${c.name}.json?${search}`, (cursor) =>
      tool('taste.find', { collection: c.name, filters, sort, limit: PAGE, ...(cursor ? { cursor } : {}) }),
    );
  });
}

test('sporting events: sports.list walks as REST with experienceStatus as status', async () => {
  const facets = (await rest('/api/sporting-events.json?facets=1&limit=1')).meta.facets!;
  const status = facets.experienceStatus![0]!.value;
  const search = new URLSearchParams({ limit: String(PAGE), experienceStatus: status, sort: 'title:asc' });
  await walk('sports.list', `/api/sporting-events.json?${search}`, (cursor) =>
    tool('sports.list', { status, sort: 'title:asc', limit: PAGE, ...(cursor ? { cursor } : {}) }),
  );
});
