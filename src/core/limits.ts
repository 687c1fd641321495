/**
 * Every bound of the public read surfaces, in one place, each with its unit and the
 * reason for its value (what it protects). Inputs are checked against these before any
 * work is done, a breach names the limit it broke, and the README's limits table is
 * generated from this list.
 */
interface Limit {
  value: number;
  unit: string;
  why: string;
}

export const LIMIT_DEFINITIONS = {
  pageSizeDefault: { value: 50, unit: 'items', why: 'Page size when `limit` is absent (SPEC §4.1).' },
  pageSizeMax: { value: 100, unit: 'items', why: 'Largest page (SPEC §4.1, §8): bounds rows read and bytes encoded per request.' },
  requestTargetBytesMax: {
    value: 8192,
    unit: 'bytes',
    why: 'Path and query of one request (RFC 9112 §3 recommends supporting at least 8000 octets): longer targets are refused before any routing (414).',
  },
  headerBytesMax: {
    value: 16 * 1024,
    unit: 'bytes',
    why: "The whole header section, request line included (Node's default): bounds parsing work and memory per request (431).",
  },
  acceptParsesRemembered: {
    value: 256,
    unit: 'Accept values',
    why: 'Distinct `Accept` header values whose parsed media ranges are remembered (clients send a handful of fixed strings, parsed again on every request otherwise); a flood of distinct values only replaces the least recent.',
  },
  headersCountMax: {
    value: 100,
    unit: 'fields',
    why: 'Header fields per request: real clients send about twenty; bounds the header map built per request (431).',
  },
  headersTimeoutMs: {
    value: 20_000,
    unit: 'milliseconds',
    why: "Time for a client to send its whole header section (slowloris): nginx's `client_header_timeout` is 60 s; twenty is enough on any real link (408).",
  },
  requestTimeoutMs: {
    value: 30_000,
    unit: 'milliseconds',
    why: 'Time for a client to send its whole request, body included: bodies are at most 64 KiB here (408).',
  },
  keepAliveTimeoutMs: {
    value: 5_000,
    unit: 'milliseconds',
    why: 'An idle keep-alive connection is closed after this long (nginx: 75 s; five keeps idle sockets from holding connection slots).',
  },
  connectionsMax: {
    value: 1024,
    unit: 'connections',
    why: 'Open connections at once; beyond it new ones are closed at once, so a flood of idle sockets cannot exhaust file descriptors or memory.',
  },
  queryStringBytesMax: { value: 4096, unit: 'bytes', why: 'No legitimate list query needs more; stops parsing-cost abuse before any work (414).' },
  filterValueCharsMax: { value: 200, unit: 'characters', why: 'Longer than any name or title; bounds folding and comparison work per filter.' },
  searchCharsMax: { value: 200, unit: 'characters', why: 'A substring search longer than this is not a search; bounds the full-text query.' },
  cursorCharsMax: { value: 1024, unit: 'characters', why: 'Real cursors are under 200; bounds decoding and signature work.' },
  sortKeysMax: { value: 4, unit: 'keys', why: 'Each key adds a comparison per row; four covers every real ordering.' },
  facetValuesMax: { value: 50, unit: 'values per dimension', why: 'Most frequent first; keeps `meta.facets` small on wide fields such as cast.' },
  restRequestsPerWindow: {
    value: 1000,
    unit: 'requests',
    why: 'Per client address and window across all collection operations (SPEC §8): generous for people and agents, bounded for floods.',
  },
  restWindowSeconds: { value: 60, unit: 'seconds', why: 'The quota window (SPEC §8); a 429 says `Retry-After: 60`, never less than the time left in it.' },
  redisCallTimeoutMs: {
    value: 50,
    unit: 'milliseconds',
    why: 'One quota call to Redis (`REDIS_URL`): the script round trip measured 0.23 ms p50 and 11 ms p99 on a busy two-core machine, so past this Redis is down or overloaded, and the request is counted in process instead (fail open) rather than wait. The timer yields once to pending input before it fires, so a stall of this process is not taken for a slow Redis.',
  },
  redisConnectTimeoutMs: {
    value: 2000,
    unit: 'milliseconds',
    why: "A starting replica's first quota calls wait this long for its first connection to Redis (a connection and the scripts' loading), rather than fail open at once because it is new.",
  },
  redisProbeIntervalMs: {
    value: 1000,
    unit: 'milliseconds',
    why: 'The quota heartbeat: Redis is asked this often (one PING), with or without traffic, so /api/status.json says `ok` within seconds of Redis answering again (and counting goes back to it), and `degraded` within seconds of it going.',
  },
  redisReconnectMaxMs: {
    value: 500,
    unit: 'milliseconds',
    why: 'The longest wait between two attempts to reconnect to Redis (each 50 ms longer than the last until then): a refused connection costs nothing, and a Redis restarted on its port counts quotas again within this and one heartbeat.',
  },
  redisHeartbeatTimeoutMs: {
    value: 500,
    unit: 'milliseconds',
    why: 'A heartbeat PING unanswered this long, while quotas count in Redis, marks them degraded: ten times a quota call’s bound, so a busy moment of this process or of Redis does not flap the status a balancer reads; a quota call past its own bound still fails open at once.',
  },
  redisClientKeyCharsMax: {
    value: 64,
    unit: 'characters',
    why: 'A client key (an address) longer than this is stored in Redis as its SHA-256, so no `X-Forwarded-For` value can grow a key name; a counter value holds at most 13 slots.',
  },
  rateLimitClients: {
    value: 100_000,
    unit: 'client addresses',
    why: 'Counters kept per window in the in-process store; beyond it the oldest are dropped, bounding memory under address-spraying.',
  },
  countCacheEntries: { value: 5000, unit: 'filter sets', why: 'Counts and facets remembered per filter set; bounds the memory they take.' },
  answerCacheBytes: {
    value: 32 * 1024 * 1024,
    unit: 'bytes',
    why: 'List answers remembered per `Accept` and request target (exact: the image is immutable), replayed before the target is parsed; bounds their memory: keys, bodies, headers and per-entry overhead are charged (src/http/answer-cache.ts). `ANSWER_CACHE_BYTES` overrides, 0 turns it off.',
  },
  pageCacheBytes: {
    value: 16 * 1024 * 1024,
    unit: 'bytes',
    why: 'Site pages rendered on request (a collection page with a query string, a record page, a search, their Markdown twins) remembered per `Accept` and request target and replayed before the target is parsed, admitted from the second request like list answers; bounds their memory. `PAGE_CACHE_BYTES` overrides, 0 turns it off.',
  },
  collectionPageBytesMax: {
    value: 60 * 1024,
    unit: 'bytes',
    why: 'A collection page as sent, its images aside (they are lazily loaded WebP variants): a page of the largest size with its filters still loads fast on a slow phone connection. Checked by the site tests on every collection.',
  },
  mapPointsMax: {
    value: 250,
    unit: 'points per collection',
    why: 'Located records drawn and listed on the map page, newest first: bounds the prerendered page (about 400 bytes a point, drawn and listed) when a collection holds tens of thousands; the exports hold them all.',
  },
  sqlRequestBytesMax: {
    value: 16 * 1024,
    unit: 'bytes',
    why: 'SQL request body (SPEC §8): one statement over three small relations never needs more; bounds parsing work before any is done (413).',
  },
  sqlRowsMax: {
    value: 100,
    unit: 'rows',
    why: 'Rows per SQL answer and largest `LIMIT` (SPEC §8); without `LIMIT` the first 100 are returned with `truncated: true` when more exist.',
  },
  sqlColumnsMax: { value: 24, unit: 'columns', why: 'Returned columns per SQL answer, `*` expanded (SPEC §8): bounds encoding work per row.' },
  sqlResponseBytesMax: {
    value: 512 * 1024,
    unit: 'bytes',
    why: 'Encoded SQL answer (SPEC §8): rows past it are cut and `truncated` set; if not even one row fits, the answer is a `sql-limit` problem.',
  },
  sqlRequestsPerWindow: {
    value: 120,
    unit: 'requests',
    why: 'SQL requests per client and window (SPEC §8): each one parses and runs a statement, so the quota is tighter than REST.',
  },
  sqlWindowSeconds: { value: 60, unit: 'seconds', why: 'The SQL quota window (SPEC §8); a 429 says `Retry-After: 60`.' },
  sqlExpressionDepthMax: {
    value: 8,
    unit: 'levels',
    why: 'Nesting of boolean operators (a chain of the same AND or OR is one level; NOT adds one): bounds recursion in checking and evaluation.',
  },
  sqlInListMax: { value: 50, unit: 'values', why: 'Values in one `IN (…)` list: bounds comparisons per row.' },
  sqlPredicatesMax: { value: 32, unit: 'predicates', why: 'Comparisons, IS, IN, LIKE and BETWEEN tests in one WHERE clause: bounds evaluation work per row.' },
  sqlOrderKeysMax: { value: 4, unit: 'keys', why: 'ORDER BY keys, as for REST sorts: each adds a comparison per row.' },
  sqlStatementCacheEntries: {
    value: 1000,
    unit: 'statements',
    why: 'Checked statements remembered by their exact text, so a repeated query skips parsing; bounds the memory they take.',
  },
  sqlParenDepthMax: {
    value: 8,
    unit: 'levels',
    why: 'Nesting of parentheses and brackets, counted on the raw text before the parser sees it (strings, quoted identifiers and comments skipped): the parser backtracks exponentially in it (30 unclosed `(` once held the process for good); the deepest statement the expression-depth budget accepts needs 8.',
  },
  sqlTokensMax: {
    value: 1000,
    unit: 'tokens',
    why: 'Lexical tokens in one statement (words, numbers, quoted strings and identifiers, operators, punctuation; comments and whitespace are free), counted before parsing: parsing costs grow faster than linearly with long lists; real statements use under 200.',
  },
  sqlTimeBudgetMs: {
    value: 250,
    unit: 'milliseconds',
    why: 'Processor time to parse, check, run and encode one statement in a SQL worker thread (and at most four times as long on the clock, however busy the machine); past it the worker is terminated and replaced and the answer is a `sql-limit` problem, so no statement can hold a thread longer.',
  },
  sqlWorkers: {
    value: 2,
    unit: 'worker threads',
    why: "SQL statements are parsed and run off the event loop, in this many worker threads, each holding its own copy of the SQL image; a client runs one statement at a time, so one client's slow statement never holds them all. More would cost memory rather than add throughput, which the event loop bounds.",
  },
  sqlQueueMax: {
    value: 256,
    unit: 'statements',
    why: 'Statements waiting for a busy SQL worker, however cheap: a memory bound (at most 16 KiB of text each), reached only by a burst; what normally sheds load is the expected wait (`sqlQueueWaitMs`). Past it the answer is a 503 `sql-busy` problem with `Retry-After`.',
  },
  sqlQueueWaitMs: {
    value: 500,
    unit: 'milliseconds',
    why: "The longest a statement may expect to wait for a worker, estimated from the run times of recent statements (and of those running now); a statement that would wait longer, or that has waited this long when a worker frees, is a 503 `sql-busy`. Cheap statements (about 1 ms) queue by the hundred, as Datasette's do; a flood of slow ones (250 ms) is shed after a few.",
  },
  sqlClientStatementsMax: {
    value: 4,
    unit: 'statements',
    why: 'SQL statements one client may have running or waiting at once, of which one runs at a time: past it that client gets a 429 `sql-client-busy` with `Retry-After` (its own limit, RFC 6585), so one client can neither fill the queue nor hold more than one worker while others wait.',
  },
  sqlOverrunCost: {
    value: 30,
    unit: 'requests',
    why: "What a statement that overruns the time budget costs against its client's SQL quota (an ordinary statement costs 1): besides its 250 ms, each overrun costs a worker restart (about 0.3 s of processor time), so one client address can cause at most four a minute.",
  },
  musicListItemsMax: {
    value: 500,
    unit: 'items',
    why: 'Entries per list of a music profile (artists, recordings, albums, genres): bounds matching work per request.',
  },
  musicNameCharsMax: { value: 200, unit: 'characters', why: 'A name or title in a music request, as for filter values: bounds folding and comparison work.' },
  musicNotesMax: { value: 20, unit: 'notes', why: 'Free-text notes in a music profile: they are carried, never matched.' },
  musicNoteCharsMax: { value: 500, unit: 'characters', why: 'One note of a music profile.' },
  musicExternalIdCharsMax: { value: 200, unit: 'characters', why: 'One external ID value in a music profile.' },
  musicExternalIdSchemesMax: { value: 10, unit: 'schemes', why: 'External ID schemes per music profile entry (unknown ones are ignored, but still counted).' },
  musicMatchesMax: { value: 100, unit: 'tracks', why: 'Matching tracks returned by a music intersection.' },
  musicIntersectionBytesMax: {
    value: 32 * 1024,
    unit: 'bytes',
    why: 'Music intersection request body (SPEC §4.4): bounds parsing work before any is done (413).',
  },
  musicStationBytesMax: { value: 24 * 1024, unit: 'bytes', why: 'Music station request body (SPEC §4.4): bounds parsing work before any is done (413).' },
  musicStationSeedCharsMax: { value: 64, unit: 'characters', why: 'The station seed string.' },
  musicStationAffinitiesMax: { value: 50, unit: 'affinities', why: 'Affinities per station request: each adds scoring work per track.' },
  musicStationVotesMax: { value: 100, unit: 'votes', why: 'Votes per station request.' },
  musicStationExclusionsMax: { value: 100, unit: 'exclusions', why: 'Hard exclusions per station request.' },
  musicStationRecentMax: { value: 200, unit: 'canonical IDs', why: 'Recently played canonical IDs per station request.' },
  musicStationTracksMax: { value: 6, unit: 'tracks', why: 'Tracks per station answer (SPEC §4.4).' },
  musicStationIntentCharsMax: { value: 140, unit: 'characters', why: 'The optional short intent text of a station request.' },
  feedDocumentItems: {
    value: 50,
    unit: 'items',
    why: 'Newest feed items in `/feed.json` and `/feed.xml`: what a feed reader polls for; the whole stream pages through `/api/feed-items.json`.',
  },
  tasteExampleLimitDefault: { value: 5, unit: 'examples', why: 'Illustrative examples in the movie taste summary when `exampleLimit` is absent (SPEC §2.3).' },
  tasteExampleLimitMax: { value: 12, unit: 'examples', why: 'Largest `exampleLimit` of the movie taste summary: examples illustrate, they are not a listing.' },
  tasteDistributionValuesMax: {
    value: 10,
    unit: 'values per dimension',
    why: 'Most frequent first; keeps the taste summary distributions (wide on director) short.',
  },
  graphqlDocumentBytesMax: {
    value: 64 * 1024,
    unit: 'bytes',
    why: 'GraphQL request body or GET `query` (SPEC §8): bounds parsing work before any is done (413).',
  },
  graphqlTokensMax: {
    value: 5000,
    unit: 'tokens',
    why: 'Lexical tokens in one GraphQL document, stopped by the parser itself: bounds parsing and validation work (the full introspection query is about 300).',
  },
  graphqlDepthMax: {
    value: 12,
    unit: 'levels',
    why: 'Nesting of fields in one GraphQL operation, fragments expanded, introspection subtrees not counted: the deepest useful query is 6.',
  },
  graphqlAliasesMax: {
    value: 30,
    unit: 'aliases',
    why: 'Aliased fields in one GraphQL operation, fragments expanded: aliases multiply work without multiplying the document.',
  },
  graphqlCostMax: {
    value: 1000,
    unit: 'cost points',
    why: 'Static cost of one GraphQL operation (`@cost`, `@listSize`), computed before execution: four full 100-node pages with nested objects.',
  },
  graphqlCostPerWindow: {
    value: 50_000,
    unit: 'cost points',
    why: 'GraphQL cost spent per client and window (`@rateLimit` on Query): at least fifty over-budget-sized operations a minute, and thousands of small ones.',
  },
  graphqlWindowSeconds: { value: 60, unit: 'seconds', why: 'The GraphQL cost window; a 429 says `Retry-After` with the seconds left in it.' },
  graphqlDocumentCacheEntries: {
    value: 1000,
    unit: 'documents',
    why: 'Parsed and validated GraphQL documents remembered by their exact text, so a repeated query skips parsing and validation; bounds the memory they take.',
  },
  graphqlDocumentCacheCharsMax: {
    value: 8192,
    unit: 'characters',
    why: 'Only documents up to this length are remembered (real queries are far shorter); what the memo holds is bounded by `graphqlDocumentCacheBytes`.',
  },
  graphqlFirstDefault: { value: 50, unit: 'nodes', why: 'Nodes per connection when `first` is absent, as REST `limit` (SPEC §4.1).' },
  countCacheBytes: {
    value: 8 * 1024 * 1024,
    unit: 'bytes',
    why: 'Counts and facets remembered per filter set, in each of the two query cores (collections, search): keys, facet values and per-entry overhead are charged (src/core/memo.ts), so floods of distinct filters or searches stay within it.',
  },
  imageMapBytes: {
    value: 2 * 1024 * 1024 * 1024 - 64 * 1024,
    unit: 'bytes',
    why: "How much of the read-only image SQLite reads through a memory map instead of copying pages into its own 2 MB cache: every row a page touches is then a memory read, not a system call (a filtered page over 40 authors, 81 → 43 µs), and the mapped pages are the operating system's file cache, shared by every generation and process reading the image. SQLite caps the map at its build's limit (2 GiB by default).",
  },
  statementCacheBytes: {
    value: 16 * 1024 * 1024,
    unit: 'bytes',
    why: 'Prepared SQLite statements of the image, one per query shape (filters, sort keys, search plan, cursor): each is charged its SQL text and 32 bytes of native memory per character (measured: 27–31), so combinations of filters and sorts cannot grow it without bound.',
  },
  graphqlAnswerCacheBytes: {
    value: 16 * 1024 * 1024,
    unit: 'bytes',
    why: 'GraphQL results remembered by query text, operation name, variables and negotiated media type (exact: the image is immutable), admitted from their second request as list answers are; each is charged its body. `ANSWER_CACHE_BYTES` sets this budget too, 0 turns it off.',
  },
  graphqlDocumentCacheBytes: {
    value: 16 * 1024 * 1024,
    unit: 'bytes',
    why: 'Checked GraphQL documents remembered: each is charged its text, 128 bytes of syntax tree per character and 4 KiB per validation error (measured: 63–119 and about 3 KiB), so a flood of distinct documents stays within it.',
  },
  rateLimitCounterBytes: {
    value: 16 * 1024 * 1024,
    unit: 'bytes',
    why: 'Quota counters of one in-process store (one per surface), charged per client key and entry overhead: keys may come from `X-Forwarded-For` behind a trusted proxy, so their count alone does not bound the memory.',
  },
  answerCacheAdmissionSlots: {
    value: 65_536,
    unit: 'query hashes',
    why: 'A list answer is remembered from the second time its query is asked among about this many recent distinct queries (a fixed 256 KiB table): a flood of distinct queries is never admitted, so it neither evicts what real traffic repeats nor churns memory.',
  },
  mcpRequestBytesMax: {
    value: 64 * 1024,
    unit: 'bytes',
    why: 'One MCP JSON-RPC message (or a 2025-03-26 batch) on `POST /mcp`: the largest real one is a music profile for `music.intersect` (32 KiB as in REST); bounds parsing work before any is done (413).',
  },
  mcpBatchMessagesMax: {
    value: 10,
    unit: 'messages',
    why: 'Messages in one JSON-RPC batch, which only protocol version 2025-03-26 allows (later versions take one message per request): bounds the work one request can queue.',
  },
  mcpRequestsPerWindow: {
    value: 600,
    unit: 'requests',
    why: 'MCP HTTP requests per client and window on `/mcp`: an agent makes a few calls per turn; bounded for floods before any JSON is parsed.',
  },
  mcpToolWorkPerWindow: {
    value: 1200,
    unit: 'work units',
    why: 'Tool work per client and window: each tool call costs its declared weight (1 for a page of `taste.find`, more for plans, recommendations and music intersections), spent before the tool runs.',
  },
  mcpWindowSeconds: { value: 60, unit: 'seconds', why: 'The MCP quota window; a 429 says `Retry-After: 60`.' },
  mcpFindLimitMax: {
    value: 50,
    unit: 'items',
    why: 'Largest page of `taste.find` and `sports.list`: what fits an agent context with room to reason; the cursor continues.',
  },
  mcpGetIdsMax: { value: 20, unit: 'canonical IDs', why: 'Records per `taste.get` call: bounds the rows read and the tokens returned to the agent.' },
  mcpRenderIdsMax: {
    value: 24,
    unit: 'canonical IDs',
    why: 'Records per render tool call (`taste.render_recommendations`, `places.render_map`, `sports.render_events`): what one view shows legibly.',
  },
  mcpPlanStopsMax: {
    value: 12,
    unit: 'places',
    why: 'Stops in one `places.plan`: a day among places, not a tour; the ordering is a greedy nearest-neighbour walk, quadratic in stops.',
  },
  recommendationsDefault: {
    value: 5,
    unit: 'records',
    why: 'Recommendations when `limit` is absent, on MCP (`taste.recommend`) and RPC (`discovery.recommend`) alike.',
  },
  recommendationsMax: {
    value: 10,
    unit: 'records',
    why: 'Recommendations per `taste.recommend` or `discovery.recommend` call: grounded suggestions, not a listing.',
  },
  recommendIntentCharsMax: {
    value: 300,
    unit: 'characters',
    why: 'The stated intent of `taste.recommend` and `discovery.recommend`: a sentence or two; bounds tokenizing work.',
  },
  mcpAnswerCacheBytes: {
    value: 16 * 1024 * 1024,
    unit: 'bytes',
    why: 'Public MCP `tools/call` answers remembered per generation by tool, arguments and the headers the transport reads (exact: the tools read only the immutable image), admitted from their second request as list answers are; each is charged its body. Quotas are still charged on every call. `ANSWER_CACHE_BYTES` sets this budget too, 0 turns it off.',
  },
  rpcAnswerCacheBytes: {
    value: 16 * 1024 * 1024,
    unit: 'bytes',
    why: 'RPC HTTP batch answers remembered per generation by the batch text (exact: a fresh session over the immutable image answers the same messages with the same messages), admitted from their second request as list answers are; each is charged its text. The session quota is still charged on every batch. `ANSWER_CACHE_BYTES` sets this budget too, 0 turns it off.',
  },
  tasteAnswerCacheBytes: {
    value: 1024 * 1024,
    unit: 'bytes',
    why: 'Taste summaries remembered per `exampleLimit` (13 values); bodies, headers and overhead charged as for list answers.',
  },
  rpcBatchBytesMax: {
    value: 65_536,
    unit: 'bytes',
    why: 'One RPC HTTP batch body (SPEC §8), checked on the raw body before capnweb parses it: bounds parsing work (413, nothing run). WebSocket messages are bounded the same (`ws` maxPayload).',
  },
  rpcBatchOperationsMax: {
    value: 32,
    unit: 'operations',
    why: 'Calls and property reads (capnweb `pipeline` and `remap` expressions) in one HTTP batch or one WebSocket message (SPEC §8), counted on the raw body before capnweb runs: bounds the work one round trip can start (413 for a batch; the socket is closed with 1009 for a message).',
  },
  rpcSessionsPerWindow: {
    value: 100,
    unit: 'sessions',
    why: 'RPC sessions (HTTP batches and WebSocket upgrades alike) per source address and window (SPEC §8); the 101st is a 429 with `Retry-After`.',
  },
  rpcWindowSeconds: { value: 60, unit: 'seconds', why: 'The RPC session window (SPEC §8); a 429 says `Retry-After: 60`.' },
  rpcBatchExportBytesMax: {
    value: 131_072,
    unit: 'bytes',
    why: 'An export body over HTTP batch (SPEC §8): a batch answer is buffered whole, so larger exports fail with RESOURCE_LIMIT, naming WebSocket or `limit` as the way out.',
  },
  rpcExportBytesMax: {
    value: 8 * 1024 * 1024,
    unit: 'bytes',
    why: 'An export body over WebSocket: the whole selection is rendered in memory, so a larger one fails with RESOURCE_LIMIT rather than holding the process.',
  },
  rpcInFlightMax: {
    value: 32,
    unit: 'calls',
    why: 'Calls awaited by a WebSocket client (pulled, not yet answered) at once: past it the session is closed (1008), so one socket cannot queue unbounded work.',
  },
  rpcSessionCallsMax: {
    value: 2000,
    unit: 'calls',
    why: 'Method calls one session may make, `.map()` replays and pipelined calls included, counted where they run: exhausted → RESOURCE_LIMIT, so pipelining cannot multiply work past it.',
  },
  rpcSessionWorkMax: {
    value: 50_000,
    unit: 'work units',
    why: 'Weighted work one session may spend: a page read costs its rows plus one (`records()` of 100 is 101, `info()` is 1), an export its rows plus one per KiB of body. Exhausted → RESOURCE_LIMIT.',
  },
  rpcIdleSeconds: {
    value: 60,
    unit: 'seconds',
    why: 'A WebSocket session with no message from the client for this long is closed (1001), so idle sockets do not hold connection slots or generations.',
  },
  rpcStreamChunkItems: { value: 100, unit: 'items', why: 'Feed items per chunk of `feed.stream()`: one core page per chunk, read only when the client pulls.' },
  oauthAccessTokenSeconds: {
    value: 3600,
    unit: 'seconds',
    why: 'Lifetime of an owner-lane access token: short, so a leaked one is worth little; clients refresh silently.',
  },
  oauthRefreshTokenSeconds: {
    value: 30 * 24 * 3600,
    unit: 'seconds',
    why: 'Lifetime of a refresh token: each refresh rotates it and starts a new one, so an agent in use never signs in again, and an abandoned grant dies within a month.',
  },
  oauthCodeSeconds: {
    value: 60,
    unit: 'seconds',
    why: 'Lifetime of an authorization code (RFC 9700 §4.5: short-lived, single use): the client exchanges it at once.',
  },
  oauthClientSeconds: {
    value: 90 * 24 * 3600,
    unit: 'seconds',
    why: 'A dynamically registered client expires after 90 days (SPEC §8): registrations are anonymous, so none lives forever; afterwards it is `invalid_client` and the client registers again.',
  },
  oauthSignInSeconds: {
    value: 600,
    unit: 'seconds',
    why: "Time from `/oauth/authorize` to the identity provider's callback, and from the consent page to its answer: enough to type a password and read the page, short enough that an abandoned sign-in is forgotten.",
  },
  oauthSessionSeconds: {
    value: 900,
    unit: 'seconds',
    why: "The owner's session on the connected-clients page (cookie and server record): short, since it can revoke grants.",
  },
  oauthRegistrationBytesMax: {
    value: 16 * 1024,
    unit: 'bytes',
    why: 'Client registration body (RFC 7591 JSON): real metadata is under 2 KiB; bounds parsing before any work (413).',
  },
  oauthFormBytesMax: {
    value: 8 * 1024,
    unit: 'bytes',
    why: 'Token, revocation and consent form bodies: a refresh token, a verifier and a few short fields (413).',
  },
  micropubRequestBytesMax: {
    value: 64 * 1024,
    unit: 'bytes',
    why: 'A Micropub form or JSON request on `POST /micropub`, and any request to `/micropub` or `/micropub/media` without an `Authorization: Bearer` header: a post with a review of some thousand words is under 32 KiB, and a form carrying its token is as small; a larger request without a header token is refused from its headers, unread, so a stranger costs no more (413).',
  },
  micropubMultipartBytesMax: {
    value: 12 * 1024 * 1024,
    unit: 'bytes',
    why: 'A multipart request to `/micropub` or `/micropub/media` under a bearer header: one photo from a phone (micropubMediaBytesMax) and its form fields; the dispatcher stops reading past it (413).',
  },
  micropubMediaBytesMax: {
    value: 10 * 1024 * 1024,
    unit: 'bytes',
    why: 'One image uploaded to the media endpoint: a full-size phone photo is 3–8 MB; bounds the file written to the content folder and the variants the build makes of it (413).',
  },
  micropubMediaPixelsMax: {
    value: 50_000_000,
    unit: 'pixels',
    why: 'Width × height of one image uploaded to the media endpoint: a 48 MP phone sensor is under it; a small file declaring a huge canvas (a decompression bomb) would cost the build its memory when it makes the variants (413).',
  },
  micropubPropertiesMax: {
    value: 64,
    unit: 'properties',
    why: 'Properties of one Micropub post or update operation (nested objects included): real clients send under twenty; bounds the mapping work (400).',
  },
  micropubValuesMax: {
    value: 100,
    unit: 'values',
    why: 'Values of one property (categories, photos): bounds the arrays mapped onto a record (50 names at most per field) (400).',
  },
  micropubNestingMax: {
    value: 4,
    unit: 'levels',
    why: 'Depth of nested microformats objects (an h-entry citing an h-cite whose author is an h-card is three): deeper JSON is refused before it is walked (400).',
  },
  oauthRedirectUrisMax: { value: 10, unit: 'URIs', why: 'Redirect URIs per registered client: each is matched exactly; real clients register one or two.' },
  oauthMetadataCharsMax: {
    value: 2000,
    unit: 'characters',
    why: 'One string of client metadata (a redirect URI, a client name or URI): longer ones are not real and only cost storage.',
  },
  oauthRegistrationsPerWindow: {
    value: 20,
    unit: 'registrations',
    why: 'Client registrations per source address and window: registration is anonymous and writes to the store, so a flood is refused (429).',
  },
  oauthRegistrationWindowSeconds: {
    value: 3600,
    unit: 'seconds',
    why: 'The registration quota window: an hour, since a real client registers once per install.',
  },
  oauthCimdBytesMax: {
    value: 16 * 1024,
    unit: 'bytes',
    why: 'A Client ID Metadata Document fetched from a client_id URL: a few fields; the fetch stops past it.',
  },
  oauthCimdTimeoutMs: {
    value: 5000,
    unit: 'milliseconds',
    why: 'Time to fetch a Client ID Metadata Document: the owner is waiting in a browser; a slow host cannot hold the request longer.',
  },
  oauthCimdFetchesMax: {
    value: 4,
    unit: 'fetches',
    why: 'Client ID Metadata Documents fetched at once, process-wide: each holds a socket for up to oauthCimdTimeoutMs, and any client_id URL can ask for one, so a flood cannot turn the server into a scanner; past it the request is refused without a fetch.',
  },
  oauthCimdFailureCacheSeconds: {
    value: 60,
    unit: 'seconds',
    why: 'A failed Client ID Metadata Document fetch is remembered this long: long enough that a stream of requests naming a dead URL fetches once a minute at most, short enough that a host back up is reached again soon.',
  },
  oauthAuthorizationsPerWindow: {
    value: 30,
    unit: 'requests',
    why: 'Authorization requests per source (an IPv6 source by its /64) and window: each one that passes its checks writes a sign-in record, and a person authorizes a handful of apps at a time (429 page).',
  },
  oauthAuthorizationWindowSeconds: { value: 600, unit: 'seconds', why: 'The authorization quota window: ten minutes, the life of a sign-in record.' },
  oauthCimdCacheSeconds: {
    value: 3600,
    unit: 'seconds',
    why: 'A fetched Client ID Metadata Document is reused this long, so an authorization and its token exchange fetch it once.',
  },
  lingerMs: {
    value: 5000,
    unit: 'milliseconds',
    why: 'A connection closed after refusing a body it did not read (src/runtime/node.ts `closeAfter`) reads and drops what still comes for at most this long before it closes: closing with unread bytes sends a reset, and a client still writing loses the answer it has not yet read. nginx lingers the same way (`lingering_timeout` 5 s).',
  },
  drainTimeoutMs: {
    value: 20_000,
    unit: 'milliseconds',
    why: 'On SIGTERM a replica stops accepting, says `draining`, and waits this long at most for its in-flight requests and WebSocket sessions (closed with 1001) before it exits: long enough for any answer the bounds allow (a SQL statement stops within a second; bodies are at most 64 KiB), shorter than the 30 s a container runtime waits before SIGKILL.',
  },
  drainDelayMs: {
    value: 10_000,
    unit: 'milliseconds',
    why: 'The default of `DRAIN_DELAY_MS`: on SIGTERM a health-checked replica keeps serving at most this long after it says `draining`, so a balancer checking every 1–3 s with a `fall` of 2–3 has taken it out before it stops listening and closes idle connections; with the 20 s drain it stays within a 30 s grace before SIGKILL. It ends early once a check has seen `draining` and the requests stopped (drainQuietMs).',
  },
  drainWatchedMs: {
    value: 60_000,
    unit: 'milliseconds',
    why: 'A process whose status page was read within this long before its SIGTERM is health-checked, and waits for its balancer (drainDelayMs); longer than any health-check interval in use (nginx Plus, HAProxy and Kubernetes default to 5–10 s). A lone server, read by no one, stops at once.',
  },
  drainQuietMs: {
    value: 1_000,
    unit: 'milliseconds',
    why: 'After two health checks have seen `draining`, the balancer has stopped sending once no request but its checks has come for this long since the second; a request it dispatched before taking the replica out arrives within it.',
  },
  drainAssumedCheckMs: {
    value: 5_000,
    unit: 'milliseconds',
    why: 'The health-check interval a stopping replica assumes when its status was read only once (a new replica and its balancer’s first check): the default of nginx Plus and HAProxy-style checks; the replica waits two of them for the next check before it takes the checker as gone.',
  },
  drainPollMs: { value: 50, unit: 'milliseconds', why: 'How often the hand-off looks at the time since the last request: a twentieth of drainQuietMs.' },
  releaseCheckSeconds: {
    value: 15,
    unit: 'seconds',
    why: 'A replica following `RELEASES_DIR` looks for a newer release this often besides the Redis notice (the fast path), so a lost notice or an absent Redis delays a release by at most this; each look reads one small manifest per release.',
  },
  releaseNoticeTimeoutMs: {
    value: 2_000,
    unit: 'milliseconds',
    why: 'Time to send a release notice to Redis: a release is in the shared folder already, so an unreachable Redis only leaves the replicas to the periodic check rather than holding `npm run release` or an owner write.',
  },
  cdnHeaderRulesMax: {
    value: 100,
    unit: 'rules',
    why: 'Rules in the `_headers` file the build writes for static hosts: Cloudflare Pages reads at most 100 and ignores the rest, so the build fails rather than write more.',
  },
  cdnHeaderLineCharsMax: {
    value: 2000,
    unit: 'characters',
    why: 'One line of the `_headers` file: Cloudflare Pages ignores longer ones, so the build fails rather than write one.',
  },
  cdnRouteRulesMax: {
    value: 100,
    unit: 'rules',
    why: "Include and exclude rules together in `_routes.json`, Cloudflare Pages' limit for the paths its worker runs on.",
  },
  importArchiveEntriesMax: {
    value: 200_000,
    unit: 'entries',
    why: "Entries in one export archive or folder (`npm run import`): ten thousand Strava activities with their tracks and a Twitter archive's media fit; past it the export is refused before any entry is read (a ZIP of millions of empty entries costs memory for the listing alone).",
  },
  importEntryBytesMax: {
    value: 512 * 1024 * 1024,
    unit: 'bytes',
    why: "Uncompressed size of one entry the importer reads (a tweets.js, an activities.csv, a track): a 100,000-tweet archive's tweets.js is about 150 MB; larger entries are refused before they are inflated.",
  },
  importArchiveBytesMax: {
    value: 64 * 1024 * 1024 * 1024,
    unit: 'bytes',
    why: "Declared uncompressed size of a whole export archive: a decade of media fits, a ZIP bomb's declared sizes do not.",
  },
  importCompressionRatioMax: {
    value: 1000,
    unit: 'to one',
    why: 'Uncompressed to compressed size of one ZIP entry: text compresses about 10:1, a bomb 1000:1 or more; refused before inflating.',
  },
  importRecordsMax: {
    value: 1_000_000,
    unit: 'records',
    why: 'Rows or records read from one export: ten times the largest real archives; bounds the plan the importer holds before it writes.',
  },
  importPrivacyRadiusMeters: {
    value: 500,
    unit: 'metres',
    why: "A track's points this close to its start or end never become a record's coordinates (the start is often home); `--privacy-radius` changes it.",
  },
  syncConnectTimeoutMs: {
    value: 5_000,
    unit: 'milliseconds',
    why: "Time for a service's host to accept the sync's connection (`npm run sync`): a reachable host answers in well under a second; a dead one fails the source, not the run.",
  },
  syncIdleTimeoutMs: {
    value: 15_000,
    unit: 'milliseconds',
    why: 'Longest silence of a sync fetch once connected (no header, no body byte): a server that stalls mid-body fails its source instead of holding the run.',
  },
  syncTotalTimeoutMs: {
    value: 30_000,
    unit: 'milliseconds',
    why: 'Whole time of one sync fetch, redirects included: a feed or API page is small, so a trickle of bytes that never ends cannot hold the run.',
  },
  syncResponseBytesMax: {
    value: 4 * 1024 * 1024,
    unit: 'bytes',
    why: 'Body of one sync answer, after decompression: the largest real page (100 GitHub events, 200 Strava activities, 40 Mastodon statuses, a Letterboxd or Goodreads feed) is under 1 MiB; past it the source fails and nothing of it is written.',
  },
  syncRedirectsMax: {
    value: 3,
    unit: 'redirects',
    why: "Redirects one sync fetch follows (Letterboxd answers 301 for a feed URL without its last slash), each to the source's own host only: more is a loop.",
  },
  syncRequestsPerSourceMax: {
    value: 30,
    unit: 'requests',
    why: "Requests one source may send in one sync run: a run reads only what is new, so a few pages suffice; a first sync of a long history finishes over several runs rather than spending a service's hourly budget at once.",
  },
  syncRetryAfterWaitMaxSeconds: {
    value: 60,
    unit: 'seconds',
    why: "Longest `Retry-After` a sync waits out before asking again (once): a longer one ends the source's run as rate-limited and the next run resumes from its cursor.",
  },
  syncRateLimitReserve: {
    value: 5,
    unit: 'requests',
    why: "Requests left in a service's own budget (GitHub `X-RateLimit-Remaining`, Strava `X-RateLimit-Usage` against `X-RateLimit-Limit`) below which the sync stops asking, so the owner's other apps keep some of the budget.",
  },
  syncPageItems: {
    value: 100,
    unit: 'items',
    why: 'Items asked for per page (GitHub `per_page`, Strava `per_page`, ListenBrainz `count`): the largest page GitHub allows, and few requests per run; Mastodon caps its own at 40.',
  },
  syncMastodonPageItems: {
    value: 40,
    unit: 'statuses',
    why: "Statuses asked for per Mastodon page (`limit`): Mastodon's own maximum for account statuses.",
  },
  syncConfigBytesMax: {
    value: 64 * 1024,
    unit: 'bytes',
    why: '`sync.yaml` read at most: six short entries need a few hundred bytes; a larger file is refused before it is parsed.',
  },
  syncIntervalMinSeconds: {
    value: 300,
    unit: 'seconds',
    why: 'Shortest `SYNC_INTERVAL`: GitHub asks for at least 60 s between polls of an events feed (`X-Poll-Interval`), and a personal site needs no fresher than minutes; a shorter value is refused at start-up.',
  },
  syncIntervalMaxSeconds: {
    value: 7 * 24 * 3600,
    unit: 'seconds',
    why: "Longest `SYNC_INTERVAL`: a week; GitHub's events feed forgets after 90 days and 300 events, and Letterboxd's and Goodreads' feeds hold only their latest entries, so a rarer sync loses what fell out in between.",
  },
  syncShelvesMax: {
    value: 20,
    unit: 'shelves',
    why: 'Goodreads shelves one `sync.yaml` entry may name: each is a request per run; twenty covers the exclusive shelves and every custom one people keep.',
  },
  syncStaggerMaxSeconds: {
    value: 60,
    unit: 'seconds',
    why: 'Largest gap between two sources of one scheduled sync: sources are spread over the interval (interval ÷ sources) so they never fire at once, but no more than this apart.',
  },
  contentLockWaitMs: {
    value: 120_000,
    unit: 'ms',
    why: "How long a writer waits for the content lock (`STATE_DIR/content-writer.lock`) another process holds: an owner write or a sync batch holds it for a write and its rebuild (seconds), a command-line import for its whole plan and commit (a 900-film Letterboxd export: 3 s for the whole command, measured on this machine kind; an archive of tracks, longer). Past it the write is refused with the holder's name, never raced.",
  },
  contentLockPollMs: {
    value: 50,
    unit: 'ms',
    why: 'How often a waiting writer looks at the content lock again: a file has no wake-up, and 50 ms is short beside a write and its rebuild while costing nothing measurable.',
  },
  writeBatchRecordsMax: {
    value: 10_000,
    unit: 'records',
    why: "Records in one batch handed to the owner lane's writes (a sync's new items, a Micropub request): a batch is planned in memory, file by file; an export larger than this goes through `npm run import`, which plans on disk.",
  },
} as const satisfies Record<string, Limit>;

export const LIMITS = Object.fromEntries(Object.entries(LIMIT_DEFINITIONS).map(([k, v]) => [k, v.value])) as {
  readonly [K in keyof typeof LIMIT_DEFINITIONS]: (typeof LIMIT_DEFINITIONS)[K]['value'];
};
