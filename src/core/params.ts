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
import { instantKey } from './image.ts';
import { LIMITS } from './limits.ts';

/** One validated filter parameter. */
export interface Filter {
  param: string;
  spec: FilterSpec;
  /** The value as given (trimmed), for links; the first of `values`. */
  value: string;
  /** The folded value compared against folded record values (for `since`, the instant key); the first of `keys`. */
  key: string;
  /** Every value given (a repeatable filter matches any), in key order, one per key. */
  values: readonly string[];
  keys: readonly string[];
}

/** A parsed, validated query: what the core runs and what links are made from. */
export interface Query {
  collection: CollectionDeclaration;
  /** In the collection's declared parameter order. */
  filters: readonly Filter[];
  /** The search text as given (trimmed), and folded. */
  q: { value: string; key: string } | undefined;
  sort: readonly SortKey[];
  limit: number;
  cursor: string | undefined;
  facets: boolean;
}

const COMMON = ['limit', 'cursor', 'sort', 'facets', 'q'] as const;
const TRUE_VALUES = new Set(['1', 'true', 'yes']);
const INTEGER = /^[+-]?\d+$/;

const bad = (parameter: string, detail: string) => new PublicError('invalid-query', detail, parameter);

/**
 * Characters no parameter name or value may hold: the C0 controls (tab and line breaks
 * included), DEL and the C1 controls; lone surrogates; and U+FFFD, which is what invalid
 * UTF-8 percent-encoding and lone surrogates (`%ED%A0%80`) decode to. No published text is
 * matched through them (the search index separates fields and values with controls), and
 * they break what they reach, such as SQLite's FTS5 strings, which end at NUL.
 */
const NOT_TEXT = /[\p{Cc}\p{Cs}\uFFFD]/u;

const codePoint = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Refuses a query string whose parameter names or values hold a control character,
 * a lone surrogate or U+FFFD, naming the parameter: the one check every query-string
 * parser (collections, search, the taste summary) runs first, on everything it was given.
 * A cursor holding one is `invalid-cursor`, as any other arbitrary cursor (SPEC §7).
 */
export function refuseControlCharacters(search: URLSearchParams): void {
  for (const [name, value] of search) {
    const inName = NOT_TEXT.exec(name);
    const found = inName ?? NOT_TEXT.exec(value);
    if (!found) continue;
    if (!inName && name === 'cursor') {
      throw new PublicError(
        'invalid-cursor',
        'The cursor must be a valid opaque value returned by the API for this same query; start again from the first page.',
        'cursor',
      );
    }
    const what =
      found[0] === '\uFFFD'
        ? 'U+FFFD (what invalid UTF-8 percent-encoding or a lone surrogate decodes to)'
        : /\p{Cs}/u.test(found[0])
          ? `a lone surrogate (${codePoint(found[0])})`
          : `the control character ${codePoint(found[0])}`;
    const where = inName ? 'A parameter name' : `The value of ${name.slice(0, 40)}`;
    throw bad(
      name,
      `${where} holds ${what}. Names and values take text without control characters (U+0000–U+001F, U+007F–U+009F, tab and line breaks included), percent-encoded as UTF-8.`,
    );
  }
}

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
    const [field = '', direction = 'asc', extra] = part
      .trim()
      .split(':')
      .map((s) => s.trim());
    if (extra !== undefined || !Object.hasOwn(collection.sort, field)) {
      throw bad('sort', `sort must be a comma-separated list of <field>:<asc|desc>; ${collection.name} sorts by ${allowed}.`);
    }
    if (direction !== 'asc' && direction !== 'desc') throw bad('sort', 'sort direction must be asc or desc.');
    if (keys.some((k) => k.field === field)) throw bad('sort', 'sort lists a field more than once.');
    keys.push({ field, direction: direction as SortDirection });
  }
  return keys;
}

/** RFC 3339 `full-date`, or `date-time` (offset required). */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt]([01]\d|2[0-3]):([0-5]\d):([0-5]\d|60)(\.\d{1,9})?([Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d))?$/;

function sinceKey(param: string, value: string): string {
  const m = RFC3339.exec(value);
  const day = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : undefined;
  if (!m || !day || day.getUTCDate() !== Number(m[3]) || day.getUTCMonth() !== Number(m[2]) - 1) {
    throw bad(param, `${param} must be an RFC 3339 date (2024-05-01) or date-time with an offset (2024-05-01T18:30:00Z).`);
  }
  if (m[4] === undefined) return value;
  // Millisecond precision is what instants are stored with; a leap second counts as the next one.
  const text = `${value.slice(0, 19).replace('t', 'T').replace(/:60$/, ':59')}${(m[7] ?? '').slice(0, 4)}${m[8]!.toUpperCase()}`;
  return instantKey(text);
}

