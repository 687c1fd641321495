/**
 * The GraphQL root value: every connection turns its arguments back into the REST query
 * parameters of the same question and runs them through the REST parser and the query
 * core, so validation, cursors, ordering, counts and facets are REST's own — the two
 * surfaces cannot drift. `contentLookup` answers expected failures as `PublicGraphQLError`
 * data; anything else a resolver throws becomes a standard GraphQL error (see `errors.ts`).
 */
import { isPublicError, PublicError } from '../core/errors.ts';
import { LIMITS } from '../core/limits.ts';
import { parseQuery } from '../core/params.ts';
import type { QueryCore } from '../core/query.ts';
import { bindings, type ConnectionBinding } from './schema.ts';
import { CANONICAL_ID } from '../core/image.ts';
import { problemUrl, recordUrl } from '../urls.ts';

interface OrderArgument {
  field: string;
  direction: 'ASC' | 'DESC';
}

interface ConnectionArguments {
  first: number;
  after?: string | null;
  /** Values of known-text scalars arrive as GraphQL parsed them: any JSON-like value. */
  filter?: Record<string, unknown> | null;
  orderBy?: readonly OrderArgument[] | null;
  includeFacets: boolean;
}

/** GraphQL argument names of the REST parameters, so a REST error names what the client wrote. */
const ARGUMENT_OF: Readonly<Record<string, string>> = { limit: 'first', cursor: 'after', sort: 'orderBy', facets: 'includeFacets' };

/** The GraphQL argument a REST parameter came from (`filter.year` for `year`). */
export const argumentOf = (parameter: string) => ARGUMENT_OF[parameter] ?? `filter.${parameter}`;

/** The REST query string asking the same question as a connection's arguments. */
export function restSearch(binding: ConnectionBinding, args: ConnectionArguments): URLSearchParams {
  if (!Number.isInteger(args.first) || args.first < 1 || args.first > LIMITS.pageSizeMax) {
    throw new PublicError('invalid-query', `first must be an integer from 1 to ${LIMITS.pageSizeMax}.`, 'limit');
  }
  const search = new URLSearchParams({ limit: String(args.first) });
  const rest = (param: string, value: unknown) => {
    if (typeof value === 'number') return String(value);
    // A known-text scalar parses any literal; only a string (or a v1 enum name) is a value of the filter.
    if (typeof value !== 'string') throw new PublicError('invalid-query', `filter.${param} takes a string.`, param);
    return binding.enumValues.get(param)?.get(value) ?? value;
  };
  for (const [param, value] of Object.entries(args.filter ?? {})) {
    if (value === null || value === undefined) continue;
    // A repeatable filter takes a list; REST repeats the parameter.
    for (const one of Array.isArray(value) ? value : [value]) search.append(param, rest(param, one));
  }
  if (args.orderBy && args.orderBy.length > 0) {
    search.set('sort', args.orderBy.map((o) => `${binding.sortFields.get(o.field)}:${o.direction.toLowerCase()}`).join(','));
  }
  if (args.after !== null && args.after !== undefined) search.set('cursor', args.after);
  if (args.includeFacets) search.set('facets', '1');
  return search;
}

function connection(core: QueryCore, binding: ConnectionBinding, args: ConnectionArguments) {
  const page = core.run(parseQuery(binding.collection, restSearch(binding, args)));
  return {
    nodes: page.items.map((item) => JSON.parse(item) as unknown),
    pageInfo: { hasNextPage: page.next !== undefined, endCursor: page.next ?? null },
    totalCount: page.totalCount,
    facets: page.facets ? Object.entries(page.facets).map(([name, values]) => ({ name, values })) : null,
  };
}

function lookup(core: QueryCore, canonicalId: string) {
  if (!CANONICAL_ID.test(canonicalId)) {
    return {
      __typename: 'PublicGraphQLError',
      code: 'INVALID_ID',
      message: 'A canonical ID is itm_ followed by 24 lowercase hexadecimal characters.',
      type: problemUrl('invalid-query'),
    };
  }
  const found = core.lookup(canonicalId);
  if (found !== undefined) {
    const binding = bindings.find((b) => b.collection === found.collection)!;
    const record = { ...(JSON.parse(found.json) as Record<string, unknown>), __typename: binding.typeName };
    return {
      __typename: 'ContentLookupSuccess',
      collection: found.collection.name,
      canonicalId,
      url: recordUrl(found.collection.name, canonicalId),
      item: record,
    };
  }
  return { __typename: 'PublicGraphQLError', code: 'NOT_FOUND', message: 'No public record has this canonical ID.', type: problemUrl('not-found') };
}

/** Resolvers of the Query fields, over one query core. */
export function rootValue(core: QueryCore): Record<string, unknown> {
  const root: Record<string, unknown> = {
    contentLookup: ({ canonicalId }: { canonicalId: string }) => lookup(core, canonicalId),
  };
  for (const binding of bindings) {
    root[binding.field] = (args: ConnectionArguments) => {
      try {
        return connection(core, binding, args);
      } catch (error) {
        // Name the GraphQL argument, not the REST parameter it became.
        if (isPublicError(error)) throw new PublicError(error.slug, error.detail, error.parameter && argumentOf(error.parameter));
        throw error;
      }
    };
  }
  return root;
}
