/**
 * The RPC contract as a TypeScript declaration (`/api/rpc/types.d.ts`), generated from
 * the collection declarations and schemas, never copied by hand: each collection's
 * record type comes from its item JSON Schema (src/collections/item-schema.ts) with its
 * native fields (src/rpc/values.ts) typed `Date` and `URL`; its filters from its
 * declared filters (enums as literal unions, repeatable ones as arrays too), its sort
 * fields from its declared sorts. The taste documents are typed from their published
 * JSON Schemas. A client writes `newHttpBatchRpcSession<Root>(url)` with it.
 */
import { restCollections } from '../collections/index.ts';
import type { CollectionDeclaration } from '../collections/define.ts';
import { itemSchema, schemaStem, type JsonObject, type JsonSchema } from '../collections/item-schema.ts';
import { TASTE_PROFILE_SCHEMA } from '../taste/profile-schema.ts';
import { TASTE_SUMMARY_SCHEMA } from '../taste/summary.ts';
import { RPC_ERROR_CODES } from './errors.ts';
import { EXPORT_FORMATS } from './export.ts';
import { nativeFields } from './values.ts';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));
const literal = (value: unknown) => JSON.stringify(value);
const indent = (text: string, by = '  ') =>
  text
    .split('\n')
    .map((line) => (line === '' ? line : by + line))
    .join('\n');
const doc = (text: unknown) => (typeof text === 'string' && text !== '' ? `/** ${text.replace(/\*\//g, '*\\/').replace(/\s+/g, ' ')} */\n` : '');

/** A JSON Schema as a TypeScript type (the subset the published schemas use). */
export function typeOf(schema: JsonSchema | undefined): string {
  if (schema === undefined) return 'unknown';
  if ('const' in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map(literal).join(' | ');
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(union)) return [...new Set(union.map((s) => typeOf(s)))].join(' | ');
  const type = schema.type;
  if (Array.isArray(type)) return type.map((t) => typeOf({ ...schema, type: t })).join(' | ');
  switch (type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const item = typeOf(schema.items as JsonSchema | undefined);
      return /[|&]/.test(item) ? `(${item})[]` : `${item}[]`;
    }
    case 'object':
      return objectType(schema);
    default:
      return 'unknown';
  }
}

function objectType(schema: JsonSchema, override: (name: string) => string | undefined = () => undefined): string {
  const properties = (schema.properties ?? {}) as JsonObject;
  const required = new Set((schema.required ?? []) as string[]);
  const lines = Object.entries(properties).map(([name, property]) => {
    const p = property as JsonSchema;
    return `${doc(p.description)}${key(name)}${required.has(name) ? '' : '?'}: ${override(name) ?? typeOf(p)};`;
  });
  const open = schema.additionalProperties !== false && Object.keys(properties).length === 0;
  if (open) lines.push('[key: string]: unknown;');
  return lines.length === 0 ? '{}' : `{\n${indent(lines.join('\n'))}\n}`;
}

function recordType(c: CollectionDeclaration): string {
  const natives = nativeFields(c);
  const schema = itemSchema(c);
  return objectType(schema, (name) => {
    const kind = natives.get(name);
    if (kind === 'url') return 'URL';
    if (kind === 'date') return 'Date';
    return undefined;
  });
}

function filtersType(c: CollectionDeclaration): string {
  const lines = ['/** Substring search over the collection’s searched fields, as REST `q`. */\nq?: string;'];
  for (const [param, spec] of Object.entries(c.filters)) {
    const kind = spec.kind;
    // Known values of a string filter complete in editors; \`string & {}\` keeps any other string (matched ignoring case) valid.
    const known = kind.type === 'string' && kind.examples ? `${kind.examples.map(literal).join(' | ')} | (string & {})` : undefined;
    const value = kind.type === 'enum' ? kind.values.map(literal).join(' | ') : kind.type === 'integer' ? 'number | string' : (known ?? 'string');
    const type = spec.repeatable ? `${value} | (${value})[]` : value;
    lines.push(`${doc(spec.description)}${key(param)}?: ${type};`);
  }
  return `{\n${indent(lines.join('\n'))}\n}`;
}

const sortFields = (c: CollectionDeclaration) => Object.keys(c.sort).map(literal).join(' | ') || 'never';

