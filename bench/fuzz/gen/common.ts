/**
 * The vocabulary every generator shares: byte strings, canary placeholders, hostile
 * values, byte-level mutations and body framing.
 *
 * Byte strings: requests are built as strings whose characters are bytes (code < 256),
 * so a generator decides every byte on the wire; `bytes()` turns text into its UTF-8
 * bytes. Canaries: a generator plants `CANARY<class>zzzzzzzzzz`; before sending, the
 * campaign replaces each with a token unique to that request (`CANARY<class><10 hex>`),
 * and the class says where it was planted, which decides whether an echo is a leak
 * (oracle.ts).
 */
import fc from 'fast-check';

/** Where a canary was planted: h header, s SQL, v JSON value, k JSON key, q query string, g GraphQL document or variables, p path. */
export type CanaryClass = 'h' | 's' | 'v' | 'k' | 'q' | 'g' | 'p';
export const canary = (cls: CanaryClass) => `CANARY${cls}zzzzzzzzzz`;
export const PLACEHOLDER = /CANARY([hsvkqgp])zzzzzzzzzz/g;
export const TOKEN = /CANARY[hsvkqgp][0-9a-f]{10}/g;
/** Replaced at send time by the host and port of the server being attacked (it changes when a crashed server is restarted). */
export const AUTHORITY = '@@AUTHORITY@@';

/** The UTF-8 bytes of `text`, as a byte string (lone surrogates become U+FFFD, as any encoder does). */
export const bytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

export const oneOf = <T>(...values: T[]) => fc.constantFrom(...values);

