/**
 * The HTTP layer every surface shares: methods, request targets, Host values and the
 * other headers, as byte strings. A `Draft` is one request before its framing and Host
 * are settled; `finish` turns it into the RawRequest the client sends.
 */
import fc from 'fast-check';
import type { RawRequest } from '../http.ts';
import { AUTHORITY, BAD_ESCAPES, bytes, canary, EDGE_LENGTHS, frame, hostileText, oneOf, percentEncode, type Framing } from './common.ts';

export interface Draft {
  method: string;
  target: string;
  version: string;
  /** Host: the server's authority, another value, none, or twice. */
  host: { kind: 'normal' } | { kind: 'value'; value: string } | { kind: 'omit' } | { kind: 'twice'; value: string };
  headers: [string, string][];
  body?: { bytes: Buffer; framing: Framing; cuts: number[] };
}

export function finish(draft: Draft): RawRequest {
  const headers: [string, string][] = [];
  if (draft.host.kind === 'normal') headers.push(['Host', AUTHORITY]);
  else if (draft.host.kind === 'value') headers.push(['Host', draft.host.value]);
  else if (draft.host.kind === 'twice') headers.push(['Host', AUTHORITY], ['Host', draft.host.value]);
  headers.push(...draft.headers);
  // A Content-Length or Transfer-Encoding among the fuzzed headers announces a body the draft may not carry: the server may wait for it.
  const announcesBody = draft.headers.some(([name]) => /^(content-length|transfer-encoding)$/i.test(name));
  // CR or LF inside the head ends a line early: the server may read two requests (and answer the second with a 400 and a close).
  const splitsHead = [
    draft.method,
    draft.target,
    draft.version,
    ...draft.headers.flat(),
    ...(draft.host.kind === 'value' || draft.host.kind === 'twice' ? [draft.host.value] : []),
  ].some((part) => /[\r\n]/.test(part));
  let brokenFraming = announcesBody || splitsHead;
  // PRI starts the HTTP/2 connection preface: the parser waits for the rest of it ("SM"), so the server only answers at end of stream.
  let halfClose = announcesBody || draft.method === 'PRI';
  let body: Buffer | undefined;
  if (draft.body) {
    const framed = frame(draft.body.bytes, draft.body.framing, draft.body.cuts);
    headers.push(...framed.headers);
    body = framed.body;
    brokenFraming ||= framed.brokenFraming;
    halfClose ||= framed.halfClose;
  }
  return { method: draft.method, target: draft.target, version: draft.version, headers, body, brokenFraming, halfClose };
}

/** The methods RFC 9110 and its registry name, and QUERY. */
export const KNOWN_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'QUERY'] as const;

/** Mostly the route's own methods; then the other known ones, CONNECT, and tokens no server knows. */
export const method = (allowed: readonly string[]): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 12, arbitrary: oneOf(...allowed) },
    { weight: 5, arbitrary: oneOf(...KNOWN_METHODS) },
    {
      weight: 1,
      arbitrary: oneOf(
        'CONNECT',
        'get',
        'Get',
        'query',
        'PROPFIND',
        'MKCOL',
        'LOCK',
        'SEARCH',
        'M-SEARCH',
        'PURGE',
        'LINK',
        'SOURCE',
        'PRI',
        'BREW',
        'GETT',
        'G',
        'X'.repeat(300),
        'GET\tX',
        'ÄÖ',
        '',
        'GE T',
        'HEAD\u0000',
      ),
    },
  );

export const version: fc.Arbitrary<string> = fc.oneof(
  { weight: 60, arbitrary: fc.constant('HTTP/1.1') },
  { weight: 2, arbitrary: fc.constant('HTTP/1.0') },
  { weight: 1, arbitrary: oneOf('HTTP/2.0', 'HTTP/1.2', 'HTTP/0.9', 'http/1.1', 'HTTP/1.1 ', 'HTTP/1.10', 'HTTP/9.9', 'HTTP/1', 'HTTPS/1.1', '') },
);

/** Host values no URL parser takes as an authority, and odd ones it does. */
export const BAD_HOSTS = [
  '',
  ' ',
  'a b',
  'x:99999',
  'x:65536',
  'x:-1',
  'x:0',
  'x:',
  ':80',
  '[',
  '[::1',
  '::1',
  '[::1]:99999',
  '[zz]',
  'a/b',
  'a?b',
  'a#b',
  'a@b',
  'user:pass@host',
  'a\\b',
  '%41',
  'a%20b',
  'ä.example',
  '😀',
  '..',
  '.',
  'a..b',
  '-a-',
  'x'.repeat(300),
  'host:80:80',
  '0x7f.1',
  '999.999.999.999',
  'localhost:4321 ',
  '\tlocalhost',
] as const;

