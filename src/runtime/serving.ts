/**
 * The surfaces' handlers of one generation, assembled for the route table
 * (src/runtime/routes.ts): a `ServingRuntime` is a `Runtime` — the generation: image,
 * core, stores, caches — with each dynamic surface's handler built over it, with its
 * caches and quotas. The routes and the dispatcher receive one; the handlers themselves
 * read only contexts of their own (src/mcp/context.ts, src/site/context.ts,
 * src/rpc/context.ts), which a generation satisfies.
 */
import { readFileSync } from 'node:fs';
import { createWithheldExportHandler } from '../../functions/exports.ts';
import { createGraphqlHandler, type GraphqlHandler } from '../../functions/graphql.ts';
import { createMcpHandler, type McpHandler } from '../../functions/mcp.ts';
import { createMicropubHandler, type MicropubHandler } from '../../functions/micropub.ts';
import { createMicropubMediaHandler, type MicropubMediaHandler } from '../../functions/micropub-media.ts';
import { createMusicHandler, type MusicHandlers } from '../../functions/music.ts';
import { createOwnerMcpHandler, type OwnerMcpHandler } from '../../functions/owner-mcp.ts';
import { createRestHandler, type RestHandler } from '../../functions/rest.ts';
import { createRpcHandler, type RpcHandler } from '../../functions/rpc.ts';
import { createSqlHandler, type SqlHandler } from '../../functions/sql.ts';
import { createStatusHandler } from '../../functions/status.ts';
import { createTasteSummaryHandler } from '../../functions/taste.ts';
import type { Answer, RequestFacts } from '../http/answer.ts';
import type { McpContext } from '../mcp/context.ts';
import type { PageHandler } from '../site/render-page.ts';
import { URLS } from '../urls.ts';
import { Runtime, type RuntimeOptions } from './runtime.ts';
import type { StaticFiles } from './static.ts';

export class ServingRuntime extends Runtime {
  readonly rest: RestHandler;
  readonly sql: SqlHandler;
  readonly graphql: GraphqlHandler;
  readonly status: (request: RequestFacts) => Answer;
  readonly taste: (request: RequestFacts) => Answer;
  readonly withheld: (request: RequestFacts) => Answer | undefined;
  /** The public MCP endpoint (Streamable HTTP, stateless). */
  readonly mcp: McpHandler;
  /** The owner lane's MCP endpoint (`/owner/mcp`, behind the process's authorization server). */
  readonly ownerMcp: OwnerMcpHandler;
  /** Micropub (`/micropub`): posts from apps, through the owner's writes. */
  readonly micropub: MicropubHandler;
  /** Micropub's media endpoint (`/micropub/media`): images from apps, kept through the owner's writes. */
  readonly micropubMedia: MicropubMediaHandler;
  /** Cap'n Web RPC at /api/rpc: HTTP batches and WebSocket sessions over this generation. */
  readonly rpc: RpcHandler;
  /** The GraphQL explorer page, for browsers visiting the endpoint. */
  readonly explorer: ReturnType<StaticFiles['resolve']>;
  private musicAnswers: MusicHandlers | undefined;

  protected constructor(options: RuntimeOptions, pages: PageHandler, follows?: ServingRuntime) {
    super(options, pages);
    const clientOf = this.clientOf;
    this.rest = createRestHandler(this.core, {
      search: this.search,
      cacheBytes: options.answerCacheBytes,
      quota: options.restQuota,
      limiter: this.quota,
      clientOf,
    });
    // A generation after a save usually serves the same SQL image file: its bytes are shared, not read and copied again (17 MB at 1M records, 0.2 s).
    const sqlImage = follows?.build.sqlImage === this.build.sqlImage ? follows.sql.image : readFileSync(this.build.sqlImage);
    this.sql = createSqlHandler({ image: sqlImage, counters: options.counters?.sql, clientOf, quota: options.sqlQuota });
    this.graphql = createGraphqlHandler(this.core, {
      counters: options.counters?.graphql,
      budget: options.graphqlBudget,
      cacheBytes: options.answerCacheBytes,
      clientOf,
    });
    this.status = createStatusHandler(this.image, options.processState, options.release, options.counters?.health);
    this.taste = createTasteSummaryHandler(this.core, this.tasteSources);
    this.withheld = createWithheldExportHandler(this.image);
    // What the MCP tools of this generation read, on either endpoint.
    const mcp: McpContext = { core: this.core, image: this.image, tasteSources: this.tasteSources, siteUrl: this.siteUrl };
    this.mcp = createMcpHandler(mcp, {
      counters: { requests: options.counters?.mcp, work: options.counters?.mcpWork },
      requestQuota: options.mcpQuota,
      workQuota: options.mcpWorkBudget,
      cacheBytes: options.answerCacheBytes,
      clientOf,
    });
    this.ownerMcp = createOwnerMcpHandler({ ...mcp, oauth: this.oauth, owner: this.owner });
    this.micropub = createMicropubHandler({ oauth: this.oauth, owner: this.owner });
    this.micropubMedia = createMicropubMediaHandler({ oauth: this.oauth, owner: this.owner });
    this.rpc = createRpcHandler(this.core, {
      search: this.search,
      taste: this.tasteSources,
      counters: options.counters?.rpc,
      sessions: options.rpcSessions,
      cacheBytes: options.answerCacheBytes,
    });
    this.explorer = this.files.resolve(`${URLS.graphql}/`, null);
  }

  /**
   * The generation at `options` with its handlers, as a server serves it. `warmSql`: start
   * the SQL workers now, so the first statement does not wait for them; a server's first
   * generation does, unless `SQL_WARM=0` (options.warmSql). A generation that replaces another (a save, a release) starts them at
   * its first statement instead: most generations never see one, and warming two workers
   * at every save cost about 0.3 s of CPU beside the requests (the test suite alone started
   * 537 workers, most of them for generations that ran no statement). `follows`: the
   * generation this one replaces, whose SQL image bytes it shares when both read the same file.
   */
  static override async open(
    options: RuntimeOptions,
    { warmSql = options.warmSql ?? true, follows }: { warmSql?: boolean; follows?: ServingRuntime } = {},
  ): Promise<ServingRuntime> {
    const runtime = new ServingRuntime(options, await Runtime.pagesOf(options.distDir), follows);
    if (warmSql) runtime.sql.warm();
    return runtime;
  }

  /** The music POSTs over the generation's catalog and similarity index (`tasteSources`), made on the first music request, not at start-up. */
  get music(): MusicHandlers {
    this.musicAnswers ??= createMusicHandler(this.tasteSources.music, this.tasteSources.stationDeps);
    return this.musicAnswers;
  }

  /** Ends the generation: its SQL workers, then its image; only once no request is using it. */
  override async close(): Promise<void> {
    await this.sql.close();
    await super.close();
  }
}
