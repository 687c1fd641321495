/**
 * The GraphQL schema, derived from the collection declarations and written as SDL text:
 * one connection per REST collection (typed `filter` input from the declared filters,
 * `orderBy` from the declared sort fields, item types from the same JSON Schema the OpenAPI
 * description publishes), `contentLookup` across collections, the demand-control
 * directives (IBM's `@cost` and `@listSize`, and `@rateLimit`) applied where the work
 * happens, and the reserved `AsyncJob` types. The text is the contract — it is what
 * `/graphql/schema.graphql` serves and what the committed snapshot is compared with — so
 * it is generated deterministically, and the executable schema is built from it.
 */
import { buildSchema, type GraphQLSchema } from 'graphql';
import { restCollections } from '../collections/index.ts';
import { facetable, type CollectionDeclaration } from '../collections/define.ts';
import { LIMIT_DEFINITIONS, LIMITS } from '../core/limits.ts';
import { itemSchema, schemaStem } from '../collections/item-schema.ts';
import type { JsonObject, JsonSchema } from '../openapi/types.ts';

/** The major version this schema is (`GraphQL-API-Version`); v1 evolves additively. */
export const GRAPHQL_API_VERSION = '1';

/** Cost weights (IBM cost directives): what each kind of work costs, in points. */
export const COST = {
  /** A connection runs an indexed page query and a (cached) count. */
  connection: 10,
  /** Facets group every matching record by each filter dimension. */
  facets: 10,
  /** A lookup probes each collection's primary key. */
  lookup: 2,
  /** `__schema` / `__type`: static data, charged flat whatever their depth. */
  introspection: 10,
  /** Any other field returning an object costs 1 (the IBM default); scalars cost 0. */
  object: 1,
} as const;

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const pascal = (text: string) => text.replace(/(^|[-_])([a-z])/g, (_, __, ch: string) => ch.toUpperCase()).replace(/^[a-z]/, (ch) => ch.toUpperCase());
const camel = (text: string) => text.replace(/-([a-z])/g, (_, ch: string) => ch.toUpperCase());
/** `in-person` → `IN_PERSON`, `TrailRun` → `TRAIL_RUN`, `releaseDate` → `RELEASE_DATE`. */
export const enumName = (value: string) =>
  value
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase();
const describe = (text: string | undefined) => (text ? `${JSON.stringify(text)}\n` : '');
/** A field, argument or enum value line, with its description line above it when there is one. */
const member = (text: string, description?: string, indent = '  ') => `${description ? `${indent}${JSON.stringify(description)}\n` : ''}${indent}${text}`;

/** What the resolvers need to turn GraphQL arguments back into the REST query of the same question. */
export interface ConnectionBinding {
  collection: CollectionDeclaration;
  /** The Query field: `sportingEvents`. */
  field: string;
  /** The item type: `SportingEventsItem`. */
  typeName: string;
  /**
   * Filter parameter → (GraphQL enum value name → REST value), for enum filters and for
   * string filters with known values (whose scalar still takes the enum names v1 published).
   */
  enumValues: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** `SortField` enum value name → declared sort field. */
  sortFields: ReadonlyMap<string, string>;
}

const checkName = (name: string, where: string) => {
  if (!GRAPHQL_NAME.test(name)) throw new Error(`${where}: ${JSON.stringify(name)} is not a valid GraphQL name`);
  return name;
};

/** Builds the SDL of item types: shared nested object types are named by field and must agree. */
class TypeWriter {
  readonly blocks = new Map<string, string>();
  private readonly shapes = new Map<string, string>();

  /** The GraphQL output type of a JSON Schema (without the non-null mark). */
  outputType(schema: JsonSchema, field: string, owner: string): string {
    const s = schema as JsonObject;
    const branches = (s.anyOf ?? s.oneOf) as JsonObject[] | undefined;
    if (branches) {
      const types = new Set(branches.map((b) => this.outputType(b, field, owner)));
      // A normalising transform published as text (ISBN) describes its input as text or number.
      return types.size === 1 ? [...types][0]! : types.has('String') ? 'String' : 'JSON';
    }
    switch (s.type) {
      case 'string':
        return 'String';
      case 'boolean':
        return 'Boolean';
      case 'number':
        return 'Float';
      // GraphQL Int is 32-bit; wider integers (counts, external IDs) travel as Float, exactly.
      case 'integer':
        return typeof s.maximum === 'number' && s.maximum <= 2 ** 31 - 1 ? 'Int' : 'Float';
      case 'array':
        return `[${this.outputType(s.items as JsonSchema, field, owner)}!]`;
      case 'object':
        return s.properties ? this.objectType(pascal(field), s, owner) : 'JSON';
      default:
        return 'JSON';
    }
  }