export const host = (): fc.Arbitrary<Draft['host']> =>
  fc.oneof(
    { weight: 40, arbitrary: fc.constant<Draft['host']>({ kind: 'normal' }) },
    {
      weight: 2,
      arbitrary: oneOf('localhost', 'example.com', 'LOCALHOST:1', '[::1]:4321', '127.0.0.1', `${canary('h')}.example`).map((value): Draft['host'] => ({
        kind: 'value',
        value,
      })),
    },
    { weight: 1, arbitrary: oneOf(...BAD_HOSTS).map((value): Draft['host'] => ({ kind: 'value', value: bytes(value) })) },
    { weight: 1, arbitrary: fc.constant<Draft['host']>({ kind: 'omit' }) },
    { weight: 1, arbitrary: oneOf('example.com', 'a b', AUTHORITY).map((value): Draft['host'] => ({ kind: 'twice', value })) },
  );

const MEDIA = [
  'application/json',
  'application/problem+json',
  'text/csv',
  'application/geo+json',
  'application/vnd.google-earth.kml+xml',
  'application/gpx+xml',
  'text/html',
  'text/markdown',
  'application/graphql-response+json',
  'text/calendar',
  'application/sql',
  '*/*',
  'text/*',
  'application/*',
  'image/png',
  'application/xml',
];

/** Accept: real media types with q-values, wildcards, lists, garbage. */
const accept = fc.oneof(
  { weight: 4, arbitrary: oneOf(...MEDIA) },
  {
    weight: 3,
    arbitrary: fc
      .array(
        fc.tuple(oneOf(...MEDIA), oneOf('', ';q=0', ';q=1', ';q=0.5', ';q=1.001', ';q=-1', ';q=abc', ';q=', ';charset=utf-8', ';level=1;q=0.9', ';q=0.000')),
        { minLength: 1, maxLength: 6 },
      )
      .map((parts) => parts.map(([m, p]) => m + p).join(', ')),
  },
  {
    weight: 1,
    arbitrary: oneOf(
      '',
      ',',
      ';',
      '*',
      '/',
      'json',
      'application/',
      '/json',
      'text/csv;',
      '*/*;q=0',
      ';;;;',
      `application/${canary('h')}`,
      'a/b, '.repeat(2000),
    ),
  },
);

/** A header value from a small set of shapes, or hostile bytes. */
const value = fc.oneof({ weight: 3, arbitrary: hostileText(16).map(bytes) }, { weight: 1, arbitrary: fc.constant(canary('h')) });

