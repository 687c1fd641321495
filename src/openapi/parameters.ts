/**
 * Request parameters of the collection operations, from the same sources the request
 * parser reads: the common parameters and their bounds (`LIMITS`), and each collection's
 * filters, search fields and sort fields (its declaration). The schemas say what a
 * client should send; where the parser is more forgiving (it trims values, floors and
 * clamps `limit`), the description says so.
 */
import type { CollectionDeclaration, FilterSpec } from '../collections/define.ts';
import { LIMITS } from '../core/limits.ts';
import { API_VERSION } from '../http/headers.ts';
import { ref, type JsonSchema, type Parameter, type Reference } from './types.ts';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Parameters every collection takes alike, as `components.parameters`. */
export const COMMON_PARAMETERS: Readonly<Record<string, Parameter>> = {
  limit: {
    name: 'limit',
    in: 'query',
    description: `Page size. Default ${LIMITS.pageSizeDefault}; any number is floored and clamped to 1..${LIMITS.pageSizeMax}; a value that is not a number is refused (400 invalid-query).`,
    schema: { type: 'number', default: LIMITS.pageSizeDefault },
    example: 20,
  },
  cursor: {
    name: 'cursor',
    in: 'query',
    description:
      'Opaque position, copied undecoded from a `next` link of a previous page. It is bound to the collection, filters, `q` and `sort` it was made for; any other value answers 400 invalid-cursor (start again from the first page).',
    schema: { type: 'string', minLength: 1, maxLength: LIMITS.cursorCharsMax },
  },
  facets: {
    name: 'facets',
    in: 'query',
    description:
      '`1`, `true` or `yes` (case-insensitive, trimmed) adds `meta.facets`: for every filter parameter, its most frequent values in the filtered set with their counts (at most ' +
      `${LIMITS.facetValuesMax} each). Any other value leaves facets off.`,
    schema: { type: 'string' },
    example: '1',
  },
  apiVersion: {
    name: 'API-Version',
    in: 'header',
    description: `The contract version the client expects. Omit it, send it empty, or send \`${API_VERSION}\` (surrounding whitespace ignored); any other value answers 400 unsupported-api-version.`,
    schema: { type: 'string', pattern: `^\\s*(${escapeRegExp(API_VERSION)})?\\s*$` },
    example: API_VERSION,
  },
  idempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    description: 'Accepted and ignored: every operation here is safe, and read responses are not stored for replay.',
    schema: { type: 'string' },
  },
  ifNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    description: 'Entity tags of representations the client holds (weak comparison, `*` matches any); a match answers 304.',
    schema: { type: 'string' },
  },
  ifModifiedSince: {
    name: 'If-Modified-Since',
    in: 'header',
    description: 'An HTTP date (IMF-fixdate). Used only without If-None-Match; when the data has not changed since, the answer is 304.',
    schema: { type: 'string' },
    example: 'Sun, 05 Oct 2025 00:00:00 GMT',
  },
};

/** The common parameters, by reference, in the order operations list them. */
export const commonParameterRefs = (): Reference[] => Object.keys(COMMON_PARAMETERS).map((name) => ref('parameters', name));

/** RFC 3339 full-date, or date-time with its offset. */
const RFC3339_PATTERN = '^\\d{4}-\\d{2}-\\d{2}([Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?([Zz]|[+-]\\d{2}:\\d{2}))?$';

function filterSchema(spec: FilterSpec): JsonSchema {
  const one = valueSchema(spec);
  return spec.repeatable ? { type: 'array', items: one, minItems: 1 } : one;
}

function valueSchema(spec: FilterSpec): JsonSchema {
  const kind = spec.kind;
  if (kind.type === 'since') return { type: 'string', pattern: RFC3339_PATTERN };
  if (kind.type === 'integer') return { type: 'integer', minimum: kind.min, maximum: kind.max };
  if (kind.type === 'enum') return { type: 'string', enum: [...kind.values] };
  const text: JsonSchema = { type: 'string', minLength: 1, maxLength: LIMITS.filterValueCharsMax };
  // Known values are examples only: a closed `enum` would tell clients other values are refused.
  return kind.examples ? { ...text, examples: [...kind.examples] } : text;
}

/** What the filter compares, in words; `list` when the field holds several values. */
function filterDescription(spec: FilterSpec, list: boolean): string {
  if (spec.kind.type === 'since')
    return `${spec.description}. Matches items whose \`${spec.field}\` is at or after it (a date alone means its first instant; date-times compare as UTC instants, and a date-time without an offset in a record counts as UTC).`;
  if (spec.repeatable) return `${spec.description}. Matches items where \`${spec.field}\` is any of the values given.`;
  const how = spec.kind.type === 'string' ? 'equal, ignoring case and accents' : 'equal';
  const field = list ? `one of the values of \`${spec.field}\`` : `\`${spec.field}\``;
  const known =
    spec.kind.type === 'string' && spec.kind.examples
      ? ` Known values: ${spec.kind.examples.join(', ')}; a value no record holds gives an empty page, not an error.`
      : '';
  return `${spec.description}. Matches items where ${field} is ${how}.${known}`;
}

/** `q`: the collection's searched fields. */
function searchParameter(c: CollectionDeclaration): Parameter {
  return {
    name: 'q',
    in: 'query',
    description: `Case- and accent-insensitive substring search in ${c.search.map((f) => `\`${f}\``).join(', ')}. Empty means no search.`,
    schema: { type: 'string', maxLength: LIMITS.searchCharsMax },
  };
}

/** `sort`: a comma list of `<field>[:asc|desc]` over the declared sort fields (direction defaults to asc). */
function sortParameter(c: CollectionDeclaration): Parameter {
  const fields = Object.keys(c.sort);
  const key = `\\s*(${fields.map(escapeRegExp).join('|')})\\s*(:\\s*(asc|desc)\\s*)?`;
  const defaultSort = c.defaultSort.map((k) => `${k.field}:${k.direction}`).join(',');
  return {
    name: 'sort',
    in: 'query',
    description:
      `Comma-separated list of \`<field>:<asc|desc>\` (at most ${LIMITS.sortKeysMax} keys, each field once; direction defaults to asc). ` +
      `${c.name} sorts by ${fields.map((f) => `\`${f}\``).join(', ')}; default \`${defaultSort}\`. Ties are broken by canonicalId, so pages never overlap.`,
    schema: { type: 'string', pattern: `^(\\s*|${key}(,${key}){0,${LIMITS.sortKeysMax - 1}})$`, default: defaultSort },
    example: defaultSort,
  };
}

/** Every parameter of a collection's GET and HEAD: common ones, sort and q, then its filters. */
export function collectionParameters(c: CollectionDeclaration, itemSchema: JsonSchema): (Parameter | Reference)[] {
  const properties = itemSchema.properties as Record<string, JsonSchema>;
  const filters: Parameter[] = Object.entries(c.filters).map(([name, spec]) => ({
    name,
    in: 'query',
    description: filterDescription(spec, properties[spec.field]?.type === 'array'),
    schema: filterSchema(spec),
    ...(spec.repeatable ? { style: 'form' as const, explode: true } : {}),
  }));
  return [...commonParameterRefs(), sortParameter(c), searchParameter(c), ...filters];
}
