/**
 * A page's records in capnweb's wire form, built from their stored bytes in one pass, for
 * a batch answer that carries them pre-serialized (src/rpc/preserialized.ts). What
 * capnweb sends for `records()` is `JSON.stringify` of its devaluation of the native
 * records (src/rpc/values.ts): an array becomes `[[…]]` (capnweb escapes literal arrays),
 * a Date `["date",ms]`, a URL `["url",href]`, every other value itself. The stored JSON
 * is what the image writer's `JSON.stringify` wrote (src/core/search.ts relies on the
 * same), so parsing and serializing it again gives the same text: only the brackets and
 * the top-level date and URL fields change. The page arrives as the core joins it for
 * REST (its records' UTF-8 bytes and the commas between them, as parts), and is copied a byte at a time into
 * the answer, each bracket doubled and each native field rewritten in place. A page the
 * pass does not take (a `__proto__` key, which capnweb's devaluation drops; anything but
 * objects) is answered undefined, for the caller to go the long way. A property test
 * holds both ways equal over every record of the image and generated ones
 * (tests/rpc/wire.test.ts).
 */
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE } from '../core/json-bytes.ts';
import { toDate, type WireKind } from './values.ts';

/** The native fields of a kind of record, as the pass matches them: each name's UTF-8 bytes. */
export interface WireFields {
  names: readonly Uint8Array[];
  kinds: readonly WireKind[];
}

const fieldsCache = new WeakMap<ReadonlyMap<string, WireKind>, WireFields>();

/** `kinds` (field → kind) in the form the pass reads, computed once per map. */
export function wireFields(kinds: ReadonlyMap<string, WireKind>): WireFields {
  let fields = fieldsCache.get(kinds);
  if (!fields) {
    fields = { names: [...kinds.keys()].map((name) => Buffer.from(name)), kinds: [...kinds.values()] };
    fieldsCache.set(kinds, fields);
  }
  return fields;
}

const PROTO = Buffer.from('"__proto__"');

const digit = (src: Uint8Array, i: number): number => {
  const d = src[i]! - 48;
  return d >= 0 && d <= 9 ? d : NaN;
};
const two = (src: Uint8Array, i: number): number => digit(src, i) * 10 + digit(src, i + 1);

/**
 * The instant of `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM:SS` or the same with `Z`, read from its
 * bytes, where every part is in a range `toDate` reads the same way (a year from 100, any
 * day up to the 28th, a time of day before 24:00); NaN for anything else, which `toDate`
 * reads instead.
 */
