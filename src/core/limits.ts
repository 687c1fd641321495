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
  requestTargetBytesMax: { value: 8192, unit: 'bytes', why: 'Path and query of one request (RFC 9112 §3 recommends supporting at least 8000 octets): longer targets are refused before any routing (414).' },
  headerBytesMax: { value: 16 * 1024, unit: 'bytes', why: 'The whole header section, request line included (Node\'s default): bounds parsing work and memory per request (431).' },
  headersCountMax: { value: 100, unit: 'fields', why: 'Header fields per request: real clients send about twenty; bounds the header map built per request.' },
  headersTimeoutMs: { value: 20_000, unit: 'milliseconds', why: 'Time for a client to send its whole header section (slowloris): nginx\'s `client_header_timeout` is 60 s; twenty is enough on any real link (408).' },
  requestTimeoutMs: { value: 30_000, unit: 'milliseconds', why: 'Time for a client to send its whole request, body included: bodies are at most 64 KiB here (408).' },
  keepAliveTimeoutMs: { value: 5_000, unit: 'milliseconds', why: 'An idle keep-alive connection is closed after this long (nginx: 75 s; five keeps idle sockets from holding connection slots).' },
  connectionsMax: { value: 1024, unit: 'connections', why: 'Open connections at once; beyond it new ones are closed at once, so a flood of idle sockets cannot exhaust file descriptors or memory.' },
  queryStringBytesMax: { value: 4096, unit: 'bytes', why: 'No legitimate list query needs more; stops parsing-cost abuse before any work (414).' },
  filterValueCharsMax: { value: 200, unit: 'characters', why: 'Longer than any name or title; bounds folding and comparison work per filter.' },
  searchCharsMax: { value: 200, unit: 'characters', why: 'A substring search longer than this is not a search; bounds the full-text query.' },
  cursorCharsMax: { value: 1024, unit: 'characters', why: 'Real cursors are under 200; bounds decoding and signature work.' },
  sortKeysMax: { value: 4, unit: 'keys', why: 'Each key adds a comparison per row; four covers every real ordering.' },
  facetValuesMax: { value: 50, unit: 'values per dimension', why: 'Most frequent first; keeps `meta.facets` small on wide fields such as cast.' },
  restRequestsPerWindow: { value: 1000, unit: 'requests', why: 'Per client address and window across all collection operations (SPEC §8): generous for people and agents, bounded for floods.' },
  restWindowSeconds: { value: 60, unit: 'seconds', why: 'The quota window (SPEC §8); a 429 says `Retry-After: 60`, never less than the time left in it.' },
  rateLimitClients: { value: 100_000, unit: 'client addresses', why: 'Counters kept per window in the in-process store; beyond it the oldest are dropped, bounding memory under address-spraying.' },
  countCacheEntries: { value: 5000, unit: 'filter sets', why: 'Counts and facets remembered per filter set; bounds the memory they take.' },
  answerCacheBytes: { value: 32 * 1024 * 1024, unit: 'bytes', why: 'List answers remembered per canonical query (exact: the image is immutable); bounds their memory: keys, bodies, headers and per-entry overhead are charged (src/http/answer-cache.ts). `ANSWER_CACHE_BYTES` overrides, 0 turns it off.' },
  pageCacheBytes: { value: 16 * 1024 * 1024, unit: 'bytes', why: 'Site pages rendered on request (a collection page with a query string, a record page, a search, their Markdown twins) remembered per path, query and representation, admitted from the second request like list answers; bounds their memory. `PAGE_CACHE_BYTES` overrides, 0 turns it off.' },
  mapPointsMax: { value: 250, unit: 'points per collection', why: 'Located records drawn and listed on the map page, newest first: bounds the prerendered page (about 400 bytes a point, drawn and listed) when a collection holds tens of thousands; the exports hold them all.' },
  sqlRequestBytesMax: { value: 16 * 1024, unit: 'bytes', why: 'SQL request body (SPEC §8): one statement over three small relations never needs more; bounds parsing work before any is done (413).' },
  sqlRowsMax: { value: 100, unit: 'rows', why: 'Rows per SQL answer and largest `LIMIT` (SPEC §8); without `LIMIT` the first 100 are returned with `truncated: true` when more exist.' },
  sqlColumnsMax: { value: 24, unit: 'columns', why: 'Returned columns per SQL answer, `*` expanded (SPEC §8): bounds encoding work per row.' },
  sqlResponseBytesMax: { value: 512 * 1024, unit: 'bytes', why: 'Encoded SQL answer (SPEC §8): rows past it are cut and `truncated` set; if not even one row fits, the answer is a `sql-limit` problem.' },
  sqlRequestsPerWindow: { value: 120, unit: 'requests', why: 'SQL requests per client and window (SPEC §8): each one parses and runs a statement, so the quota is tighter than REST.' },
  sqlWindowSeconds: { value: 60, unit: 'seconds', why: 'The SQL quota window (SPEC §8); a 429 says `Retry-After: 60`.' },
  sqlExpressionDepthMax: { value: 8, unit: 'levels', why: 'Nesting of boolean operators (a chain of the same AND or OR is one level; NOT adds one): bounds recursion in checking and evaluation.' },
  sqlInListMax: { value: 50, unit: 'values', why: 'Values in one `IN (…)` list: bounds comparisons per row.' },
  sqlPredicatesMax: { value: 32, unit: 'predicates', why: 'Comparisons, IS, IN, LIKE and BETWEEN tests in one WHERE clause: bounds evaluation work per row.' },
  sqlOrderKeysMax: { value: 4, unit: 'keys', why: 'ORDER BY keys, as for REST sorts: each adds a comparison per row.' },
  sqlStatementCacheEntries: { value: 1000, unit: 'statements', why: 'Checked statements remembered by their exact text, so a repeated query skips parsing; bounds the memory they take.' },
  sqlParenDepthMax: { value: 8, unit: 'levels', why: 'Nesting of parentheses and brackets, counted on the raw text before the parser sees it (strings, quoted identifiers and comments skipped): the parser backtracks exponentially in it (30 unclosed `(` once held the process for good); the deepest statement the expression-depth budget accepts needs 8.' },
  sqlTokensMax: { value: 1000, unit: 'tokens', why: 'Lexical tokens in one statement (words, numbers, quoted strings and identifiers, operators, punctuation; comments and whitespace are free), counted before parsing: parsing costs grow faster than linearly with long lists; real statements use under 200.' },
  sqlTimeBudgetMs: { value: 250, unit: 'milliseconds', why: 'Processor time to parse, check, run and encode one statement in a SQL worker thread (and at most four times as long on the clock, however busy the machine); past it the worker is terminated and replaced and the answer is a `sql-limit` problem, so no statement can hold a thread longer.' },
  sqlWorkers: { value: 2, unit: 'worker threads', why: 'SQL statements are parsed and run off the event loop, in this many worker threads, each holding its own copy of the SQL image; a client runs one statement at a time, so one client\'s slow statement never holds them all. More would cost memory rather than add throughput, which the event loop bounds.' },
  sqlQueueMax: { value: 8, unit: 'statements', why: 'Statements waiting for a busy SQL worker; past it the answer is a 503 `sql-busy` problem with `Retry-After`, so a flood never grows memory or waiting time without bound (the longest wait is about queue × time budget ÷ workers).' },
  sqlClientStatementsMax: { value: 4, unit: 'statements', why: 'SQL statements one client may have running or waiting at once, of which one runs at a time: past it that client gets a 503 `sql-busy`, so one client can neither fill the queue nor hold more than one worker while others wait.' },
  sqlOverrunCost: { value: 30, unit: 'requests', why: 'What a statement that overruns the time budget costs against its client\'s SQL quota (an ordinary statement costs 1): besides its 250 ms, each overrun costs a worker restart (about 0.3 s of processor time), so one client address can cause at most four a minute.' },
  musicListItemsMax: { value: 500, unit: 'items', why: 'Entries per list of a music profile (artists, recordings, albums, genres): bounds matching work per request.' },
  musicNameCharsMax: { value: 200, unit: 'characters', why: 'A name or title in a music request, as for filter values: bounds folding and comparison work.' },
  musicNotesMax: { value: 20, unit: 'notes', why: 'Free-text notes in a music profile: they are carried, never matched.' },
  musicNoteCharsMax: { value: 500, unit: 'characters', why: 'One note of a music profile.' },
  musicExternalIdCharsMax: { value: 200, unit: 'characters', why: 'One external ID value in a music profile.' },
  musicExternalIdSchemesMax: { value: 10, unit: 'schemes', why: 'External ID schemes per music profile entry (unknown ones are ignored, but still counted).' },
  musicMatchesMax: { value: 100, unit: 'tracks', why: 'Matching tracks returned by a music intersection.' },
  musicIntersectionBytesMax: { value: 32 * 1024, unit: 'bytes', why: 'Music intersection request body (SPEC §4.4): bounds parsing work before any is done (413).' },
  musicStationBytesMax: { value: 24 * 1024, unit: 'bytes', why: 'Music station request body (SPEC §4.4): bounds parsing work before any is done (413).' },
  musicStationSeedCharsMax: { value: 64, unit: 'characters', why: 'The station seed string.' },
  musicStationAffinitiesMax: { value: 50, unit: 'affinities', why: 'Affinities per station request: each adds scoring work per track.' },
  musicStationVotesMax: { value: 100, unit: 'votes', why: 'Votes per station request.' },
  musicStationExclusionsMax: { value: 100, unit: 'exclusions', why: 'Hard exclusions per station request.' },
  musicStationRecentMax: { value: 200, unit: 'canonical IDs', why: 'Recently played canonical IDs per station request.' },
  musicStationTracksMax: { value: 6, unit: 'tracks', why: 'Tracks per station answer (SPEC §4.4).' },
  musicStationIntentCharsMax: { value: 140, unit: 'characters', why: 'The optional short intent text of a station request.' },
  feedDocumentItems: { value: 50, unit: 'items', why: 'Newest feed items in `/feed.json` and `/feed.xml`: what a feed reader polls for; the whole stream pages through `/api/feed-items.json`.' },
  tasteExampleLimitDefault: { value: 5, unit: 'examples', why: 'Illustrative examples in the movie taste summary when `exampleLimit` is absent (SPEC §2.3).' },
  tasteExampleLimitMax: { value: 12, unit: 'examples', why: 'Largest `exampleLimit` of the movie taste summary: examples illustrate, they are not a listing.' },
  tasteDistributionValuesMax: { value: 10, unit: 'values per dimension', why: 'Most frequent first; keeps the taste summary distributions (wide on director) short.' },
  graphqlDocumentBytesMax: { value: 64 * 1024, unit: 'bytes', why: 'GraphQL request body or GET `query` (SPEC §8): bounds parsing work before any is done (413).' },
  graphqlTokensMax: { value: 5000, unit: 'tokens', why: 'Lexical tokens in one GraphQL document, stopped by the parser itself: bounds parsing and validation work (the full introspection query is about 300).' },
  graphqlDepthMax: { value: 12, unit: 'levels', why: 'Nesting of fields in one GraphQL operation, fragments expanded, introspection subtrees not counted: the deepest useful query is 6.' },
  graphqlAliasesMax: { value: 30, unit: 'aliases', why: 'Aliased fields in one GraphQL operation, fragments expanded: aliases multiply work without multiplying the document.' },
  graphqlCostMax: { value: 1000, unit: 'cost points', why: 'Static cost of one GraphQL operation (`@cost`, `@listSize`), computed before execution: four full 100-node pages with nested objects.' },
  graphqlCostPerWindow: { value: 50_000, unit: 'cost points', why: 'GraphQL cost spent per client and window (`@rateLimit` on Query): at least fifty over-budget-sized operations a minute, and thousands of small ones.' },
  graphqlWindowSeconds: { value: 60, unit: 'seconds', why: 'The GraphQL cost window; a 429 says `Retry-After` with the seconds left in it.' },
  graphqlDocumentCacheEntries: { value: 1000, unit: 'documents', why: 'Parsed and validated GraphQL documents remembered by their exact text, so a repeated query skips parsing and validation; bounds the memory they take.' },
  graphqlDocumentCacheCharsMax: { value: 8192, unit: 'characters', why: 'Only documents up to this length are remembered (real queries are far shorter); what the memo holds is bounded by `graphqlDocumentCacheBytes`.' },
  graphqlFirstDefault: { value: 50, unit: 'nodes', why: 'Nodes per connection when `first` is absent, as REST `limit` (SPEC §4.1).' },
  countCacheBytes: { value: 8 * 1024 * 1024, unit: 'bytes', why: 'Counts and facets remembered per filter set, in each of the two query cores (collections, search): keys, facet values and per-entry overhead are charged (src/core/memo.ts), so floods of distinct filters or searches stay within it.' },
  statementCacheBytes: { value: 16 * 1024 * 1024, unit: 'bytes', why: 'Prepared SQLite statements of the image, one per query shape (filters, sort keys, search plan, cursor): each is charged its SQL text and 32 bytes of native memory per character (measured: 27–31), so combinations of filters and sorts cannot grow it without bound.' },
  graphqlDocumentCacheBytes: { value: 16 * 1024 * 1024, unit: 'bytes', why: 'Checked GraphQL documents remembered: each is charged its text, 128 bytes of syntax tree per character and 4 KiB per validation error (measured: 63–119 and about 3 KiB), so a flood of distinct documents stays within it.' },
  rateLimitCounterBytes: { value: 16 * 1024 * 1024, unit: 'bytes', why: 'Quota counters of one in-process store (one per surface), charged per client key and entry overhead: keys may come from `X-Forwarded-For` behind a trusted proxy, so their count alone does not bound the memory.' },
  answerCacheAdmissionSlots: { value: 65_536, unit: 'query hashes', why: 'A list answer is remembered from the second time its query is asked among about this many recent distinct queries (a fixed 256 KiB table): a flood of distinct queries is never admitted, so it neither evicts what real traffic repeats nor churns memory.' },
  tasteAnswerCacheBytes: { value: 1024 * 1024, unit: 'bytes', why: 'Taste summaries remembered per `exampleLimit` (13 values); bodies, headers and overhead charged as for list answers.' },
} as const satisfies Record<string, Limit>;

export const LIMITS = Object.fromEntries(Object.entries(LIMIT_DEFINITIONS).map(([k, v]) => [k, v.value])) as {
  readonly [K in keyof typeof LIMIT_DEFINITIONS]: (typeof LIMIT_DEFINITIONS)[K]['value'];
};
