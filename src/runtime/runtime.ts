/**
 * The `Runtime`: one build generation, opened from `dist/` in one place — the image and
 * its query core and search, the taste sources, the static files and their remembered
 * bodies, the collections quota, Astro's page handler, and the process's owner lane. It
 * imports no handler: the route table assembles the surfaces' handlers over it
 * (src/runtime/serving.ts), and each handler reads a context of its own that a Runtime
 * satisfies. Handlers hold no state outside the generation, so a new build is served by
 * opening a new one. Configuration arrives resolved (see `runtimeOptionsFrom`, over
 * src/config.ts), so tests build one without touching the environment.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Image } from '../core/image.ts';
import { QueryCore } from '../core/query.ts';
import type { RequestFacts } from '../http/answer.ts';
import { clientAddress } from '../http/client.ts';
import { AnswerCache } from '../http/answer-cache.ts';
import { RateLimiter, type CounterStore } from '../http/rate-limit.ts';
import { sharedQuotasFrom, type QuotaHealth, type SharedQuotas } from '../http/redis-counters.ts';
import { RATE_LIMIT_POLICY_NAME } from '../http/headers.ts';
import { LIMITS } from '../core/limits.ts';
import type { Manifest } from '../compile/compile.ts';
import type { BuildOutput } from '../compile/incremental/rebuild.ts';
import type { Config } from '../config.ts';
import { buildLayout } from '../paths.ts';
import { StaticFiles } from './static.ts';
import { OAuthServer } from '../oauth/server.ts';
import type { OwnerWrites } from '../owner/writes.ts';
import { SearchCore } from '../core/search.ts';
import { TasteSources } from '../taste/sources.ts';
import type { Frame } from '../site/collection-page.ts';
import type { PageAnswer } from '../site/context.ts';
import type { PageHandler } from '../site/render-page.ts';

export interface RuntimeOptions {
  /** The build output: `dist/` with `client/`, `server/`, `image/` and `headers.json`. */
  distDir: string;
  /** What this generation serves: `distDir`'s own build unless a rebuild made a newer output (src/compile/incremental/rebuild.ts). */
  build?: BuildOutput;
  /** Quota counters shared by every generation of one process, so a rebuild does not reset them. */
  counters?: RuntimeCounters;
  /** Byte budget of remembered REST answers and of GraphQL results (`ANSWER_CACHE_BYTES`), each; 0 turns them off. */
  answerCacheBytes?: number;
  /** Byte budget of remembered site pages rendered on request (`PAGE_CACHE_BYTES`); 0 turns it off. */
  pageCacheBytes?: number;
  /** Whether a server's first generation starts its SQL workers at once (`SQL_WARM`), so the first statement does not wait; true unless set. */
  warmSql?: boolean;
  /** Peers whose X-Forwarded-For is believed (`TRUSTED_PROXIES`). */
  trustedProxies?: ReadonlySet<string>;
  /** Requests per client and window on the collections quota (`RATE_LIMIT_REQUESTS`). */
  restQuota?: number;
  /** SQL requests per client and window (`SQL_RATE_LIMIT_REQUESTS`). */
  sqlQuota?: number;
  /** GraphQL cost points per client and window (`GRAPHQL_COST_BUDGET`). */
  graphqlBudget?: number;
  /** MCP requests per client and window (`MCP_RATE_LIMIT_REQUESTS`). */
  mcpQuota?: number;
  /** MCP tool work units per client and window (`MCP_TOOL_WORK_BUDGET`). */
  mcpWorkBudget?: number;
  /** RPC sessions per address and window (`RPC_SESSION_LIMIT`). */
  rpcSessions?: number;
  /** The owner lane's authorization server, one per process (its grants outlive generations); absent: no OAuth routes. */
  oauth?: OAuthServer;
  /** The owner's writes, one per process (present when generations rebuild the content under an authorization server). */
  owner?: OwnerWrites;
  /** What the process says of itself in its status (draining), one per process (src/runtime/drain.ts). */
  processState?: { readonly draining: boolean; statusAnswered?(): void };
  /** The release this generation serves, when it came from `RELEASES_DIR` (src/release/follow.ts). */
  release?: string;
}

/** Where each quota counts. */
export interface RuntimeCounters {
  rest: CounterStore;
  sql: CounterStore;
  graphql: CounterStore;
  /** MCP requests and tool work; in this generation's own memory when absent. */
  mcp?: CounterStore;
  mcpWork?: CounterStore;
  /** RPC session admission (optional: a runtime without one counts in its own store). */
  rpc?: CounterStore;
  /** Where they count and whether that works (Redis may be away), for /api/status.json; absent: in process. */
  health?: () => QuotaHealth;
}

/** Counters in Redis for every limiter when `REDIS_URL` is set (src/http/redis-counters.ts); undefined otherwise. */
function sharedCounters(quotas: SharedQuotas | undefined): RuntimeCounters | undefined {
  if (!quotas) return undefined;
  const [rest, sql, graphql, mcp, mcpWork, rpc] = ['rest', 'sql', 'graphql', 'mcp', 'mcp-work', 'rpc'].map((name) => quotas.store(name)) as [
    CounterStore,
    CounterStore,
    CounterStore,
    CounterStore,
    CounterStore,
    CounterStore,
  ];
  return { rest, sql, graphql, mcp, mcpWork, rpc, health: () => quotas.health() };
}

