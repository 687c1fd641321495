/**
 * A Micropub request's post, read the one way every post type module reads it: the
 * microformats2 JSON shape of the Recommendation (§3.3.2), `{type: ["h-entry"],
 * properties: {name: [value, …]}}`, whatever encoding the client used — a form's `h=entry`
 * and `category[]` keys, a multipart form's fields, or JSON. Values stay as the client sent
 * them (strings from forms; strings, numbers, booleans, `{value, html}`, `{value, alt}`
 * or nested objects from JSON); the small readers below take what a field needs from them
 * and never guess: a value of the wrong kind reads as absent, and the post type module
 * says what is missing.
 */
import { LIMITS } from '../core/limits.ts';

/** A nested microformats2 object (an h-cite, an h-card, an h-adr), or the post itself. */
export interface Mf2Object {
  type: string[];
  properties: Record<string, unknown[]>;
  /** The plain value a consumer without microformats support shows (the h-card's URL). */
  value?: unknown;
}

export const isMf2Object = (value: unknown): value is Mf2Object =>
  typeof value === 'object' &&
  value !== null &&
  Array.isArray((value as Mf2Object).type) &&
  typeof (value as Mf2Object).properties === 'object' &&
  (value as Mf2Object).properties !== null &&
  !Array.isArray((value as Mf2Object).properties);

/** Why a post's shape is refused before any mapping (too many properties or values, too deep, not arrays). */
export function shapeProblem(object: Mf2Object, depth = 1): string | undefined {
  if (depth > LIMITS.micropubNestingMax) return `objects are nested more than ${LIMITS.micropubNestingMax} levels deep (micropubNestingMax)`;
  const names = Object.keys(object.properties);
  if (names.length > LIMITS.micropubPropertiesMax) return `an object has more than ${LIMITS.micropubPropertiesMax} properties (micropubPropertiesMax)`;
  for (const name of names) {
    const values = object.properties[name];
    if (!Array.isArray(values)) return `the property ${name.slice(0, 40)} is not an array of values (Micropub §3.3.2)`;
    if (values.length > LIMITS.micropubValuesMax)
      return `the property ${name.slice(0, 40)} has more than ${LIMITS.micropubValuesMax} values (micropubValuesMax)`;
    for (const value of values) {
      if (isMf2Object(value)) {
        const problem = shapeProblem(value, depth + 1);
        if (problem) return problem;
      }
    }
  }
  return undefined;
}

/** The first value of a property. */
export const first = (object: Mf2Object | undefined, name: string): unknown => object?.properties[name]?.[0];

/** A value as text: a string, a number, the `value` of `{value, html}` (or its HTML without tags), an object's name or plain value. */
export function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (isMf2Object(value)) return textOf(first(value, 'name')) ?? textOf(value.value);
  if (typeof value === 'object' && value !== null) {
    const { value: plain, html } = value as { value?: unknown; html?: unknown };
    if (typeof plain === 'string' && plain.trim() !== '') return plain.trim();
    // Without a plain value, the HTML's text: tags dropped, never rendered or kept as markup.
    if (typeof html === 'string') return textOf(html.replace(/<[^>]*>/g, ''));
  }
  return undefined;
}

/** The first value of a property as text. */
export const text = (object: Mf2Object | undefined, name: string) => textOf(first(object, name));

/** Every value of a property as text (values that are not text left out). */
export const texts = (object: Mf2Object | undefined, name: string): string[] =>
  (object?.properties[name] ?? []).map(textOf).filter((v): v is string => v !== undefined);

/** A number, or a string that is one ("4.5", as form fields and some JSON clients send it). */
export function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

/** A boolean, or the strings forms send for one. */
export function booleanOf(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    if (/^(true|1|yes|on)$/i.test(value.trim())) return true;
    if (/^(false|0|no|off)$/i.test(value.trim())) return false;
  }
  return undefined;
}

/** A nested object of a property (the first value that is one). */
export const objectOf = (object: Mf2Object | undefined, name: string): Mf2Object | undefined => (object?.properties[name] ?? []).find(isMf2Object);

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(?::(\d{2})(?:\.(\d+))?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A date or date-time as the collections write it (src/collections/fields.ts): RFC 3339
 * and the forms clients actually send (`2026-12-07 21:30:00`, `+0100`, six-digit
 * fractions), as `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM[:SS[.fff]][Z|±HH:MM]`; undefined when
 * it is not one.
 */
export function dateTimeOf(value: unknown): string | undefined {
  const match = typeof value === 'string' ? DATE_TIME.exec(value.trim()) : null;
  if (!match) return undefined;
  const [, day, minute, second, fraction, zone] = match;
  if (!minute) return day;
  const offset = zone === undefined ? '' : zone === 'Z' ? 'Z' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  return `${day}T${minute}${second ? `:${second}${fraction ? `.${fraction.slice(0, 3)}` : ''}` : ''}${offset}`;
}

/** The calendar date of a date or date-time (as written: its own local date). */
export const dayOf = (value: unknown): string | undefined => dateTimeOf(value)?.slice(0, 10);

/** An absolute http(s) URL, or undefined. */
export function urlOf(value: unknown): URL | undefined {
  const candidate = typeof value === 'string' ? value : isMf2Object(value) ? (textOf(first(value, 'url')) ?? textOf(value.value)) : undefined;
  if (candidate === undefined) return undefined;
  try {
    const url = new URL(candidate.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}