/** Request headers the surfaces read, with valid, odd and hostile values. */
export const headers = (): fc.Arbitrary<[string, string][]> =>
  fc
    .array(
      fc.oneof(
        { weight: 6, arbitrary: accept.map((v): [string, string] => ['Accept', v]) },
        { weight: 3, arbitrary: oneOf('', '1.0.0', ' 1.0.0 ', '1.0', '2.0.0', '1.0.0, 1.0.0', canary('h')).map((v): [string, string] => ['API-Version', v]) },
        {
          weight: 3,
          arbitrary: oneOf('*', '"x"', 'W/"x"', '"a", "b"', 'W/""', '"', '""', ',', `"${canary('h')}"`, 'W/"' + 'a'.repeat(5000) + '"', '*, "x"').map(
            (v): [string, string] => ['If-None-Match', v],
          ),
        },
        {
          weight: 2,
          arbitrary: oneOf(
            'Sun, 06 Nov 1994 08:49:37 GMT',
            'Thu, 01 Jan 2099 00:00:00 GMT',
            'yesterday',
            '',
            '0',
            'Sun, 99 Nov 1994 08:49:37 GMT',
            canary('h'),
          ).map((v): [string, string] => ['If-Modified-Since', v]),
        },
        {
          weight: 2,
          arbitrary: oneOf(
            'application/json',
            'application/sql',
            'application/sql; charset=utf-8',
            'application/sql; charset=latin1',
            'text/plain',
            'application/graphql',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            '',
            ';',
            'application/json;;',
            `application/${canary('h')}`,
          ).map((v): [string, string] => ['Content-Type', v]),
        },
        { weight: 2, arbitrary: oneOf('1.1.0', '1', '2.0.0', '', canary('h')).map((v): [string, string] => ['SQL-API-Version', v]) },
        { weight: 2, arbitrary: oneOf('1', '1.x', '2', '', 'v1', canary('h')).map((v): [string, string] => ['GraphQL-API-Version', v]) },
        { weight: 1, arbitrary: oneOf('close', 'keep-alive', 'Upgrade', 'close, close', 'TE', 'x-foo').map((v): [string, string] => ['Connection', v]) },
        { weight: 1, arbitrary: oneOf('websocket', 'h2c', 'HTTP/2.0', 'foo').map((v): [string, string] => ['Upgrade', v]) },
        { weight: 1, arbitrary: oneOf('100-continue', 'nothing', '').map((v): [string, string] => ['Expect', v]) },
        { weight: 1, arbitrary: oneOf('https://evil.example', 'null', '', canary('h')).map((v): [string, string] => ['Origin', v]) },
        { weight: 1, arbitrary: oneOf('GET', 'QUERY', 'POST', 'DELETE', canary('h')).map((v): [string, string] => ['Access-Control-Request-Method', v]) },
        { weight: 1, arbitrary: oneOf('content-type', 'x-a, x-b', canary('h')).map((v): [string, string] => ['Access-Control-Request-Headers', v]) },
        { weight: 1, arbitrary: oneOf('1.2.3.4', '1.2.3.4, 5.6.7.8', 'garbage', '::1', '', canary('h')).map((v): [string, string] => ['X-Forwarded-For', v]) },
        { weight: 1, arbitrary: oneOf('bytes=0-10', 'bytes=-1', 'bytes=999999-', 'bytes=a-b').map((v): [string, string] => ['Range', v]) },
        { weight: 1, arbitrary: oneOf('Bearer x', 'Basic Og==', '', canary('h')).map((v): [string, string] => ['Authorization', v]) },
        { weight: 1, arbitrary: value.map((v): [string, string] => ['Idempotency-Key', v]) },
        { weight: 1, arbitrary: value.map((v): [string, string] => ['Cookie', v]) },
        { weight: 1, arbitrary: value.map((v): [string, string] => [`X-${canary('h')}`, v]) },
        { weight: 1, arbitrary: oneOf('gzip', 'br, gzip', 'identity;q=0', '*;q=0').map((v): [string, string] => ['Accept-Encoding', v]) },
        {
          weight: 1,
          arbitrary: oneOf('gzip', 'chunked', 'chunked, gzip', 'identity', 'xchunked', ' chunked').map((v): [string, string] => ['Transfer-Encoding', v]),
        },
        { weight: 1, arbitrary: oneOf('0', '-1', '1', 'abc', '', '00', '1, 1', ' 0').map((v): [string, string] => ['Content-Length', v]) },
      ),
      { maxLength: 6 },
    )
    .chain((list) =>
      fc.oneof(
        { weight: 40, arbitrary: fc.constant(list) },
        // obs-fold, a header name with bytes no token has, a value with controls, one huge header, a flood of small ones.
        { weight: 1, arbitrary: fc.constant<[string, string][]>([...list, ['X-Fold', `a\r\n b${canary('h')}`]]) },
        { weight: 1, arbitrary: oneOf('X Bad', 'X:Bad', 'X\u0000', 'Ä', '', '(x)', 'X\tY').map((name): [string, string][] => [...list, [name, 'v']]) },
        {
          weight: 1,
          arbitrary: oneOf('\u0000', '\u0001', '\u007f', '\r', 'a\nb', '\u00ff\u00fe').map((v): [string, string][] => [...list, ['X-Control', `a${v}b`]]),
        },
        { weight: 1, arbitrary: oneOf(...EDGE_LENGTHS, 16000, 16384, 20000, 70000).map((n): [string, string][] => [...list, ['X-Huge', 'h'.repeat(n)]]) },
        {
          weight: 1,
          arbitrary: oneOf(100, 1000, 2001, 3000).map((n): [string, string][] => [
            ...list,
            ...Array.from({ length: n }, (_, i): [string, string] => [`X-${i}`, 'v']),
          ]),
        },
      ),
    );

/** A query string (with its `?`) from the pairs, already encoded. */
export const queryString = (pairs: readonly (readonly [string, string])[]) =>
  pairs.length === 0 ? '' : `?${pairs.map(([n, v]) => (v === '\u0000novalue' ? n : `${n}=${v}`)).join('&')}`;