  /** An object type's SDL block, once per name; a second shape under the same name is prefixed by its owner. */
  objectType(name: string, schema: JsonObject, owner: string, description?: string): string {
    const required = new Set((schema.required ?? []) as string[]);
    const lines: string[] = [];
    for (const [field, value] of Object.entries((schema.properties ?? {}) as Record<string, JsonObject>)) {
      checkName(field, `${owner}.${field}`);
      const type = field === 'canonicalId' ? 'ID' : this.outputType(value, field, owner);
      lines.push(member(`${field}: ${type}${required.has(field) ? '!' : ''}`, value.description as string | undefined));
    }
    const body = `{\n${lines.join('\n')}\n}`;
    const known = this.shapes.get(name);
    if (known !== undefined && known !== body) return this.objectType(`${owner}${name}`, schema, owner, description);
    if (known === undefined) {
      this.shapes.set(name, body);
      this.blocks.set(name, `${describe(description ?? (schema.description as string | undefined))}type ${name} ${body}`);
    }
    return name;
  }
}

function bindingOf(c: CollectionDeclaration): ConnectionBinding {
  const stem = schemaStem(c);
  const enumValues = new Map<string, Map<string, string>>();
  for (const [param, spec] of Object.entries(c.filters)) {
    const named = spec.kind.type === 'enum' ? spec.kind.values : spec.kind.type === 'string' ? spec.kind.examples : undefined;
    if (named) enumValues.set(param, new Map(named.map((v) => [checkName(enumName(v), `${c.name} ${param}`), v])));
  }
  const sortFields = new Map(Object.keys(c.sort).map((field) => [enumName(field), field]));
  return { collection: c, field: camel(c.name), typeName: `${stem}Item`, enumValues, sortFields };
}

export const bindings: readonly ConnectionBinding[] = restCollections.map(bindingOf);

function filterInput(b: ConnectionBinding, stem: string): string[] {
  const c = b.collection;
  const enums: string[] = [];
  const fields: string[] = [];
  for (const [param, spec] of Object.entries(c.filters)) {
    checkName(param, `${c.name} filter`);
    let type = 'String';
    if (spec.kind.type === 'integer') type = 'Int';
    if (spec.kind.type === 'enum') {
      type = `${stem}${pascal(param)}`;
      const values = [...b.enumValues.get(param)!.entries()].map(([name, value]) => member(name, `The REST value ${value}.`));
      enums.push(`${describe(`Values of the ${param} filter of ${c.name}.`)}enum ${type} {\n${values.join('\n')}\n}`);
    }
    if (spec.kind.type === 'string' && spec.kind.examples) {
      // v1 published these filters as enums; a scalar of the same name keeps every query that
      // used the enum names (literals and variables) working while taking any string, as REST does.
      type = `${stem}${pascal(param)}`;
      const names = [...b.enumValues.get(param)!.entries()].map(([name, value]) => `${name} (${value})`).join(', ');
      const text = `A value of the ${param} filter of ${c.name}: any string, compared with records ignoring case and accents, as the REST parameter; a value no record holds matches nothing. Known values: ${spec.kind.examples.join(', ')}. The enum names of earlier releases are still accepted: ${names}.`;
      enums.push(`${describe(text)}scalar ${type}`);
    }
    const range = spec.kind.type === 'integer' ? ` (${spec.kind.min}–${spec.kind.max})` : '';
    const any = spec.repeatable ? ' Several values match any of them.' : '';
    fields.push(member(`${param}: ${spec.repeatable ? `[${type}!]` : type}`, `${spec.description}${range}; the REST parameter \`${param}\`.${any}`));
  }
  if (c.search.length > 0) {
    fields.push(member('q: String', `Case- and accent-insensitive substring search of ${c.search.join(', ')}; the REST parameter \`q\`.`));
  }
  const sortFields = [...b.sortFields.entries()].map(([name, field]) => member(name, `The REST sort field ${field}.`));
  const connection = [
    member(`nodes: [${b.typeName}!]!`),
    member('pageInfo: PageInfo!'),
    member('totalCount: Int!', 'Records matching the filter, across all pages.'),
    member(
      `facets: [Facet!] @listSize(assumedSize: ${Math.max(1, facetable(c).length)})`,
      'Counts per filter dimension, most frequent first; null unless `includeFacets: true`.',
    ),
  ];
  return [
    ...enums,
    `${describe(`Filters of ${c.name}, combined with AND: the REST query parameters of /api/${c.name}.json.`)}input ${stem}Filter {\n${fields.join('\n')}\n}`,
    `${describe(`Sortable fields of ${c.name}.`)}enum ${stem}SortField {\n${sortFields.join('\n')}\n}`,
    `${describe('One sort key; keys apply in list order and the canonical ID breaks ties, as REST `sort`.')}input ${stem}Order {\n  field: ${stem}SortField!\n  direction: SortDirection! = ASC\n}`,
    `${describe(`A page of ${c.name}, the same page REST answers for the same question.`)}type ${stem}Connection {\n${connection.join('\n')}\n}`,
  ];
}