/** The options of the process's generations, from its configuration (src/config.ts): the build in `DIST_DIR`, the quotas, the caches, the owner lane. */
export function runtimeOptionsFrom(config: Config): RuntimeOptions {
  const quotas = sharedQuotasFrom(config);
  return {
    distDir: config.DIST_DIR,
    counters: sharedCounters(quotas),
    answerCacheBytes: config.ANSWER_CACHE_BYTES,
    pageCacheBytes: config.PAGE_CACHE_BYTES,
    warmSql: config.SQL_WARM,
    trustedProxies: new Set(config.TRUSTED_PROXIES),
    restQuota: config.RATE_LIMIT_REQUESTS,
    sqlQuota: config.SQL_RATE_LIMIT_REQUESTS,
    graphqlBudget: config.GRAPHQL_COST_BUDGET,
    mcpQuota: config.MCP_RATE_LIMIT_REQUESTS,
    mcpWorkBudget: config.MCP_TOOL_WORK_BUDGET,
    rpcSessions: config.RPC_SESSION_LIMIT,
    oauth: OAuthServer.fromConfig(config, { registration: quotas?.store('oauth-registration'), authorization: quotas?.store('oauth-authorization') }),
  };
}

/** What `npm run build` wrote under `distDir`: what the first generation a server opens serves. */
export function readBuildOutput(distDir: string): BuildOutput {
  const layout = buildLayout(distDir);
  return { image: layout.image, sqlImage: layout.sqlImage, manifest: JSON.parse(readFileSync(layout.manifest, 'utf8')) as Manifest, root: layout.client };
}

export class Runtime {
  /** The build output this generation serves: its image, SQL image and static files. */
  readonly build: BuildOutput;
  readonly image: Image;
  readonly core: QueryCore;
  /** One cross-collection search for every surface: one count cache. */
  readonly search: SearchCore;
  /** The taste layer's records, music catalog, similarity index and profile, built on first use: one for REST, RPC and MCP. */
  readonly tasteSources: TasteSources;
  readonly files: StaticFiles;
  /** The collections quota, shared by every operation the SPEC counts as a collection operation. */
  readonly quota: RateLimiter;
  readonly clientOf: (request: RequestFacts) => string;
  readonly pages: PageHandler;
  /** The owner lane's authorization server, shared by every generation of the process (not closed with one). */
  readonly oauth: OAuthServer | undefined;
  /** The owner's writes (`/owner/mcp`'s write tools), shared by every generation; absent: the write tools refuse. */
  readonly owner: OwnerWrites | undefined;
  private readonly pageCacheBytes: number;
  private pageAnswers: AnswerCache<PageAnswer> | undefined;
  /** The frames of the collection pages rendered on request (src/site/collection-page.ts): the site layout, once per collection. */
  readonly pageFrames = new Map<string, Promise<Frame | undefined>>();

  protected constructor(options: RuntimeOptions, pages: PageHandler) {
    const trusted = options.trustedProxies ?? new Set<string>();
    this.clientOf = (request) => clientAddress(request.peer ?? '', request.header('X-Forwarded-For'), trusted);
    this.build = options.build ?? readBuildOutput(options.distDir);
    this.image = new Image(this.build.image);
    // One query core for every surface: one statement cache, one count cache.
    this.core = new QueryCore(this.image);
    this.search = new SearchCore(this.image);
    this.tasteSources = new TasteSources(this.core);
    this.files = new StaticFiles(this.build.manifest, this.build.root);
    this.quota = new RateLimiter({
      store: options.counters?.rest,
      limit: options.restQuota ?? LIMITS.restRequestsPerWindow,
      windowSeconds: LIMITS.restWindowSeconds,
      policy: RATE_LIMIT_POLICY_NAME,
    });
    this.pages = pages;
    this.pageCacheBytes = options.pageCacheBytes ?? LIMITS.pageCacheBytes;
    this.oauth = options.oauth;
    this.owner = options.owner;
  }

  /** Astro's handler for the pages of the build at `distDir`. */
  protected static async pagesOf(distDir: string): Promise<PageHandler> {
    const entry = pathToFileURL(join(distDir, 'server/entry.mjs')).href;
    const astro = (await import(entry)) as { handler: PageHandler };
    return astro.handler;
  }

  /** The generation alone, without the surfaces' handlers (those: `ServingRuntime.open`, src/runtime/serving.ts). */
  static async open(options: RuntimeOptions): Promise<Runtime> {
    return new Runtime(options, await Runtime.pagesOf(options.distDir));
  }

  /** The site pages rendered on request (functions/pages.ts), remembered per `Accept` and request target; made on the first such page. */
  get pageCache(): AnswerCache<PageAnswer> {
    this.pageAnswers ??= new AnswerCache(this.pageCacheBytes);
    return this.pageAnswers;
  }

  get siteUrl(): string {
    return this.image.siteUrl;
  }

  /** Ends the generation: its image; only once no request is using it. */
  async close(): Promise<void> {
    this.image.close();
  }
}
