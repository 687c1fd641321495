/**
 * The JSON Schemas of the MCP tools, derived from the collection declarations and the
 * schemas REST and OpenAPI already publish (`itemSchema`, the taste and music schemas),
 * never copied by hand: a filter added to a declaration appears in `taste.find`'s input
 * schema, a field added to a record schema in its output schema. Also the result
 * envelope every public tool's result carries (SPEC §4.7): the current fields `counts`,
 * `generatedAt`, `selection`, `evidenceDetails`, and the aliases older clients read —
 * `total`, `resultVersion` and `evidence` as one plain string. Documents a tool shares
 * with REST (the taste summary and profile, the music intersection) keep their REST
 * shape and gain the envelope beside it (`withEnvelope`).
 */
import type { CollectionDeclaration, FilterSpec } from '../collections/define.ts';
import { restCollections } from '../collections/index.ts';
import { itemSchema, type JsonObject, type JsonSchema } from '../collections/item-schema.ts';
import { LIMITS } from '../core/limits.ts';

/** The version of the result envelope, sent as `resultVersion` for clients that pin it. */
export const RESULT_VERSION = 1;

/** A schema embedded in a tool: its own `$id`/`$schema` would re-base references (and MCP clients validate with draft-07 defaults). */
export function embedded(schema: object): JsonObject {
  const { $id: _id, $schema: _schema, ...rest } = schema as Record<string, unknown>;
  return JSON.parse(JSON.stringify(rest)) as JsonObject;
}

/** One filter's value as JSON Schema, from its declared kind. */
export function filterValueSchema(spec: FilterSpec): JsonSchema {
  const kind = spec.kind;
  const one: JsonSchema =
    kind.type === 'integer'
      ? { type: 'integer', minimum: kind.min, maximum: kind.max }
      : kind.type === 'enum'
        ? { type: 'string', enum: [...kind.values] }
        : kind.type === 'since'
          ? { type: 'string', minLength: 10, maxLength: 35, description: 'An RFC 3339 date (2024-05-01) or date-time with an offset.' }
          : { type: 'string', minLength: 1, maxLength: LIMITS.filterValueCharsMax, ...(kind.examples ? { examples: [...kind.examples] } : {}) };
  if (!spec.repeatable) return { ...one, description: spec.description };
  return { description: `${spec.description}; several values match any of them.`, anyOf: [one, { type: 'array', items: one, minItems: 1, maxItems: 20 }] };
}

/**
 * The filters of several collections as one object: a parameter two collections declare
 * differently (such as `type`) is accepted as either, and the core checks it against the
 * collection asked for, naming the parameter when it does not fit.
 */
export function filtersSchema(collections: readonly CollectionDeclaration[]): JsonSchema {
  const byParam = new Map<string, { schemas: JsonSchema[]; names: string[] }>();
  for (const c of collections) {
    for (const [param, spec] of Object.entries(c.filters)) {
      const entry = byParam.get(param) ?? { schemas: [], names: [] };
      const schema = filterValueSchema(spec);
      if (!entry.schemas.some((s) => JSON.stringify(s) === JSON.stringify(schema))) entry.schemas.push(schema);
      entry.names.push(c.name);
      byParam.set(param, entry);
    }
  }
  const properties: JsonObject = {};
  for (const [param, { schemas, names }] of [...byParam].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const where = collections.length === 1 ? '' : ` Taken by: ${names.join(', ')}.`;
    properties[param] =
      schemas.length === 1
        ? { ...schemas[0]!, description: `${String(schemas[0]!.description ?? param)}.${where}` }
        : { anyOf: schemas, description: `Declared per collection.${where}` };
  }
  return {
    type: 'object',
    description: 'REST filters of the collection (the query parameters of its list), by name.',
    properties,
    additionalProperties: false,
  };
}

/** `sort` as REST takes it: comma-separated `<field>:<asc|desc>`, fields named per collection. */
export function sortSchema(collections: readonly CollectionDeclaration[]): JsonSchema {
  const fields = collections.map((c) => `${c.name}: ${Object.keys(c.sort).join(', ')}`).join('; ');
  return {
    type: 'string',
    maxLength: 200,
    pattern: '^[A-Za-z]+(:(asc|desc))?(,[A-Za-z]+(:(asc|desc))?)*$',
    description: `Comma-separated <field>:<asc|desc>, at most ${LIMITS.sortKeysMax} keys. Sort fields — ${fields}.`,
  };
}

export const cursorSchema: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: LIMITS.cursorCharsMax,
  description: 'The `nextCursor` of the previous result, unchanged, with the same collection, filters, q and sort.',
};
export const searchSchema: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: LIMITS.searchCharsMax,
  description: 'Case- and accent-insensitive substring search over the collection’s search fields.',
};
export const limitSchema: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: LIMITS.mcpFindLimitMax,
  default: 20,
  description: `Items per page, 1..${LIMITS.mcpFindLimitMax}.`,
};
export const canonicalIdSchema: JsonSchema = {
  type: 'string',
  pattern: '^itm_[0-9a-f]{24}$',
  description: 'A canonical ID (itm_ followed by 24 hex digits), the same on every surface.',
};