/** A query parameter of any name and any value: what a route without a generator of its own gets. */
export const anyParameter: fc.Arbitrary<[string, string]> = fc.tuple(
  fc.oneof(
    oneOf(
      'q',
      'limit',
      'cursor',
      'sort',
      'facets',
      'collection',
      'exampleLimit',
      'query',
      'variables',
      'callback',
      'format',
      '__proto__',
      'constructor',
      '',
      'a[]',
      'a.b',
      canary('q'),
    ),
    fc.string({ unit: 'grapheme-ascii', maxLength: 8 }).map(percentEncode),
  ),
  fc.oneof(
    hostileText().map((t) => percentEncode(bytes(t))),
    oneOf(...BAD_ESCAPES),
    fc.constant(canary('q')),
  ),
);

/** A request target for `path` with `query`: mostly origin-form, sometimes absolute-form or broken. */
export const target = (path: string, query: string): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 40, arbitrary: fc.constant(`${path}${query}`) },
    {
      weight: 2,
      arbitrary: oneOf(
        `http://${AUTHORITY}${path}${query}`,
        `http://example.com${path}${query}`,
        `HTTP://${AUTHORITY}${path}${query}`,
        `https://${AUTHORITY}${path}${query}`,
      ),
    },
    {
      weight: 1,
      arbitrary: oneOf(
        `${path}${query}#frag`,
        `${path}?${query.slice(1)}?`,
        `${path}//`,
        `/${path}${query}`,
        `${path}/..${query}`,
        `${path}%00${query}`,
        `${path}${query}&`,
        `${path}\\${query}`,
      ),
    },
    {
      weight: 1,
      arbitrary: oneOf(
        '*',
        '//',
        '///',
        '/\\',
        'http://[/',
        'http://[::1',
        'http://a b/',
        'http://',
        'http:',
        `${AUTHORITY}`,
        'a',
        '',
        '/%',
        '/%%',
        '%2F',
        '?',
        '#',
        `//${AUTHORITY}${path}`,
        `//x${path}`,
        'http://@/',
        'http://:99999/',
        'file:///etc/passwd',
      ),
    },
  );

/** Paths no route lists: random segments, percent-encoding, dot segments, near-misses of real paths, overlong ones. */
export const unlistedPath = (known: readonly string[]): fc.Arbitrary<string> => {
  const segment = fc.oneof(
    fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 10 }).map((s) => s.replace(/[^A-Za-z0-9._~-]/g, (c) => percentEncode(c))),
    oneOf(
      '.',
      '..',
      '%2e',
      '%2E%2E',
      '.%2e',
      '%2e%2e%2f',
      '..%2f',
      '..%5c',
      '%00',
      '%',
      '%zz',
      '%ED%A0%80',
      '%C0%AE%C0%AE',
      '~',
      'itm_000000000000000000000000',
      canary('p'),
      'api',
      'image',
      'site.db',
      'dist',
      'server',
      'entry.mjs',
      '.env',
      '.git',
      'headers.json',
      'index.html',
      'etc',
      'passwd',
    ),
    fc.string({ unit: 'binary', maxLength: 6 }).map((s) => percentEncode(bytes(s))),
  );
  return fc.oneof(
    { weight: 3, arbitrary: fc.array(segment, { minLength: 1, maxLength: 6 }).map((parts) => `/${parts.join('/')}`) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          oneOf(...known),
          fc.oneof(segment, oneOf('/', '//', '/.', '/..', '.', 'x', '%20', '/index.html', '.json', '%2F..%2F..%2Fimage%2Fsite.db', '/../../image/site.db')),
        )
        .map(([path, tail]) => `${path}${tail}`),
    },
    { weight: 1, arbitrary: oneOf(...known).map((path) => path.toUpperCase()) },
    { weight: 1, arbitrary: fc.tuple(oneOf(...known), oneOf(200, 2000, 8300, 17000, 70000)).map(([path, n]) => `${path}/${'a'.repeat(n)}`) },
    {
      weight: 1,
      arbitrary: oneOf(
        '/../image/site.db',
        '/..%2fimage%2fsite.db',
        '/%2e%2e/%2e%2e/etc/passwd',
        '/_astro/../../server/entry.mjs',
        '/api/../../dist/headers.json',
        '//etc/passwd',
        '/\\..\\..\\etc\\passwd',
        '/api/sql/..',
        '/graphql/..%2f',
        '/.well-known/../../image/site.db',
      ),
    },
  );
};
