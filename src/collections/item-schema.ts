/**
 * The JSON Schema of a published record, shared by the OpenAPI description, the GraphQL
 * schema and the MCP tools' output schemas. Generated from each collection's zod schema
 * (`z.toJSONSchema`, output side: what a record looks like once published, with its
 * defaults filled in). Three things are added that the zod schema cannot say: the
 * `canonicalId` every item carries first, the derived fields each declaration lists
 * (described once, by name, in `DERIVED_FIELDS`), and what the shared field kinds of
 * `fields.ts` mean — their checks are zod refinements, which JSON Schema cannot see, so
 * they are recognised by identity and given a format or pattern here. The unpublished
 * bookkeeping field `visibility` is left out, as the compiler leaves it out of records.
 */
import { z } from 'zod';
import { CANONICAL_ID } from '../core/image.ts';
import { UNPUBLISHED, type CollectionDeclaration } from './define.ts';
import * as fields from './fields.ts';

export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** A JSON Schema 2020-12 schema. */
export type JsonSchema = JsonObject;

export const CANONICAL_ID_PATTERN = CANONICAL_ID.source;

/**
 * Every field a declaration's `derive` may return, described once. A declaration listing a
 * derived field missing here fails generation, so a new derived field cannot go undocumented.
 */
export const DERIVED_FIELDS: Readonly<Record<string, JsonSchema>> = {
  year: { type: 'integer', minimum: 0, maximum: 9999, description: 'Derived: the year of the record’s main date.' },
  month: { type: 'integer', minimum: 1, maximum: 12, description: 'Derived: the month (1–12) of the record’s main date.' },
  mapsUrl: {
    type: 'string',
    format: 'uri',
    pattern: '^https://www\\.openstreetmap\\.org/',
    description: 'Derived: an OpenStreetMap link centred on `coordinates`; present when the record has coordinates.',
  },
  url: { type: 'string', format: 'uri', pattern: '^https?://', description: 'Derived: the absolute URL of the post’s page on this site.' },
  wordCount: { type: 'integer', minimum: 0, description: 'Derived: the number of words in the body.' },
  domain: { type: 'string', minLength: 1, description: 'Derived: the host name of `url`, without a leading `www.`.' },
  years: {
    type: 'array',
    items: { type: 'integer', minimum: 0, maximum: 9999 },
    minItems: 1,
    description: 'Derived: every calendar year from the start to the end (or, while open, the last update) inclusive.',
  },
};

const DATE_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})?$';

/** What the refined field kinds of fields.ts mean, in JSON Schema terms (matched by identity). */
const FIELD_KINDS = new Map<unknown, JsonSchema>([
  [fields.isoDate, { format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'A calendar date, YYYY-MM-DD.' }],
  [
    fields.isoDateTime,
    {
      pattern: DATE_TIME_PATTERN,
      description: 'An ISO 8601 date-time, seconds optional; with `Z` or an offset, or without one for local time where the record happened.',
    },
  ],
  [fields.isoDateOrDateTime, { description: 'A date (the time is not known) or a date-time.' }],
  [fields.isoMonthOrDate, { pattern: '^\\d{4}-(0[1-9]|1[0-2])(-\\d{2})?$', description: 'A month, YYYY-MM, or a date, YYYY-MM-DD.' }],
  [fields.httpUrl, { format: 'uri', pattern: '^https?://', description: 'An absolute http(s) URL.' }],
  [fields.imageRef, { description: 'A site-relative path or an absolute http(s) URL.' }],
  [fields.timeZone, { description: 'An IANA time zone name, such as Europe/Paris.' }],
  [fields.coordinates, { description: 'WGS 84 position in decimal degrees; altitude in metres.' }],
  [fields.coordinatesSource, { description: 'Where the coordinates came from: manual, gps, exif or geocoded:<provider>.' }],
]);

/** PascalCase component name stem of a collection: `sporting-events` → `SportingEvents`. */
export const schemaStem = (c: CollectionDeclaration) => c.name.replace(/(^|-)([a-z])/g, (_, __, ch: string) => ch.toUpperCase());

const plain = (schema: unknown): JsonObject => JSON.parse(JSON.stringify(schema)) as JsonObject;

/** The zod schema as published-output JSON Schema, with the field kinds annotated. */
function outputSchema(c: CollectionDeclaration): JsonObject {
  const generated = z.toJSONSchema(c.schema, {
    io: 'output',
    target: 'draft-2020-12',
    // Only transforms are unrepresentable here; the override below describes them.
    unrepresentable: 'any',
    override: (ctx) => {
      const kind = FIELD_KINDS.get(ctx.zodSchema);
      if (kind) Object.assign(ctx.jsonSchema, kind);
      // A normalising transform (ISBN hyphens removed, `@` added to a handle) hides its
      // output type; its accepted input form is the closest honest description.
      if (ctx.zodSchema instanceof z.core.$ZodPipe && Object.keys(ctx.jsonSchema).length === 0) {
        const { $schema: _, ...input } = z.toJSONSchema(ctx.zodSchema._zod.def.in, { io: 'input', unrepresentable: 'any' });
        Object.assign(ctx.jsonSchema, input, { description: 'Normalised when published; shown here in the form the owner writes it.' });
      }
    },
  });
  return plain(generated);
}

/** The JSON Schema of one published item: canonicalId, the schema's fields in order, then derived fields. */
export function itemSchema(c: CollectionDeclaration): JsonSchema {
  const source = outputSchema(c);
  const sourceProperties = (source.properties ?? {}) as JsonObject;
  const properties: JsonObject = {
    canonicalId: { type: 'string', pattern: CANONICAL_ID_PATTERN, description: 'Stable identifier of the record, the same on every surface.' },
  };
  for (const [name, schema] of Object.entries(sourceProperties)) if (!UNPUBLISHED.has(name)) properties[name] = schema;
  if (c.derive && !c.derived) throw new Error(`${c.name}: declares derive but not the names it returns (derived)`);
  for (const name of c.derived ?? []) {
    const schema = DERIVED_FIELDS[name];
    if (!schema) throw new Error(`${c.name}: derived field ${name} has no entry in DERIVED_FIELDS (src/collections/item-schema.ts)`);
    properties[name] = schema;
  }
  // Required of what is published: the schema's required fields, and those a rule requires of every public record.
  const requiredSet = new Set([...((source.required ?? []) as string[]), ...(c.rules ?? []).flatMap((r) => r.requiredWhenPublished ?? [])]);
  const required = Object.keys(sourceProperties).filter((name) => requiredSet.has(name) && !UNPUBLISHED.has(name));
  return {
    title: `${c.title} item`,
    description: c.description,
    type: 'object',
    properties,
    required: ['canonicalId', ...required],
    additionalProperties: false,
  };
}
