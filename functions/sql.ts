/**
 * Public SQL: `QUERY /api/sql` (and its CORS preflight). In order, before any SQL work:
 * the method (405 with `Allow`, or the preflight), the client's quota (429), the
 * `SQL-API-Version` header (400), the request media type (415 with `Accept-Query`), the
 * body size (413), an acceptable response type (406) and UTF-8 (400). Then, still on the
 * event loop but linear in the text, the lexical bounds (src/sql/lexical.ts): nesting of
 * parentheses and token count (`sql-limit`), balanced parentheses (`sql-syntax`). Then a
 * worker thread (src/sql/pool.ts) — or a place in its queue, if the expected wait is short
 * enough, else 503 `sql-busy` with Retry-After (or 429 `sql-client-busy`, past the
 * client's own statements in flight) — checks the statement against the grammar
 * (src/sql/grammar.ts), runs it over the SQL image and encodes it as JSON or CSV under the response budget, all
 * within the time budget (`sql-limit` past it; the worker is replaced, and the client's
 * quota is charged `sqlOverrunCost` requests). Every answer, errors included, is
 * `no-store`.
 * `createSqlHandler` works on request facts and a body the adapter already read (bounded); its
 * `warm()` starts the workers ahead of the first statement and `close()` ends them.
 * `createSqlFetchHandler` is the Web-standard handler, which reads the body itself.
 */
import { isPublicError, PublicError } from '../src/core/errors.ts';
import { LIMITS } from '../src/core/limits.ts';
import { factsOf, readBoundedBody, toResponse, type Answer, type RequestFacts } from '../src/http/answer.ts';
import { COMMON_HEADERS, EXPOSED_HEADERS } from '../src/http/headers.ts';
import { preflight } from '../src/http/cors.ts';
import { isMediaType, negotiate } from '../src/http/negotiate.ts';
import { errorAnswer, problemAnswer } from '../src/http/problem.ts';
import { RateLimiter, type CounterStore } from '../src/http/rate-limit.ts';
import { checkLexicalBounds } from '../src/sql/lexical.ts';
import { SqlPool, type Encoded, type SqlPoolOptions } from '../src/sql/pool.ts';
import { SQL_API_VERSION, sqlProfile } from '../src/sql/profile.ts';
import { URLS } from '../src/urls.ts';

const ALLOW = 'QUERY, OPTIONS';
const SQL_MEDIA_TYPE = 'application/sql';
const OFFERED = ['application/json', 'text/csv'];
const POLICY_NAME = 'sql';

/** Headers of every SQL answer: the common ones, the version, never cached (the quota policy is the limiter's, as configured). */
const SQL_HEADERS: Readonly<Record<string, string>> = {
  ...COMMON_HEADERS,
  'Access-Control-Expose-Headers': `${EXPOSED_HEADERS}, SQL-API-Version, SQL-Truncated, Accept-Query`,
  'Cache-Control': 'no-store',
  'SQL-API-Version': SQL_API_VERSION,
};

export interface SqlOptions extends SqlPoolOptions {
  counters?: CounterStore;
  /** Requests per client per window, for operators and the benchmark; the SPEC's 120 otherwise. The policy headers advertise the quota in force. */
  quota?: number;
  now?: () => number;
  clientOf?: (request: RequestFacts) => string;
}

/** The SQL answer function; `warm()` starts its workers ahead of the first statement, `close()` terminates them (idle ones never keep a process alive). */
export interface SqlHandler {
  (request: RequestFacts, body: Uint8Array | null): Promise<Answer>;
  warm(): Promise<void>;
  close(): Promise<void>;
  /** The SQL image's bytes as the workers share them: a generation over the same image file passes them on (`SqlPoolOptions.image`). */
  readonly image: SharedArrayBuffer;
}