function limitsDescription(): string {
  const names = Object.keys(LIMIT_DEFINITIONS).filter((name) => name.startsWith('graphql') || name === 'pageSizeMax');
  const lines = names.map((name) => {
    const limit = LIMIT_DEFINITIONS[name as keyof typeof LIMIT_DEFINITIONS];
    return `- ${name}: ${limit.value} ${limit.unit}. ${limit.why}`;
  });
  return [
    `Collections, read-only GraphQL API v${GRAPHQL_API_VERSION} (request header \`GraphQL-API-Version\`; omit it or send ${GRAPHQL_API_VERSION}). Every connection answers exactly what the REST list of the same collection answers; cursors are the same opaque values.`,
    '',
    'Demand control: each operation\u2019s static cost (`@cost`, `@listSize`) is computed before execution and reported in the `GraphQL-Cost` response header; the remaining budget of the window is the `r` of the `RateLimit` header. Limits:',
    ...lines,
  ].join('\n');
}

function rootField(b: ConnectionBinding): string {
  const c = b.collection;
  const stem = schemaStem(c);
  const args = [
    member(`first: Int = ${LIMITS.graphqlFirstDefault}`, `Nodes per page, 1–${LIMITS.pageSizeMax} (REST \`limit\`).`, '    '),
    member('after: String', '`pageInfo.endCursor` of the previous page, unchanged (REST `cursor`; the two are interchangeable).', '    '),
    member(`filter: ${stem}Filter`, undefined, '    '),
    member(
      `orderBy: [${stem}Order!]`,
      `Sort keys in order (REST \`sort\`); default ${c.defaultSort.map((k) => `${k.field} ${k.direction}`).join(', ')}.`,
      '    ',
    ),
    member(`includeFacets: Boolean = false @cost(weight: "${COST.facets}")`, 'Whether to count values per filter dimension (REST `facets`).', '    '),
  ];
  const signature = `${b.field}(\n${args.join('\n')}\n  ): ${stem}Connection! @cost(weight: "${COST.connection}") @listSize(slicingArguments: ["first"], sizedFields: ["nodes"])`;
  return member(signature, `${c.title}: ${c.description} (/api/${c.name}.json)`);
}