/** Any published item: one of the collections' item schemas. */
export function anyItemSchema(collections: readonly CollectionDeclaration[] = restCollections): JsonSchema {
  return { anyOf: collections.map((c) => embedded(itemSchema(c))) };
}

const nonEmpty = { type: 'string', minLength: 1 } as const;

export const evidenceDetailSchema: JsonSchema = {
  type: 'object',
  required: ['code', 'text', 'fields'],
  additionalProperties: false,
  properties: { code: nonEmpty, text: nonEmpty, fields: { type: 'array', minItems: 1, items: nonEmpty, description: 'The record fields the evidence reads.' } },
};

export const selectionSchema: JsonSchema = {
  type: 'object',
  required: ['task', 'method', 'role', 'supportsPopulationClaims', 'explanation'],
  additionalProperties: false,
  properties: {
    task: nonEmpty,
    method: nonEmpty,
    role: nonEmpty,
    supportsPopulationClaims: { type: 'boolean' },
    explanation: nonEmpty,
  },
};

/** The envelope fields, current and compatibility aliases, of list-shaped results. */
export const envelopeProperties: JsonObject = {
  counts: {
    type: 'object',
    required: ['returnedCount', 'totalCount'],
    additionalProperties: false,
    properties: { returnedCount: { type: 'integer', minimum: 0 }, totalCount: { type: 'integer', minimum: 0 } },
    description: 'How many records are returned here, and how many match in all.',
  },
  generatedAt: { type: 'string', format: 'date-time', description: 'The data’s as-of time: the answer does not depend on the clock.' },
  selection: { ...selectionSchema, description: 'How the records were chosen, and what they support.' },
  evidenceDetails: {
    type: 'array',
    items: evidenceDetailSchema,
    description:
      'What the answer rests on: each entry a code, a sentence and the record fields it reads (none when the tool abstained without reading a record).',
  },
  total: { type: 'integer', minimum: 0, description: 'Compatibility alias of `counts.totalCount` (older clients).' },
  resultVersion: { const: RESULT_VERSION, description: 'Compatibility: the version of this result envelope.' },
  evidence: { type: 'string', description: 'Compatibility: the evidence as one plain string; newer clients read `evidenceDetails`.' },
};
/** Every public tool result carries all of these (SPEC §4.7): the current fields, then the compatibility aliases. */
export const ENVELOPE_REQUIRED = ['counts', 'generatedAt', 'selection', 'evidenceDetails', 'total', 'resultVersion', 'evidence'];

export interface Selection {
  task: string;
  method: string;
  role: string;
  supportsPopulationClaims: boolean;
  explanation: string;
}

export interface EvidenceDetail {
  code: string;
  text: string;
  fields: string[];
}

/** The string `evidence` older clients read: the texts of the details, in order. */
export const evidenceText = (details: readonly EvidenceDetail[]): string => details.map((d) => d.text).join(' | ');

/**
 * The envelope of a list-shaped result: the counts, the as-of time, the selection, the
 * evidence details and the aliases. `evidence` defaults to the details' texts.
 */
export function envelope(
  returned: number,
  total: number,
  generatedAt: string,
  selection: Selection,
  details: readonly EvidenceDetail[],
  evidence = evidenceText(details),
): Record<string, unknown> {
  return {
    counts: { returnedCount: returned, totalCount: total },
    generatedAt,
    selection,
    evidenceDetails: [...details],
    total,
    resultVersion: RESULT_VERSION,
    evidence,
  };
}

/** The evidence of a record read by its canonical ID (get, render). */
export const BY_CANONICAL_ID: EvidenceDetail = {
  code: 'canonical-id',
  text: 'Each record is the one its canonical ID names, as REST publishes it.',
  fields: ['canonicalId'],
};

/** An object schema of the tool's own properties plus the envelope. */
export function listResultSchema(properties: JsonObject, required: readonly string[], description: string): JsonSchema {
  return withEnvelopeSchema({ type: 'object', properties, required: [...required], additionalProperties: false }, description);
}

/**
 * A document a tool shares with REST, with the envelope fields it lacks beside its own:
 * its own `counts`, `generatedAt` or `selection` (the taste summary's) keep their shape.
 */
export function withEnvelopeSchema(schema: JsonSchema, description: string): JsonSchema {
  const own = (schema.properties ?? {}) as JsonObject;
  const added = Object.fromEntries(Object.entries(envelopeProperties).filter(([name]) => !(name in own)));
  // `required` must list each name once (JSON Schema): a tool may declare an envelope field itself.
  const required = [...new Set([...((schema.required ?? []) as string[]), ...ENVELOPE_REQUIRED])];
  return { ...schema, description, properties: { ...own, ...added }, required };
}

/** The envelope's field names: what a client strips to get the REST document back. */
export const ENVELOPE_FIELDS: ReadonlySet<string> = new Set(Object.keys(envelopeProperties));