const ROOT = `
/** Stable codes of every RPC failure: an \`Error\` whose one extra property is \`code\`. */
export type RpcErrorCode = ${RPC_ERROR_CODES.map(literal).join(' | ')};

export type SortDirection = 'asc' | 'desc';
export interface SortKey<Field extends string> {
  field: Field;
  direction: SortDirection;
}

export interface SelectionInfo {
  collection: string;
  totalCount: number;
  pageSize: number;
  /** The REST cursor of the page after this one (interchangeable with REST's), or null on the last page. */
  endCursor: string | null;
  hasNextPage: boolean;
  dataAsOf: Date;
}

/** What every list says of a record. */
export interface Item {
  canonicalId: string;
  collection: string;
  title: string;
  url: URL;
  date: Date | null;
}

export type ExportFormat = ${Object.keys(EXPORT_FORMATS).map(literal).join(' | ')};
export interface ExportResult {
  mediaType: string;
  count: number;
  body: string;
}

/** An immutable, validated query: every method returns a new Selection or a value. */
export interface Selection<Record, Filters, SortField extends string> extends RpcTarget {
  /** Filters by the REST filter names (q included), merged over those already set; back to the first page. */
  matching(filters: Filters): Selection<Record, Filters, SortField>;
  /** Orders by the REST sort fields; back to the first page. */
  orderedBy(keys: SortKey<SortField>[]): Selection<Record, Filters, SortField>;
  /** The first page, of n items (1..100). */
  first(n: number): Selection<Record, Filters, SortField>;
  /** The page after a REST cursor or an endCursor, of n items or this selection's page size. */
  pageAfter(cursor: string, n?: number): Selection<Record, Filters, SortField>;
  /** The page after this one: WebSocket sessions only (WEBSOCKET_REQUIRED over HTTP batch). */
  next(): Selection<Record, Filters, SortField>;
  info(): SelectionInfo;
  /** The REST items of the page, dates as Date, URLs as URL. */
  records(): Record[];
  items(): Item[];
  /** The whole selection (or its first \`limit\` records) in one format; RESOURCE_LIMIT or UNSUPPORTED_FORMAT otherwise. */
  export(options: { format: ExportFormat; limit?: number }): ExportResult;
}

export interface SearchHit {
  canonicalId: string;
  collection: string;
  title: string;
  /** The searched field that matched. */
  field: string;
  url: URL;
  date?: Date;
  year?: number;
}
export interface SearchFilters {
  year?: number | string;
}

export interface Evidence {
  code: 'field-mentions-intent' | 'owner-recommended' | 'owner-rating';
  text: string;
  fields: string[];
}

export interface Recommendations<Record> extends RpcTarget {
  records(): Record[];
  items(): Item[];
  explain(item: { canonicalId: string }): { canonicalId: string; evidenceDetails: Evidence[] };
}

export interface ContractSummary {
  /** sha256 of this declaration, hex. */
  checksum: string;
  /** The capnweb client versions this contract is served to (an npm range). */
  clientPackage: string;
  typesUrl: string;
  /** The consumer metadata document. */
  metadataUrl: string;
}

export interface Service extends RpcTarget {
  describe(): { name: string; version: string; collections: string[]; limits: { [name: string]: number }; contract: ContractSummary };
  health(): { status: 'ok'; dataAsOf: Date };
}

export interface Discovery extends RpcTarget {
  /** /api/search.json as a selection. */
  search(options: { query: string; collections?: string[] }): Selection<SearchHit, SearchFilters, never>;
  /**
   * Ranks the candidate selection's current page for an intent; abstains (no records) when the intent carries no signal.
   * Candidates are a Selection of the same session, passed by capability (content.<collection>…, feed.select(…),
   * discovery.search(…)); anything else is INVALID_ARGUMENT. Picks are the candidates' records.
   */
  recommend(options: { intent: string; limit?: number }, candidates: RpcTarget): Recommendations<{ canonicalId: string; [field: string]: unknown }>;
}

export interface Music extends RpcTarget {
  /** POST /api/music/intersections.json: the input is its body. */
  intersect(input: { profile: TasteProfile }): { [key: string]: unknown };
  /** POST /api/music/station.json: the input is its body. */
  station(input: { [key: string]: unknown }): { [key: string]: unknown };
}

export interface Taste extends RpcTarget {
  /** /api/taste/summary.json. */
  summary(options?: { collection?: 'movies'; exampleLimit?: number }): TasteSummary;
  /** /.well-known/taste-profile.json. */
  profile(): TasteProfile;
  music: Music;
}

export interface Feed extends RpcTarget {
  /** /api/feed-items.json as a selection. */
  select(options?: { collections?: string[]; since?: string | Date }): Selection<FeedItemsRecord, FeedItemsFilters, FeedItemsSortField>;
  /** Every feed item of select(options) once, newest first: WebSocket sessions only. */
  stream(options?: { collections?: string[]; since?: string | Date }): ReadableStream<FeedItemsRecord>;
}

export interface Root extends RpcTarget {
  service: Service;
  content: Content;
  discovery: Discovery;
  taste: Taste;
  feed: Feed;
}
`;

/** The whole declaration text. */
export function rpcDeclaration(): string {
  const parts = [
    '// The RPC contract of /api/rpc (SPEC §4.6), generated by `npm run docs` from the collection',
    '// declarations (src/rpc/declaration.ts). Do not edit: CI fails when it is stale.',
    "import type { RpcTarget } from 'capnweb';",
    ROOT.trim(),
    `export type TasteSummary = ${typeOf(TASTE_SUMMARY_SCHEMA as unknown as JsonSchema)};`,
    `export type TasteProfile = ${typeOf(TASTE_PROFILE_SCHEMA as unknown as JsonSchema)};`,
  ];
  const content: string[] = [];
  for (const c of restCollections) {
    const stem = schemaStem(c);
    parts.push(`${doc(`${c.title}: ${c.description}`)}export interface ${stem}Record ${recordType(c)}`);
    parts.push(`export interface ${stem}Filters ${filtersType(c)}`);
    parts.push(`export type ${stem}SortField = ${sortFields(c)};`);
    content.push(`${doc(c.title)}${key(c.name)}: Selection<${stem}Record, ${stem}Filters, ${stem}SortField>;`);
  }
  parts.push(
    `/** One selection per REST collection, named as REST names it. */\nexport interface Content extends RpcTarget {\n${indent(content.join('\n'))}\n}`,
  );
  return `${parts.join('\n\n')}\n`;
}
