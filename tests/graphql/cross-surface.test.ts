/**
 * GraphQL answers what REST answers. For every collection, one filter (a frequent value
 * read from REST's own facets) and a non-default two-key sort, walked page by page through
 * both surfaces: the same canonical IDs in the same order, the same cursors at every step,
 * the same totals and facets — and every node, with all its fields selected, equal to the
 * REST item.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { getNamedType, isObjectType, type GraphQLObjectType } from 'graphql';
import { bindings, graphqlSchema, type ConnectionBinding } from '../../src/graphql/schema.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

let server: RunningServer;
before(async () => {
  server = await startServer({ GRAPHQL_COST_BUDGET: '10000000', RATE_LIMIT_REQUESTS: '1000000' });
});
after(() => server.stop());

const PAGE = 7;
const { schema } = graphqlSchema();

interface RestPage {
  data: Record<string, unknown>[];
  meta: { totalCount: number; facets?: Record<string, { value: string; count: number }[]> };
  links: { next?: string };
}
interface Connection {
  nodes: Record<string, unknown>[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  totalCount: number;
  facets: { name: string; values: { value: string; count: number }[] }[] | null;
}

/** Every field of a type, nested objects included: the full selection. */
function selectAll(type: GraphQLObjectType): string {
  return Object.values(type.getFields())
    .map((field) => {
      const named = getNamedType(field.type);
      return isObjectType(named) ? `${field.name} { ${selectAll(named)} }` : field.name;
    })
    .join(' ');
}

/** REST omits absent optional fields; GraphQL answers them as null. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, withoutNulls(v)]),
    );
  return value;
}

async function rest(path: string): Promise<RestPage> {
  const r = await fetch(new URL(path, server.base));
  assert.equal(r.status, 200, path);
  return (await r.json()) as RestPage;
}

async function graphql(binding: ConnectionBinding, args: string, variables: Record<string, unknown>): Promise<Connection> {
  const type = schema.getType(binding.typeName) as GraphQLObjectType;
  const query = `query($after: String, $filter: ${binding.typeName.replace(/Item$/, 'Filter')}) {
    page: ${binding.field}(first: ${PAGE}, after: $after, filter: $filter, ${args}, includeFacets: true) {
      nodes { ${selectAll(type)} } pageInfo { hasNextPage endCursor } totalCount facets { name values { value count } } } }`;
  const r = await fetch(`${server.base}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await r.json()) as { data?: { page: Connection }; errors?: unknown[] };
  assert.equal(body.errors, undefined, JSON.stringify(body.errors));
  return body.data!.page;
}

for (const binding of bindings) {
  const c = binding.collection;
  test(`${c.name}: a filtered, sorted walk gives the same pages through GraphQL as through REST`, async () => {
    const facets = (await rest(`/api/${c.name}.json?facets=1&limit=1`)).meta.facets ?? {};
    const [param, values] = Object.entries(facets).sort(([, a], [, b]) => (b[0]?.count ?? 0) - (a[0]?.count ?? 0))[0] ?? [];
    const value = values?.[0]?.value;
    const sortFields = Object.keys(c.sort);
    const sort = [sortFields.at(-1)!, sortFields[0]!].filter((f, i, all) => all.indexOf(f) === i);
    const directions = ['desc', 'asc'];

    const search = new URLSearchParams({ limit: String(PAGE), facets: '1', sort: sort.map((f, i) => `${f}:${directions[i]}`).join(',') });
    const filter: Record<string, unknown> = {};
    if (param && value !== undefined) {
      search.set(param, value);
      const kind = c.filters[param]!.kind;
      filter[param] =
        kind.type === 'integer' ? Number(value) : kind.type === 'enum' ? [...binding.enumValues.get(param)!].find(([, raw]) => raw === value)![0] : value;
    }
    const orderBy = `orderBy: [${sort.map((f, i) => `{ field: ${[...binding.sortFields].find(([, field]) => field === f)![0]}, direction: ${directions[i]!.toUpperCase()} }`).join(', ')}]`;

    let restPath: string | undefined = `/api/${c.name}.json?${search}`;
    let after: string | null = null;
    let pages = 0;
    const restIds: string[] = [];
    const graphIds: string[] = [];
    while (restPath) {
      const restPage = await rest(restPath);
      const page = await graphql(binding, orderBy, { after, filter });
      restIds.push(...restPage.data.map((d) => d.canonicalId as string));
      graphIds.push(...page.nodes.map((n) => n.canonicalId as string));
      assert.deepEqual(page.nodes.map(withoutNulls), restPage.data, `${c.name}: nodes equal REST items on page ${pages + 1}`);
      assert.equal(page.totalCount, restPage.meta.totalCount);
      assert.deepEqual(Object.fromEntries((page.facets ?? []).map((f) => [f.name, f.values])), restPage.meta.facets);
      const restCursor = restPage.links.next ? new URL(restPage.links.next, server.base).searchParams.get('cursor') : null;
      assert.equal(page.pageInfo.endCursor, restCursor, 'the same opaque cursor');
      assert.equal(page.pageInfo.hasNextPage, restCursor !== null);
      after = page.pageInfo.endCursor;
      restPath = restPage.links.next;
      pages += 1;
    }
    assert.deepEqual(graphIds, restIds);
    assert.ok(restIds.length > 0, `${c.name}: the walk found records`);
  });
}
