/**
 * The catalog of public problem types, shared by every surface. A slug is permanent; the
 * title is the HTTP reason phrase of its status; the detail says what happened and what
 * to do, and never echoes internals. Surfaces throw `PublicError` (src/core/errors.ts)
 * and render it in their own protocol's error form (RFC 9457 problem details for REST:
 * src/http/problem.ts).
 */
export const PROBLEMS = {
  'bad-request': { status: 400, title: 'Bad Request', when: 'The request itself is malformed: its target, its Host or another header is not valid HTTP.' },
  'invalid-query': {
    status: 400,
    title: 'Bad Request',
    when: 'A parameter has a malformed or out-of-range value, or is given twice, or its name or value holds a control character (tab and line breaks included) or U+FFFD (invalid UTF-8 percent-encoding).',
  },
  'invalid-cursor': { status: 400, title: 'Bad Request', when: 'The cursor was not returned by the API for this same collection, filters, search and sort.' },
  'unknown-parameter': { status: 400, title: 'Bad Request', when: 'The collection does not take a parameter of that name (a typo never returns everything).' },
  'unsupported-api-version': {
    status: 400,
    title: 'Bad Request',
    when: 'The `API-Version` request header names a version this API does not serve (omit it, or send `1.0.0`).',
  },
  'forbidden-origin': {
    status: 403,
    title: 'Forbidden',
    when: "A request to the owner lane's MCP endpoint names another host (`Host`) or comes from a page of another site (`Origin`): it takes calls from agents and from the site's own pages only (DNS-rebinding and cross-site protection).",
  },
  'not-found': { status: 404, title: 'Not Found', when: 'Nothing is published at the path.' },
  'method-not-allowed': { status: 405, title: 'Method Not Allowed', when: 'The resource is read-only; `Allow` lists the methods it takes.' },
  'not-acceptable': {
    status: 406,
    title: 'Not Acceptable',
    when: 'None of the media types in `Accept` is available for the resource; the detail lists those that are.',
  },
  'request-timeout': { status: 408, title: 'Request Timeout', when: "The request's header or body did not arrive in time; send it again, whole." },
  'expectation-failed': {
    status: 417,
    title: 'Expectation Failed',
    when: 'The request carries an `Expect` other than `100-continue`, which is the only expectation this server meets; send it without.',
  },
  'target-too-long': { status: 414, title: 'URI Too Long', when: 'The request target (path and query) is longer than the limit.' },
  'headers-too-large': {
    status: 431,
    title: 'Request Header Fields Too Large',
    when: "The request's header section is larger than the limit, or has too many fields.",
  },
  'query-too-long': { status: 414, title: 'URI Too Long', when: 'The query string is longer than the limit.' },
  'misdirected-request': {
    status: 421,
    title: 'Misdirected Request',
    when: 'The owner lane and OAuth are served by one replica, the writer, and this replica is not it: route `/owner/`, `/oauth/` and the OAuth metadata to the writer at the load balancer (docs/deploying.md, several replicas).',
  },
  'rate-limited': { status: 429, title: 'Too Many Requests', when: 'The client used its request quota for the window; `Retry-After` says when to try again.' },
  'internal-error': { status: 500, title: 'Internal Server Error', when: 'The server failed; retry the same request with bounded exponential backoff.' },
  'location-provenance-incomplete': {
    status: 503,
    title: 'Service Unavailable',
    when: 'A geographic format was asked for, but some located records do not say where their coordinates came from; the export stays off until the owner fixes them.',
  },
  'sql-syntax': {
    status: 400,
    title: 'Bad Request',
    when: 'The SQL body is empty or is not one parseable statement; the SQL profile shows the accepted grammar.',
  },
  'sql-unsupported': {
    status: 400,
    title: 'Bad Request',
    when: 'The SQL statement parses but uses syntax outside the accepted grammar (joins, functions, subqueries, writes…); the detail names the construct, the SQL profile lists what is accepted.',
  },
  'sql-unknown-name': {
    status: 400,
    title: 'Bad Request',
    when: 'The SQL statement names a relation or column that is not published; the SQL profile lists the relations and their columns.',
  },
  'sql-limit': {
    status: 400,
    title: 'Bad Request',
    when: 'The SQL statement exceeds a structural or work budget of the SQL profile (parenthesis nesting, tokens, LIMIT, returned columns, expression depth, IN-list length, predicate count, time, encoded response size); the detail names the budget.',
  },
  'sql-too-large': { status: 413, title: 'Content Too Large', when: 'The SQL request body is larger than 16 KiB.' },
  'sql-media-type': {
    status: 415,
    title: 'Unsupported Media Type',
    when: 'The SQL request body is not sent as `application/sql` (charset utf-8 optional); `Accept-Query` names the accepted type.',
  },
  'unsupported-sql-api-version': {
    status: 400,
    title: 'Bad Request',
    when: 'The `SQL-API-Version` request header names a version the SQL endpoint does not serve (omit it, or send `1.1.0`).',
  },
  'sql-busy': {
    status: 503,
    title: 'Service Unavailable',
    when: "Every SQL worker is busy and the statements already waiting would keep this one waiting longer than the queue's bound; retry after the seconds in `Retry-After`.",
  },
  'sql-client-busy': {
    status: 429,
    title: 'Too Many Requests',
    when: 'This client already has the most SQL statements running or waiting that one client may have (four); wait for their answers, or retry after the seconds in `Retry-After`.',
  },
  'music-invalid': { status: 422, title: 'Unprocessable Content', when: 'The body does not match the contract; the detail names the path.' },
  'music-too-large': {
    status: 413,
    title: 'Content Too Large',
    when: 'The music request body is larger than its limit (32 KiB for intersections, 24 KiB for stations).',
  },
  'music-malformed': { status: 400, title: 'Bad Request', when: 'The music request body is not one valid UTF-8 JSON document.' },
  'music-media-type': { status: 415, title: 'Unsupported Media Type', when: 'The music request body is not sent as `application/json`.' },
  'rpc-batch-too-large': {
    status: 413,
    title: 'Content Too Large',
    when: 'The RPC batch body is larger than 65,536 bytes or holds more than 32 operations; nothing in it was run. Split it, or use a WebSocket session.',
  },
  'rpc-batch-malformed': {
    status: 400,
    title: 'Bad Request',
    when: "The RPC batch body is not capnweb's batch format (one JSON message per line); nothing in it was run. Use a capnweb client.",
  },
  'rpc-upgrade-required': {
    status: 426,
    title: 'Upgrade Required',
    when: 'A GET to the RPC endpoint without a WebSocket upgrade: RPC sessions are HTTP batches (POST) or WebSocket sessions (GET with `Upgrade: websocket`).',
  },
} as const satisfies Record<string, { status: number; title: string; when: string }>;

export type ProblemSlug = keyof typeof PROBLEMS;