/** Percent-encodes every byte except RFC 3986 unreserved characters. */
export function percentEncode(byteString: string): string {
  let out = '';
  for (let i = 0; i < byteString.length; i++) {
    const c = byteString.charCodeAt(i);
    out += /[A-Za-z0-9\-._~]/.test(byteString[i]!) ? byteString[i] : `%${c.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Percent-encoded sequences that decoders get wrong: lone and overlong surrogates, overlong forms, truncated and invalid escapes, controls. */
export const BAD_ESCAPES = [
  '%ED%A0%80',
  '%ED%BF%BF',
  '%ED%A0%80%ED%B0%80',
  '%C0%AF',
  '%C0%80',
  '%E0%80%AF',
  '%F4%90%80%80',
  '%F8%88%80%80%80',
  '%FF',
  '%FE%FF',
  '%80',
  '%BF',
  '%00',
  '%0D%0A',
  '%0A',
  '%0D',
  '%09',
  '%1B',
  '%7F',
  '%C2%A0',
  '%E2%80%8B',
  '%E2%80%AE',
  '%EF%BB%BF',
  '%',
  '%2',
  '%G0',
  '%%',
  '%%41',
  '%u0041',
  '%25',
  '%2525',
  '%2B',
  '+',
  '%20',
  '%2F',
  '%2E%2E%2F',
  '%5C',
  '%3B',
  '%26',
  '%3D',
  '%23',
] as const;

/** Text values that break parsers, comparisons, folding or encoders. */
export const HOSTILE_TEXT = [
  '',
  ' ',
  '  ',
  'a',
  '0',
  '-0',
  '-1',
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  'null',
  'undefined',
  'true',
  'false',
  '[]',
  '{}',
  '[object Object]',
  '\u0000',
  'a\u0000b',
  '\u0001\u0002\u001f',
  '\u007f',
  '\r\n',
  '\n',
  '\t',
  '\b',
  '\u2028\u2029',
  '\uFEFF',
  '\u202E',
  '\u200B',
  '\uFFFD',
  '\uFFFF',
  '\uD800',
  '\uDFFF',
  'a\uD800b',
  '\uDC00\uD800',
  '😀',
  '👩‍👩‍👧‍👦',
  '𝕏',
  'ß',
  'ẞ',
  'İ',
  'ı',
  'ﬃ',
  'e\u0301',
  'é',
  'Å',
  'Ω',
  'ǅ',
  'ｆｕｌｌ',
  '٣',
  '²',
  "'",
  '"',
  '`',
  '\\',
  '\\u0000',
  '\\x00',
  '%',
  '_',
  '*',
  '?',
  '..',
  '../',
  '..\\',
  '/',
  '//',
  '#',
  '&',
  '=',
  ';',
  ',',
  ':',
  '|',
  '<',
  '>',
  "' OR '1'='1",
  '" OR ""="',
  "'; DROP TABLE records; --",
  '1; SELECT 1',
  '%_%',
  'a%',
  '<script>alert(1)</script>',
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'itm_000000000000000000000000',
  'itm_',
  'AAAA',
  'Zürich',
  'zurich',
  'ZURICH',
  'Lisboa',
  'Drama',
  'drama',
  'Björk',
] as const;

/** Lengths around and far past the bounds (filter values and searches 200, cursors 1024, query strings 4096). */
export const EDGE_LENGTHS = [63, 64, 65, 140, 141, 199, 200, 201, 500, 1023, 1024, 1025, 4095, 4096, 4097, 8200, 20000] as const;

/** Words that match records, so a value spliced from one reaches the search and comparison code rather than stopping at validation. */
export const PLAUSIBLE = [
  'Drama',
  'drama',
  'Lisbon',
  'Zürich',
  'zurich',
  'Björk',
  'Radiohead',
  'Fado',
  'node.js',
  'Run',
  'movie',
  'the',
  'e',
  'an',
  'ing',
  'Mann',
  'Al Pacino',
  'river',
] as const;
/** Characters that break a value from inside: NUL (most often: it ends C strings), other controls and unpaired surrogates, then quotes, LIKE and FTS syntax. */
const SPLICE = fc.oneof(
  { weight: 3, arbitrary: fc.constant('\u0000') },
  { weight: 3, arbitrary: oneOf('\u0001', '\u001f', '\u007f', '\r\n', '\t', '\uD800', '\uDC00', '\uFFFF', '\uFEFF', '\u202E', '\u2028') },
  { weight: 2, arbitrary: oneOf('"', "'", '\\', '%', '_', '*', '(', ')', ' OR ', ' NEAR ', ' AND ', '^', ':', '-', '+', '/', '&', '=', '#', '?') },
);

/** A plausible word with a hostile character spliced in (`a\u0000b` is the shape that reaches a trigram search). */
export const spliced: fc.Arbitrary<string> = fc
  .tuple(oneOf(...PLAUSIBLE), fc.nat({ max: 64 }), SPLICE, fc.integer({ min: 1, max: 3 }))
  .map(([word, at, bad, times]) => {
    const i = at % (word.length + 1);
    return `${word.slice(0, i)}${bad.repeat(times)}${word.slice(i)}`;
  });

/** Arbitrary text, from printable to unpaired surrogates and controls, short or at a bound. */
export const hostileText = (maxLength = 24): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 6, arbitrary: oneOf(...HOSTILE_TEXT) },
    { weight: 4, arbitrary: spliced },
    { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength }) },
    { weight: 1, arbitrary: fc.string({ unit: oneOf('\u0000', '\u0001', '\u001f', '\u007f', '\u0085', '\r', '\n', '\t', '\u00a0', '\u2028'), maxLength: 8 }) },
    {
      weight: 1,
      arbitrary: fc.tuple(oneOf(...EDGE_LENGTHS), oneOf('a', 'é', '😀', ' ', '%', '\u0000')).map(([n, c]) => c.repeat(Math.ceil(n / c.length)).slice(0, n)),
    },
  );

/** Byte-level mutations of a byte string: flips, truncation, insertion of hostile tokens, deletion and duplication of spans. */
export function mutate(base: string, tokens: readonly string[], roundsMax = 3): fc.Arbitrary<string> {
  const position = (s: string) => fc.noBias(fc.nat({ max: 1 << 30 })).map((n) => n % (s.length + 1));
  const once = (s: string): fc.Arbitrary<string> =>
    fc.oneof(
      fc.tuple(position(s), fc.integer({ min: 0, max: 255 })).map(([i, b]) => s.slice(0, i) + String.fromCharCode(b) + s.slice(i + 1)),
      position(s).map((i) => s.slice(0, i)),
      fc.tuple(position(s), oneOf(...tokens)).map(([i, t]) => s.slice(0, i) + t + s.slice(i)),
      fc.tuple(position(s), fc.integer({ min: 1, max: 24 })).map(([i, n]) => s.slice(0, i) + s.slice(i + n)),
      fc
        .tuple(position(s), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 50 }))
        .map(([i, n, times]) => s.slice(0, i) + s.slice(i, i + n).repeat(times) + s.slice(i)),
    );
  const rounds = (s: string, n: number): fc.Arbitrary<string> => (n === 0 ? fc.constant(s) : once(s).chain((t) => rounds(t, n - 1)));
  return fc.integer({ min: 1, max: roundsMax }).chain((n) => rounds(base, n));
}

