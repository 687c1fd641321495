/**
 * The reading tools: `taste.find` (any collection, as its REST list), `sports.list`
 * (sporting events with the SPEC's named filters) and `taste.get` (records by canonical
 * ID). Like the GraphQL resolvers, they turn their arguments back into the REST query
 * string and run the same parser and core, so the same question gets the same canonical
 * IDs in the same order on every surface; a refusal of the parser names the tool's own
 * argument (`filters.year`, `status`) rather than the query parameter.
 */
import { collection, restCollections } from '../collections/index.ts';
import { headline } from '../collections/headline.ts';
import { itemSchema, type JsonObject, type JsonSchema } from '../collections/item-schema.ts';
import { isPublicError, PublicError } from '../core/errors.ts';
import { LIMITS } from '../core/limits.ts';
import { canonicalSearch, parseQuery, type Query } from '../core/params.ts';
import type { McpContext } from './context.ts';
import { collectionUrl } from '../urls.ts';
import {
  anyItemSchema,
  BY_CANONICAL_ID,
  canonicalIdSchema,
  cursorSchema,
  embedded,
  envelope,
  filterValueSchema,
  filtersSchema,
  limitSchema,
  listResultSchema,
  searchSchema,
  sortSchema,
  type EvidenceDetail,
} from './schemas.ts';
import { ToolError, withJsonText, type ToolDefinition, type ToolResult } from './tool.ts';

const COMMON = new Set(['q', 'sort', 'limit', 'cursor']);
const DEFAULT_LIMIT = 20;

/** A core refusal, its parameter renamed to the tool's argument. */
function renamed(error: unknown, rename: (parameter: string) => string): unknown {
  if (!isPublicError(error) || error.parameter === undefined) return error;
  return new PublicError(error.slug, error.detail, rename(error.parameter));
}

interface ListArgs {
  filters: Record<string, unknown>;
  q?: unknown;
  sort?: unknown;
  limit?: unknown;
  cursor?: unknown;
}

/** The REST query string of a tool's arguments: filters (arrays repeat the parameter), then q, sort, limit, cursor. */
export function searchParams(args: ListArgs): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(args.filters)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) params.append(name, String(one));
  }
  if (args.q !== undefined) params.set('q', String(args.q));
  if (args.sort !== undefined) params.set('sort', String(args.sort));
  params.set('limit', String(args.limit ?? DEFAULT_LIMIT));
  if (args.cursor !== undefined) params.set('cursor', String(args.cursor));
  return params;
}

/** What a page's records rest on: each filter they match and the search they contain, or membership of the collection alone. */
export function queryEvidence(query: Query): EvidenceDetail[] {
  const name = query.collection.name;
  const details: EvidenceDetail[] = query.filters.map((f) => {
    const how = f.spec.kind.type === 'since' ? 'is on or after' : f.spec.kind.type === 'string' ? 'equals, ignoring case and accents,' : 'equals';
    return { code: 'filter-match', text: `${f.spec.field} ${how} ${f.values.join(' or ')} (the ${f.param} filter).`, fields: [f.spec.field] };
  });
  if (query.q)
    details.push({
      code: 'search-match',
      text: `${query.collection.search.join(', ')} contains “${query.q.value}”, ignoring case and accents.`,
      fields: [...query.collection.search],
    });
  if (details.length === 0) details.push({ code: 'collection-member', text: `Every published ${name} record, unfiltered.`, fields: ['canonicalId'] });
  return details;
}

/** One page of a collection through the REST parser and the core, as a list-shaped result. */
export function listPage(context: McpContext, name: string, args: ListArgs, rename: (parameter: string) => string, task: string): ToolResult {
  const declaration = collection(name);
  if (!declaration?.rest) throw new ToolError(`There is no collection named ${name}; the collection argument lists them.`);
  let query;
  try {
    query = parseQuery(declaration, searchParams(args));
  } catch (error) {
    throw renamed(error, rename);
  }
  const page = context.core.run(query);
  const items = withJsonText(
    page.items.map((json) => JSON.parse(json) as Record<string, unknown>),
    page.items,
  );
  const restUrl = `${collectionUrl(name)}${canonicalSearch(query, query.cursor)}`;
  const selection = {
    task,
    method: 'rest-query',
    role: 'listing',
    supportsPopulationClaims: true,
    explanation: `Every ${name} record matching the filters and search, in the requested order, a page at a time; counts.totalCount is the exact number matching. The same query as ${restUrl}.`,
  };
  const lines = items.map((item) => `- ${headline(name, item)} (${String(item.canonicalId)})`);
  const more = page.next ? `\nMore: call again with cursor "${page.next}".` : '';
  const text = `${items.length} of ${page.totalCount} ${name} records (as of ${page.asOf}):\n${lines.join('\n')}${more}`;
  return {
    structured: {
      collection: name,
      items,
      canonicalIds: page.canonicalIds,
      ...(page.next ? { nextCursor: page.next } : {}),
      restUrl,
      ...envelope(items.length, page.totalCount, page.asOf, selection, queryEvidence(query), `Matched by the REST query ${restUrl}.`),
    },
    text,
  };
}

const pageProperties = (items: JsonSchema): JsonObject => ({
  collection: { type: 'string' },
  items: { type: 'array', items },
  canonicalIds: { type: 'array', items: canonicalIdSchema },
  nextCursor: cursorSchema,
  restUrl: { type: 'string', description: 'The same query as a REST list URL (root-relative).' },
});

const names = restCollections.map((c) => c.name);