function quickInstant(src: Uint8Array, start: number, end: number): number {
  const length = end - start;
  if (length !== 10 && length !== 19 && length !== 20) return NaN;
  if (src[start + 4] !== 45 || src[start + 7] !== 45) return NaN;
  const year = two(src, start) * 100 + two(src, start + 2);
  const month = two(src, start + 5);
  const day = two(src, start + 8);
  if (!(year >= 100 && month >= 1 && month <= 12 && day >= 1 && day <= 28)) return NaN;
  if (length === 10) return Date.UTC(year, month - 1, day);
  if (src[start + 10] !== 84 || src[start + 13] !== COLON || src[start + 16] !== COLON || (length === 20 && src[start + 19] !== 90)) return NaN;
  const hour = two(src, start + 11);
  const minute = two(src, start + 14);
  const second = two(src, start + 17);
  if (!(hour <= 23 && minute <= 59 && second <= 59)) return NaN;
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

/** The wire form of the string value whose quotes are at `start` and `end`, or undefined when capnweb sends the string itself. */
function nativeWire(kind: WireKind, src: Uint8Array, start: number, end: number): string | undefined {
  if (kind !== 'url') {
    // Digits and separators only: no escape, nothing to decode.
    const quick = quickInstant(src, start + 1, end);
    if (!Number.isNaN(quick)) return `["date",${quick}]`;
  }
  const raw = Buffer.from(src.buffer, src.byteOffset + start + 1, end - start - 1);
  const text = raw.includes(BACKSLASH) ? (JSON.parse(Buffer.from(src.buffer, src.byteOffset + start, end - start + 1).toString()) as string) : raw.toString();
  if (kind === 'url') {
    const url = URL.parse(text);
    return url === null ? undefined : `["url",${JSON.stringify(url.href)}]`;
  }
  const time = toDate(text).getTime();
  if (Number.isNaN(time)) return kind === 'instant' ? '["date",null]' : undefined;
  return `["date",${time}]`;
}

/** Whether the bytes between `start` and `end` spell `name`. */
function spells(src: Uint8Array, start: number, end: number, name: Uint8Array): boolean {
  if (end - start !== name.length) return false;
  for (let i = 0; i < name.length; i++) if (src[start + i] !== name[i]) return false;
  return true;
}

/**
 * Records as the core joins them (src/core/query.ts: each record's stored UTF-8 bytes, and
 * a comma between two, as parts) as capnweb sends the array of their native forms,
 * `[[{…},{…}]]`; undefined when the pass does not take them. A string never spans two
 * parts, so each part is scanned where it lies, without joining them first.
 */
export function wireJoined(parts: readonly Uint8Array[], fields: WireFields): Uint8Array | undefined {
  let total = 0;
  for (const part of parts) {
    if (Buffer.from(part.buffer, part.byteOffset, part.byteLength).includes(PROTO)) return undefined;
    total += part.length;
  }
  // Brackets double at most the text; a rewritten field makes room for itself.
  let out: Buffer = Buffer.allocUnsafe(2 * total + 64);
  let o = 0;
  out[o++] = OPEN_BRACKET;
  out[o++] = OPEN_BRACKET;
  let depth = 0;
  // The last byte outside a string: a string after `{` or `,` in a record is one of its keys.
  let previous = COMMA;
  // Bytes of the parts before this one, so a rewritten field can size what is left.
  let before = 0;
  for (const src of parts) {
    const n = src.length;
    let i = 0;
    while (i < n) {
      const b = src[i]!;
      // Between records, only their separators: anything else is not a page of objects.
      if (depth === 0 && b !== OPEN_BRACE && b !== COMMA) return undefined;
      if (b === QUOTE) {
        let end = i + 1;
        while (end < n && src[end] !== QUOTE) end += src[end] === BACKSLASH ? 2 : 1;
        if (end >= n) return undefined;
        if (depth === 1 && previous !== COLON && src[end + 1] === COLON && src[end + 2] === QUOTE) {
          let field = -1;
          for (let f = 0; f < fields.names.length; f++) if (spells(src, i + 1, end, fields.names[f]!)) field = f;
          if (field !== -1) {
            const valueStart = end + 2;
            let valueEnd = valueStart + 1;
            while (valueEnd < n && src[valueEnd] !== QUOTE) valueEnd += src[valueEnd] === BACKSLASH ? 2 : 1;
            if (valueEnd >= n) return undefined;
            const wire = nativeWire(fields.kinds[field]!, src, valueStart, valueEnd);
            if (wire !== undefined) {
              const left = total - before - valueEnd;
              if (o + (valueStart - i) + 3 * wire.length + 2 * left + 64 > out.length) out = grown(out, o, 3 * wire.length + 2 * total + 64);
              while (i < valueStart) out[o++] = src[i++]!;
              o += out.write(wire, o);
              i = valueEnd + 1;
              previous = QUOTE;
              continue;
            }
          }
        }
        while (i <= end) out[o++] = src[i++]!;
        previous = QUOTE;
        continue;
      }
      out[o++] = b;
      i++;
      if (b === OPEN_BRACKET || b === CLOSE_BRACKET) {
        out[o++] = b;
        depth += b === OPEN_BRACKET ? 1 : -1;
      } else if (b === OPEN_BRACE) depth++;
      else if (b === CLOSE_BRACE) depth--;
      previous = b;
    }
    before += n;
  }
  out[o++] = CLOSE_BRACKET;
  out[o++] = CLOSE_BRACKET;
  return out.subarray(0, o);
}

/** `out` with room for `more` bytes after its first `used`. */
function grown(out: Buffer, used: number, more: number): Buffer {
  const bigger = Buffer.allocUnsafe(used + more);
  out.copy(bigger, 0, 0, used);
  return bigger;
}
