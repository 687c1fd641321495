/**
 * Example values for the OpenAPI description, made from the JSON Schemas themselves so
 * they can never disagree with them (and the document stays a pure function of code:
 * no content is read). Only required properties are filled, with the first enum value,
 * the lowest allowed number near 1, and strings shaped by their format or pattern.
 * Patterns are met by trying a short list of generic candidates; a schema none of them
 * fits fails generation loudly rather than publishing an invalid example.
 */
import type { JsonObject, JsonSchema, JsonValue } from './types.ts';

const FORMAT_SAMPLES: Readonly<Record<string, string>> = {
  date: '2024-05-01',
  'date-time': '2024-05-01T18:30:00Z',
  uri: 'https://example.org/',
  'uri-reference': '/',
};

/** Generic strings tried, in order, against a pattern. */
const PATTERN_CANDIDATES = [
  'itm_0123456789abcdef01234567',
  '2024-05-01T18:30:00Z',
  '2024-05-01',
  '2024-05',
  'https://example.org/',
  'https://www.openstreetmap.org/?mlat=47.37&mlon=8.54',
  '/images/example.jpg',
  '@owner',
  'example',
  'manual',
  'owner/name',
  '1234567890',
];

function sampleNumber(schema: JsonObject, integer: boolean): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  let value = min !== undefined && min > 1 ? min : 1;
  if (max !== undefined && value > max) value = max;
  if (integer) value = Math.ceil(value);
  return value;
}

function sampleString(schema: JsonObject): string {
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern, 'u');
    const found = PATTERN_CANDIDATES.find((candidate) => pattern.test(candidate));
    if (found === undefined) throw new Error(`no example string matches the pattern ${schema.pattern}`);
    return found;
  }
  if (typeof schema.format === 'string' && FORMAT_SAMPLES[schema.format]) return FORMAT_SAMPLES[schema.format]!;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  return 'Example'.padEnd(min, '.');
}

/** A value valid against `schema` (the subset of JSON Schema the generated schemas use). */
export function sampleValue(schema: JsonSchema): JsonValue {
  if ('const' in schema) return schema.const!;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0]!;
  if (Array.isArray(schema.enum)) return schema.enum[0]!;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives)) return sampleValue(alternatives[0] as JsonSchema);
  switch (schema.type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as JsonObject;
      const required = new Set((schema.required ?? []) as string[]);
      const value: JsonObject = {};
      for (const [name, property] of Object.entries(properties)) if (required.has(name)) value[name] = sampleValue(property as JsonSchema);
      return value;
    }
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      return min > 0 && schema.items ? Array.from({ length: min }, () => sampleValue(schema.items as JsonSchema)) : [];
    }
    case 'integer':
      return sampleNumber(schema, true);
    case 'number':
      return sampleNumber(schema, false);
    case 'boolean':
      return false;
    case 'string':
      return sampleString(schema);
    default:
      return null;
  }
}

/** A sample item with the named optional properties too (e.g. coordinates for a map), in schema order. */
export function sampleWith(schema: JsonSchema, extra: readonly string[]): JsonObject {
  const base = sampleValue(schema) as JsonObject;
  const properties = (schema.properties ?? {}) as JsonObject;
  const value: JsonObject = {};
  for (const [name, property] of Object.entries(properties)) {
    if (name in base) value[name] = base[name]!;
    else if (extra.includes(name)) value[name] = sampleValue(property as JsonSchema);
  }
  return value;
}