export function createSqlHandler(options: SqlOptions): SqlHandler {
  const limiter = new RateLimiter({
    store: options.counters,
    limit: options.quota ?? LIMITS.sqlRequestsPerWindow,
    windowSeconds: LIMITS.sqlWindowSeconds,
    policy: POLICY_NAME,
    now: options.now,
  });
  // An overrun is charged as sqlOverrunCost requests: the one already taken, and the rest.
  const pool = new SqlPool({ ...options, onOverrun: (client) => limiter.charge(client, LIMITS.sqlOverrunCost - 1) });
  const clientOf = options.clientOf ?? (() => 'anonymous');
  const baseHeaders: Readonly<Record<string, string>> = { ...SQL_HEADERS, ...limiter.policyHeaders };
  const decoder = new TextDecoder('utf-8', { fatal: true });

  const answer = async (request: RequestFacts, body: Uint8Array | null): Promise<Answer> => {
    let headers: Record<string, string> = { ...baseHeaders };
    try {
      if (request.url.pathname !== URLS.sql) throw new PublicError('not-found', 'Public SQL is served at /api/sql.');
      if (request.method === 'OPTIONS')
        return preflight(ALLOW, { headers: { ...baseHeaders, 'Accept-Query': SQL_MEDIA_TYPE }, allowHeaders: 'Accept, Content-Type, SQL-API-Version' });
      if (request.method !== 'QUERY') {
        return problemAnswer('method-not-allowed', `Send SQL with the QUERY method; this resource takes ${ALLOW}.`, { headers: { ...headers, Allow: ALLOW } });
      }
      const client = clientOf(request);
      // A shared store's take is a Promise; the in-process one is awaited as a value (SQL is async anyway).
      const quota = await limiter.take(client);
      headers = { ...headers, RateLimit: quota.header };
      if (!quota.allowed) return limiter.refusal(quota, headers);
      const version = request.header('SQL-API-Version')?.trim() ?? '';
      if (version !== '' && version !== SQL_API_VERSION) {
        throw new PublicError(
          'unsupported-sql-api-version',
          `The SQL endpoint serves version ${SQL_API_VERSION}; send SQL-API-Version: ${SQL_API_VERSION} or leave the header out.`,
        );
      }
      if (!isMediaType(request.header('Content-Type'), SQL_MEDIA_TYPE)) {
        return problemAnswer('sql-media-type', 'Send the statement as the request body with Content-Type: application/sql (charset=utf-8 optional).', {
          headers: { ...headers, 'Accept-Query': SQL_MEDIA_TYPE },
        });
      }
      if (body !== null && body.length > LIMITS.sqlRequestBytesMax) {
        throw new PublicError('sql-too-large', `The statement is larger than ${LIMITS.sqlRequestBytesMax} bytes; send a shorter one.`);
      }
      const mediaType = negotiate(request.header('Accept'), OFFERED);
      if (mediaType === undefined) throw new PublicError('not-acceptable', `SQL results are available as ${OFFERED.join(', ')}.`);
      let text: string;
      try {
        text = decoder.decode(body ?? new Uint8Array());
      } catch {
        throw new PublicError('sql-syntax', 'The body is not valid UTF-8; send the statement as UTF-8 text.');
      }
      checkLexicalBounds(text);
      let encoded: Encoded;
      try {
        encoded = await pool.run(text, mediaType === 'text/csv' ? 'csv' : 'json', client);
      } catch (error) {
        if (isPublicError(error) && (error.slug === 'sql-busy' || error.slug === 'sql-client-busy')) {
          headers = { ...headers, 'Retry-After': String(pool.retryAfterSeconds(client)) };
        }
        throw error;
      }
      const { body: bytes, truncated } = encoded;
      return {
        status: 200,
        headers: {
          ...headers,
          'Content-Type': mediaType === 'text/csv' ? 'text/csv; charset=utf-8; header=present' : 'application/json',
          'Content-Length': String(bytes.length),
          'SQL-Truncated': String(truncated),
          Vary: 'Accept',
        },
        body: bytes,
      };
    } catch (error) {
      return errorAnswer(error, headers);
    }
  };
  return Object.assign(answer, { warm: () => pool.warm(), close: () => pool.close(), image: pool.image });
}

export async function createSqlFetchHandler(options: SqlOptions): Promise<(request: Request) => Promise<Response>> {
  const answer = createSqlHandler(options);
  return async (request) => toResponse(await answer(factsOf(request), await readBoundedBody(request, LIMITS.sqlRequestBytesMax)));
}

/** The SQL profile as a JSON document (serve it at URLS.sqlProfile, or write it there at build time). */
export function sqlProfileBytes(): Uint8Array {
  return Buffer.from(`${JSON.stringify(sqlProfile(), null, 2)}\n`);
}
