/**
 * Query strings into queries. Every parameter is checked against the collection's
 * declaration before any work: unknown or repeated parameters, malformed values and
 * over-long inputs are refused with a problem naming the parameter, so a typo such as
 * `gnere` never silently returns everything. Also the reverse: a query back into the
 * canonical query string its links use.
 */
import type { CollectionDeclaration, FilterSpec, SortDirection, SortKey } from '../collections/define.ts';
import { PublicError } from './errors.ts';
import { fold } from './fold.ts';
import { LIMITS } from './limits.ts';
import type { Filter, Query } from './query.ts';

const COMMON = ['limit', 'cursor', 'sort', 'facets', 'q'] as const;
const TRUE_VALUES = new Set(['1', 'true', 'yes']);
const INTEGER = /^[+-]?\d+$/;

const bad = (parameter: string, detail: string) => new PublicError('invalid-query', detail, parameter);

function parseLimit(raw: string | null): number {
  if (raw === null) return LIMITS.pageSizeDefault;
  const trimmed = raw.trim();
  const n = trimmed === '' ? Number.NaN : Number(trimmed);
  if (!Number.isFinite(n)) throw bad('limit', `limit must be a number; it is floored and clamped to 1..${LIMITS.pageSizeMax}.`);
  return Math.min(LIMITS.pageSizeMax, Math.max(1, Math.floor(n)));
}

function parseSort(collection: CollectionDeclaration, raw: string | null): SortKey[] {
  if (raw === null || raw.trim() === '') return [...collection.defaultSort];
  const allowed = Object.keys(collection.sort).join(', ');
  const parts = raw.split(',');
  if (parts.length > LIMITS.sortKeysMax) throw bad('sort', `sort takes at most ${LIMITS.sortKeysMax} keys.`);
  const keys: SortKey[] = [];
  for (const part of parts) {
    const [field = '', direction = 'asc', extra] = part.trim().split(':').map((s) => s.trim());
    if (extra !== undefined || !(field in collection.sort)) {
      throw bad('sort', `sort must be a comma-separated list of <field>:<asc|desc>; ${collection.name} sorts by ${allowed}.`);
    }
    if (direction !== 'asc' && direction !== 'desc') throw bad('sort', 'sort direction must be asc or desc.');
    if (keys.some((k) => k.field === field)) throw bad('sort', 'sort lists a field more than once.');
    keys.push({ field, direction: direction as SortDirection });
  }
  return keys;
}

function parseFilter(param: string, spec: FilterSpec, raw: string): Filter {
  const value = raw.trim();
  if (value === '') throw bad(param, `${param} must not be empty.`);
  if ([...value].length > LIMITS.filterValueCharsMax) throw bad(param, `${param} is longer than ${LIMITS.filterValueCharsMax} characters.`);
  const kind = spec.kind;
  if (kind.type === 'integer') {
    const n = INTEGER.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < kind.min || n > kind.max) throw bad(param, `${param} must be an integer from ${kind.min} to ${kind.max}.`);
    return { param, spec, value: String(n), key: String(n) };
  }
  if (kind.type === 'enum') {
    const match = kind.values.find((v) => v === value);
    if (!match) throw bad(param, `${param} must be one of ${kind.values.join(', ')}.`);
    return { param, spec, value: match, key: fold(match) };
  }
  return { param, spec, value, key: fold(value) };
}

/** A validated query for one collection, or a PublicError naming the first fault. */
export function parseQuery(collection: CollectionDeclaration, search: URLSearchParams): Query {
  const seen = new Set<string>();
  for (const name of search.keys()) {
    if (seen.has(name)) throw bad(name, `${name} is given more than once; give each parameter once.`);
    seen.add(name);
    if (!(COMMON as readonly string[]).includes(name) && !(name in collection.filters)) {
      const known = [...COMMON, ...Object.keys(collection.filters)].join(', ');
      throw new PublicError('unknown-parameter', `${collection.name} does not take the parameter ${JSON.stringify(name.slice(0, 40))}; it takes ${known}.`, name);
    }
  }
  const filters = Object.entries(collection.filters)
    .filter(([param]) => search.has(param))
    .map(([param, spec]) => parseFilter(param, spec, search.get(param)!));
  const rawQ = search.get('q')?.trim() ?? '';
  if ([...rawQ].length > LIMITS.searchCharsMax) throw bad('q', `q is longer than ${LIMITS.searchCharsMax} characters.`);
  const cursor = search.get('cursor');
  if (cursor !== null && (cursor === '' || cursor.length > LIMITS.cursorCharsMax)) {
    throw new PublicError('invalid-cursor', 'The cursor must be a valid opaque value returned by the API for this same query; start again from the first page.', 'cursor');
  }
  return {
    collection,
    filters,
    q: rawQ === '' ? undefined : { value: rawQ, key: fold(rawQ) },
    sort: parseSort(collection, search.get('sort')),
    limit: parseLimit(search.get('limit')),
    cursor: cursor ?? undefined,
    facets: TRUE_VALUES.has((search.get('facets') ?? '').trim().toLowerCase()),
  };
}

const sameSort = (a: readonly SortKey[], b: readonly SortKey[]) =>
  a.length === b.length && a.every((k, i) => k.field === b[i]!.field && k.direction === b[i]!.direction);

/** The canonical query string of a query (defaults left out), optionally at another cursor. */
export function canonicalSearch(query: Query, cursor?: string): string {
  const params = new URLSearchParams();
  for (const f of query.filters) params.set(f.param, f.value);
  if (query.q) params.set('q', query.q.value);
  if (!sameSort(query.sort, query.collection.defaultSort)) params.set('sort', query.sort.map((k) => `${k.field}:${k.direction}`).join(','));
  if (query.limit !== LIMITS.pageSizeDefault) params.set('limit', String(query.limit));
  if (query.facets) params.set('facets', '1');
  if (cursor !== undefined) params.set('cursor', cursor);
  const text = params.toString();
  return text ? `?${text}` : '';
}