function parseValue(param: string, spec: FilterSpec, raw: string): { value: string; key: string } {
  const value = raw.trim();
  if (value === '') throw bad(param, `${param} must not be empty.`);
  if ([...value].length > LIMITS.filterValueCharsMax) throw bad(param, `${param} is longer than ${LIMITS.filterValueCharsMax} characters.`);
  const kind = spec.kind;
  if (kind.type === 'integer') {
    const n = INTEGER.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < kind.min || n > kind.max) throw bad(param, `${param} must be an integer from ${kind.min} to ${kind.max}.`);
    return { value: String(n), key: String(n) };
  }
  if (kind.type === 'enum') {
    const match = kind.values.find((v) => v === value);
    if (!match) throw bad(param, `${param} must be one of ${kind.values.join(', ')}.`);
    return { value: match, key: fold(match) };
  }
  if (kind.type === 'since') return { value, key: sinceKey(param, value) };
  return { value, key: fold(value) };
}

/** One filter from all the values given for its parameter; repeated values are kept once, in key order. */
function parseFilter(param: string, spec: FilterSpec, raws: readonly string[]): Filter {
  const byKey = new Map<string, string>();
  for (const raw of raws) {
    const { value, key } = parseValue(param, spec, raw);
    if (!byKey.has(key)) byKey.set(key, value);
  }
  const keys = [...byKey.keys()].sort();
  const values = keys.map((k) => byKey.get(k)!);
  return { param, spec, value: values[0]!, key: keys[0]!, values, keys };
}

/** A validated query for one collection, or a PublicError naming the first fault. */
export function parseQuery(collection: CollectionDeclaration, search: URLSearchParams): Query {
  refuseControlCharacters(search);
  const seen = new Set<string>();
  for (const name of search.keys()) {
    if (seen.has(name) && collection.filters[name]?.repeatable !== true) throw bad(name, `${name} is given more than once; give each parameter once.`);
    seen.add(name);
    if (!(COMMON as readonly string[]).includes(name) && !Object.hasOwn(collection.filters, name)) {
      const known = [...COMMON, ...Object.keys(collection.filters)].join(', ');
      throw new PublicError(
        'unknown-parameter',
        `${collection.name} does not take the parameter ${JSON.stringify(name.slice(0, 40))}; it takes ${known}.`,
        name,
      );
    }
  }
  const filters = Object.entries(collection.filters)
    .filter(([param]) => search.has(param))
    .map(([param, spec]) => parseFilter(param, spec, search.getAll(param)));
  const rawQ = search.get('q')?.trim() ?? '';
  if ([...rawQ].length > LIMITS.searchCharsMax) throw bad('q', `q is longer than ${LIMITS.searchCharsMax} characters.`);
  const cursor = search.get('cursor');
  if (cursor !== null && (cursor === '' || cursor.length > LIMITS.cursorCharsMax)) {
    throw new PublicError(
      'invalid-cursor',
      'The cursor must be a valid opaque value returned by the API for this same query; start again from the first page.',
      'cursor',
    );
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

/**
 * A canonical query string from its parameters without the cursor (`base`, as
 * `URLSearchParams` serialized them) and the cursor, set last as `URLSearchParams` would
 * write it: `?…`, or '' when there is nothing. A cursor the API made (base64url and a dot)
 * is written as it is, since the form encoding leaves `A–Z a–z 0–9 * - . _` alone; any
 * other text goes through the encoder.
 */
export function withCursor(base: string, cursor: string | undefined): string {
  if (cursor === undefined) return base ? `?${base}` : '';
  const pair = FORM_SAFE.test(cursor) ? `cursor=${cursor}` : new URLSearchParams({ cursor }).toString();
  return base ? `?${base}&${pair}` : `?${pair}`;
}

const FORM_SAFE = /^[A-Za-z0-9*._-]*$/;

/**
 * The last query's canonical parameters without its cursor: a list answer asks for its
 * self, first and next links in turn (three `URLSearchParams` built and serialized, 7 % of
 * a cold filtered answer with the URL's parsing), so the one query asked last is kept
 * (not a map: a WeakMap entry per answer is GC work). Appending the cursor's pair to that
 * text is what setting it last on the same parameters serializes to.
 */
let canonicalBase: { query: Query | undefined; text: string } = { query: undefined, text: '' };

/** The canonical query string of a query (defaults left out), optionally at another cursor. */
export function canonicalSearch(query: Query, cursor?: string): string {
  if (canonicalBase.query !== query) {
    const params = new URLSearchParams();
    for (const f of query.filters) for (const value of f.values) params.append(f.param, value);
    if (query.q) params.set('q', query.q.value);
    if (!sameSort(query.sort, query.collection.defaultSort)) params.set('sort', query.sort.map((k) => `${k.field}:${k.direction}`).join(','));
    if (query.limit !== LIMITS.pageSizeDefault) params.set('limit', String(query.limit));
    if (query.facets) params.set('facets', '1');
    canonicalBase = { query, text: params.toString() };
  }
  return withCursor(canonicalBase.text, cursor);
}