export const find: ToolDefinition = {
  name: 'taste.find',
  title: 'Find records in the owner’s collections',
  description: `Search and filter one of the owner's collections (${names.join(', ')}) exactly as its REST list does: the same filters, q (substring search), sort and cursor give the same records in the same order. Returns up to ${LIMITS.mcpFindLimitMax} full records per call with counts and a nextCursor to continue. Use taste.get to reread records by canonicalId.`,
  inputSchema: {
    type: 'object',
    properties: {
      collection: { type: 'string', enum: names },
      filters: filtersSchema(restCollections),
      q: searchSchema,
      sort: sortSchema(restCollections),
      limit: limitSchema,
      cursor: cursorSchema,
    },
    required: ['collection'],
    additionalProperties: false,
  },
  outputSchema: listResultSchema(
    pageProperties(anyItemSchema()),
    ['collection', 'items', 'canonicalIds', 'restUrl'],
    'A page of records, as the REST list answers it.',
  ),
  cost: 1,
  run: (args, context) => {
    const filters = (args.filters ?? {}) as Record<string, unknown>;
    return listPage(context, String(args.collection), { ...args, filters }, (p) => (COMMON.has(p) ? p : `filters.${p}`), 'find');
  },
};

const sports = collection('sporting-events')!;
/** `sports.list` names `experienceStatus` as the SPEC's tool list does: `status`. */
const SPORTS_ARGUMENT: Record<string, string> = { experienceStatus: 'status' };
const sportsArgument = (param: string) => (Object.hasOwn(SPORTS_ARGUMENT, param) ? SPORTS_ARGUMENT[param]! : param);
const sportsParam = Object.fromEntries(Object.entries(SPORTS_ARGUMENT).map(([param, argument]) => [argument, param]));
const sportsFilters = Object.fromEntries(Object.entries(sports.filters).map(([param, spec]) => [sportsArgument(param), filterValueSchema(spec)]));

export const sportsList: ToolDefinition = {
  name: 'sports.list',
  title: 'List the owner’s sporting events',
  description: `Sporting events the owner attended, watched or plans to, filtered by experience, status (whether it happened for the owner), team, sport, league, year, city and venue — the same answers as ${collectionUrl('sporting-events')} with those filters. Up to ${LIMITS.mcpFindLimitMax} per call; nextCursor continues.`,
  inputSchema: {
    type: 'object',
    properties: { ...sportsFilters, q: searchSchema, sort: sortSchema([sports]), limit: limitSchema, cursor: cursorSchema },
    additionalProperties: false,
  },
  outputSchema: listResultSchema(
    pageProperties(embedded(itemSchema(sports))),
    ['collection', 'items', 'canonicalIds', 'restUrl'],
    'A page of sporting events, as the REST list answers it.',
  ),
  cost: 1,
  run: (args, context) => {
    const filters: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(args)) if (!COMMON.has(name)) filters[Object.hasOwn(sportsParam, name) ? sportsParam[name]! : name] = value;
    return listPage(context, sports.name, { ...args, filters }, sportsArgument, 'list');
  },
};

export const get: ToolDefinition = {
  name: 'taste.get',
  title: 'Get records by canonical ID',
  description: `Read up to ${LIMITS.mcpGetIdsMax} records by canonicalId (from taste.find, sports.list or any other surface), whichever collection holds them: each is the record as REST publishes it. IDs that name no published record are listed in notFound; the others are still returned.`,
  inputSchema: {
    type: 'object',
    properties: {
      ids: { type: 'array', items: canonicalIdSchema, minItems: 1, maxItems: LIMITS.mcpGetIdsMax, description: `1..${LIMITS.mcpGetIdsMax} canonical IDs.` },
    },
    required: ['ids'],
    additionalProperties: false,
  },
  outputSchema: listResultSchema(
    {
      records: {
        type: 'array',
        items: {
          type: 'object',
          required: ['canonicalId', 'collection', 'item'],
          additionalProperties: false,
          properties: { canonicalId: canonicalIdSchema, collection: { type: 'string', enum: names }, item: anyItemSchema() },
        },
      },
      notFound: { type: 'array', items: { type: 'string' } },
    },
    ['records', 'notFound'],
    'The records found, in the order asked, and the IDs not found.',
  ),
  cost: 1,
  run: (args, context) => {
    const ids = [...new Set(args.ids as string[])];
    const records: { canonicalId: string; collection: string; item: Record<string, unknown> }[] = [];
    const notFound: string[] = [];
    for (const id of ids) {
      const found = context.core.lookup(id);
      if (found) records.push({ canonicalId: id, collection: found.collection.name, item: JSON.parse(found.json) as Record<string, unknown> });
      else notFound.push(id);
    }
    const asOf =
      records
        .map((r) => context.image.asOf(r.collection))
        .sort()
        .at(-1) ?? context.image.asOf('feed-items');
    const selection = {
      task: 'get',
      method: 'canonical-id-lookup',
      role: 'records',
      supportsPopulationClaims: false,
      explanation: 'Exactly the records asked for by canonical ID; nothing else is implied about the collections.',
    };
    const lines = records.map((r) => `- ${headline(r.collection, r.item)} (${r.collection}, ${r.canonicalId})`);
    const missing = notFound.length ? `\nNot found: ${notFound.join(', ')}` : '';
    return {
      structured: {
        records,
        notFound,
        ...envelope(records.length, records.length, asOf, selection, [BY_CANONICAL_ID], `Looked up ${ids.length} canonical IDs; ${records.length} found.`),
      },
      text: `${records.length} of ${ids.length} records found:\n${lines.join('\n')}${missing}`,
    };
  },
};