export type Framing = 'length' | 'chunked' | 'length-long' | 'length-short' | 'length-and-chunked' | 'lengths-differ' | 'chunked-bad' | 'unframed';

export interface FramedBody {
  headers: [string, string][];
  body: Buffer;
  brokenFraming: boolean;
  halfClose: boolean;
}

/** How a body is framed: mostly honestly, sometimes with lengths and chunks that disagree with the bytes. */
export const framing: fc.Arbitrary<Framing> = fc.oneof(
  { weight: 30, arbitrary: fc.constant<Framing>('length') },
  { weight: 6, arbitrary: fc.constant<Framing>('chunked') },
  { weight: 1, arbitrary: oneOf<Framing>('length-long', 'length-short', 'length-and-chunked', 'lengths-differ', 'chunked-bad', 'unframed') },
);

/** Frames `body` as `kind` says; chunk sizes come from `cuts` (any numbers). */
export function frame(body: Buffer, kind: Framing, cuts: readonly number[]): FramedBody {
  const ok = (headers: [string, string][], bytes: Buffer, brokenFraming = false, halfClose = false): FramedBody => ({
    headers,
    body: bytes,
    brokenFraming,
    halfClose,
  });
  const chunked = (bytes: Buffer, last = '0\r\n\r\n') => {
    const parts: Buffer[] = [];
    let at = 0;
    for (const cut of [...cuts, bytes.length]) {
      const size = Math.min(bytes.length - at, Math.max(1, cut % 4096));
      if (size <= 0) break;
      parts.push(Buffer.from(`${size.toString(16)}${cut % 7 === 0 ? ';ext=1' : ''}\r\n`, 'latin1'), bytes.subarray(at, at + size), Buffer.from('\r\n'));
      at += size;
    }
    if (at < bytes.length) parts.push(Buffer.from(`${(bytes.length - at).toString(16)}\r\n`), bytes.subarray(at), Buffer.from('\r\n'));
    parts.push(Buffer.from(last, 'latin1'));
    return Buffer.concat(parts);
  };
  const slack = 1 + ((cuts[0] ?? 0) % 64);
  switch (kind) {
    case 'length':
      return ok([['Content-Length', String(body.length)]], body);
    case 'chunked':
      return ok([['Transfer-Encoding', 'chunked']], chunked(body, (cuts[1] ?? 0) % 3 === 0 ? '0\r\nX-Trailer: 1\r\n\r\n' : '0\r\n\r\n'));
    case 'length-long':
      return ok([['Content-Length', String(body.length + slack)]], body, true, true);
    case 'length-short':
      return ok([['Content-Length', String(Math.max(0, body.length - slack))]], body, true, true);
    case 'length-and-chunked':
      return ok(
        [
          ['Content-Length', String(body.length)],
          ['Transfer-Encoding', 'chunked'],
        ],
        chunked(body),
        true,
        true,
      );
    case 'lengths-differ':
      return ok(
        [
          ['Content-Length', String(body.length)],
          ['Content-Length', String(body.length + slack)],
        ],
        body,
        true,
        true,
      );
    case 'chunked-bad':
      return ok(
        [['Transfer-Encoding', 'chunked']],
        Buffer.concat([Buffer.from(`${(cuts[2] ?? 0) % 2 === 0 ? 'zz' : (body.length + slack).toString(16)}\r\n`), body]),
        true,
        true,
      );
    case 'unframed':
      return ok([], body, true, true);
  }
}
