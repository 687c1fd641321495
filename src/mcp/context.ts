/**
 * What every MCP tool reads: the generation a request arrived on — its query core, its
 * image's as-of times, its taste sources (records, music catalog, similarity index and
 * profile, built once per generation and shared with REST and RPC) — and the site's URL
 * for links. One per generation, with which both endpoints' handlers are built
 * (src/runtime/serving.ts), so a request is answered over the generation it arrived on;
 * tools and the per-request server hold no state of their own.
 */
import type { Image } from '../core/image.ts';
import type { QueryCore } from '../core/query.ts';
import type { OAuthServer } from '../oauth/server.ts';
import type { OwnerWrites } from '../owner/writes.ts';
import type { TasteSources } from '../taste/sources.ts';

export interface McpContext {
  core: QueryCore;
  image: Pick<Image, 'asOf'>;
  tasteSources: TasteSources;
  siteUrl: string;
}

/**
 * What the owner lane's endpoint (`/owner/mcp`, functions/owner-mcp.ts) reads besides:
 * the process's authorization server (absent: the lane is not configured) and the
 * owner's writes (absent: the write tools refuse). Both outlive generations.
 */
export interface OwnerMcpContext extends McpContext {
  oauth: OAuthServer | undefined;
  owner: OwnerWrites | undefined;
}