const SHARED = `${describe('Where a page ends.')}type PageInfo {
${member('hasNextPage: Boolean!', 'Whether another page follows.')}
${member('endCursor: String', 'Pass as `after` for the next page; null on the last page.')}
}

enum SortDirection {
  ASC
  DESC
}

${describe('One filter dimension and its most frequent values.')}type Facet {
${member('name: String!', 'The filter parameter.')}
${member(`values: [FacetValue!]! @listSize(assumedSize: ${LIMITS.facetValuesMax})`)}
}

type FacetValue {
  value: String!
  count: Int!
}

${describe('The result of `contentLookup`: the record, or why there is none.')}union ContentLookupResult = ContentLookupSuccess | PublicGraphQLError

type ContentLookupSuccess {
${member('collection: String!', 'The collection holding the record.')}
  canonicalId: ID!
${member('url: String!', 'The record’s page on this site (root-relative).')}
  item: CollectionItem!
}

${describe('An expected failure, as data: the problem type names the same condition REST reports.')}type PublicGraphQLError {
  code: PublicErrorCode!
  message: String!
${member('type: String!', 'The problem type URI (root-relative), as in REST problem details.')}
}

enum PublicErrorCode {
${member('INVALID_ID', 'The canonical ID is not itm_ followed by 24 hexadecimal characters.')}
${member('NOT_FOUND', 'No public record has this canonical ID.')}
}

${describe('Reserved: the model for any future long-running operation (SPEC §9). Nothing returns it today; only synchronous reads exist.')}type AsyncJob {
  id: ID!
  status: AsyncJobStatus!
${member('createdAt: String!', 'RFC 3339 date-time.')}
${member('completedAt: String', 'RFC 3339 date-time; null until the job ends.')}
${member('resultUrl: String', 'Where the result can be read once the job succeeded.')}
}

${describe('Reserved with AsyncJob.')}enum AsyncJobStatus {
  QUEUED
  RUNNING
  SUCCEEDED
  FAILED
  CANCELLED
}`;

const DIRECTIVES = `${describe('IBM GraphQL Cost Directives (https://ibm.github.io/graphql-specs/cost-spec.html): the weight of a field, or of an argument when it is given. Object fields without it weigh 1, scalars 0.')}directive @cost(weight: String!) on ARGUMENT_DEFINITION | ENUM | FIELD_DEFINITION | INPUT_FIELD_DEFINITION | OBJECT | SCALAR

${describe('IBM GraphQL Cost Directives: how many items a list field returns, from a slicing argument (applied to the sized fields) or assumed.')}directive @listSize(assumedSize: Int, slicingArguments: [String!], sizedFields: [String!], requireOneSlicingArgument: Boolean = true) on FIELD_DEFINITION

${describe('The cost budget per client and window, and the largest cost of one operation.')}directive @rateLimit(budget: Int!, windowSeconds: Int!, operationCostMax: Int!) on OBJECT`;

/** The schema document: deterministic for the same declarations and limits. */
export function graphqlSdl(): string {
  const types = new TypeWriter();
  const perCollection: string[] = [];
  for (const b of bindings) {
    const stem = schemaStem(b.collection);
    types.objectType(b.typeName, itemSchema(b.collection) as JsonObject, stem, `${b.collection.title}: ${b.collection.description}`);
    perCollection.push(...filterInput(b, stem));
  }
  const query = [
    ...bindings.map(rootField),
    `${member(`contentLookup`, 'The record with this canonical ID, in whichever collection holds it; an unknown or malformed ID is a PublicGraphQLError, not an error.')}(canonicalId: ID!): ContentLookupResult! @cost(weight: "${COST.lookup}")`,
  ];
  const itemUnion = `${describe('A record of any collection.')}union CollectionItem = ${bindings.map((b) => b.typeName).join(' | ')}`;
  const json = [...types.blocks.values()].some((block) => /: \[?JSON/.test(block))
    ? [`${describe('Any JSON value (RFC 8259).')}scalar JSON @specifiedBy(url: "https://www.rfc-editor.org/rfc/rfc8259")`]
    : [];
  return `${[
    `"""\n${limitsDescription()}\n"""\nschema {\n  query: Query\n}`,
    DIRECTIVES,
    `type Query @rateLimit(budget: ${LIMITS.graphqlCostPerWindow}, windowSeconds: ${LIMITS.graphqlWindowSeconds}, operationCostMax: ${LIMITS.graphqlCostMax}) {\n${query.join('\n')}\n}`,
    SHARED,
    itemUnion,
    ...json,
    ...perCollection,
    ...types.blocks.values(),
  ].join('\n\n')}\n`;
}

let built: { sdl: string; schema: GraphQLSchema } | undefined;

/** The executable schema and its SDL, built once per process. */
export function graphqlSchema(): { sdl: string; schema: GraphQLSchema } {
  if (!built) {
    const sdl = graphqlSdl();
    built = { sdl, schema: buildSchema(sdl) };
  }
  return built;
}
