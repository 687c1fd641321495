/**
 * The owner lane's MCP endpoint, `POST /owner/mcp` (SPEC §4.7, §5; issue 17 items 6–7):
 * the MCP server of `/mcp` — the same read tools over the public corpus — plus the
 * owner's tools, behind an OAuth bearer token issued for this resource. In order:
 *
 * 1. `Host` is the site's host or a loopback name, and `Origin`, when sent, is the
 *    site's own origin: otherwise 403 `forbidden-origin` (src/http/origin.ts). Unlike
 *    `/mcp`, no other origin is allowed, loopback ones included: the callers are agents
 *    (no `Origin`), and a browser page has no business holding the owner's token, so no
 *    page of another site may use one here even if it got it. A CORS preflight is
 *    answered under the same rule: 403 from another site (the browser then sends
 *    nothing), 204 with `Allow` from the site itself.
 * 2. The token (src/oauth/verify.ts): none or a bad, expired, revoked or foreign one
 *    (issued for another resource) → 401 with `WWW-Authenticate: Bearer
 *    resource_metadata="…", scope="taste:read"` (RFC 6750 §3, RFC 9728 §5.1); a token
 *    without `taste:read` → 403.
 * 3. The body: at most the MCP bound (413), UTF-8 JSON (400, -32700), one message or a
 *    batch only where the protocol version allows one (2025-03-26), at most ten (400):
 *    the same checks and refusals as `/mcp`.
 * 4. A `tools/call` of a write tool needs its task scope (`taste:log`, `taste:rate`,
 *    `taste:stance`), which `taste:write` includes: otherwise 403 `insufficient_scope`
 *    with `scope="taste:write"` (RFC 6750 §3), before anything is written. `taste:write`
 *    includes reading and every task scope (src/oauth/scopes.ts), so a client that
 *    authorizes again with exactly that scope keeps every call it had.
 * 5. A fresh stateless server and transport answer, as JSON; write calls are journaled
 *    under the token's grant and client (a `requestId` is unique within the grant).
 *
 * Steps 1, 3 and 5 are the Streamable HTTP edge it shares with `/mcp`
 * (src/mcp/streamable-http.ts); the origin rule, the token and the owner's tools are its
 * own. The token is read only here: the public `/mcp` never reads `Authorization`. The
 * handler is built once per generation, over that generation's `OwnerMcpContext`.
 */
import { toResponse } from '../src/http/answer.ts';
import type { Exchange } from '../src/http/exchange.ts';
import { problemAnswer } from '../src/http/problem.ts';
import type { OwnerMcpContext } from '../src/mcp/context.ts';
import { ownerToolNamed, type OwnerScope } from '../src/mcp/owner-tools.ts';
import { createServer, sharesUi } from '../src/mcp/server.ts';
import { SCOPE } from '../src/oauth/scopes.ts';
import { answerStatelessly, NO_STORE, readMessages, rpcError, siteRefusal, toolsCalled } from '../src/mcp/streamable-http.ts';

export const OWNER_MCP_ALLOW = 'POST, OPTIONS';

function refusal(status: number, error: string, description: string, wwwAuthenticate?: string): Response {
  return new Response(JSON.stringify({ error, error_description: description }), {
    status,
    headers: { 'Content-Type': 'application/json', ...NO_STORE, ...(wwwAuthenticate ? { 'WWW-Authenticate': wwwAuthenticate } : {}) },
  });
}

/** A refused Host or Origin, as a problem without the public API's `Access-Control-Allow-Origin: *`. */
function forbidden(detail: string): Response {
  const answer = problemAnswer('forbidden-origin', detail);
  const { 'Access-Control-Allow-Origin': _, 'Access-Control-Expose-Headers': __, ...headers } = answer.headers;
  return toResponse({ ...answer, headers });
}

/** One request to `/owner/mcp` over the generation the handler was built for. */
export type OwnerMcpHandler = (exchange: Exchange) => Promise<Response>;

/** The `/owner/mcp` handler of one generation: `context` is what its tools read, with the process's authorization server and the owner's writes. */
export function createOwnerMcpHandler(context: OwnerMcpContext, log: (error: unknown) => void = console.error): OwnerMcpHandler {
  const oauth = context.oauth;
  if (!oauth) return async () => rpcError(404, -32000, 'The owner lane is not configured on this server.');
  // The owner lane's own URL (its issuer and resource), which is the site's public one.
  const site = new URL(oauth.config.siteUrl);
  // Only the site's own pages: agents send no Origin, and no other page should hold the owner's token.
  const admitsOrigin = (origin: string) => origin === site.origin;

  return async (exchange) => {
    const { facts } = exchange;
    const refused = siteRefusal(facts, site, admitsOrigin);
    if (refused === 'host') return forbidden(`This endpoint is served at ${site.host}; the request names another host.`);
    if (refused === 'origin')
      return forbidden(
        `Requests from another site's pages are refused here (Origin); agents call without one, and only ${site.origin} may call from a browser.`,
      );
    if (facts.method === 'OPTIONS') return new Response(null, { status: 204, headers: { Allow: OWNER_MCP_ALLOW, ...NO_STORE } });
    const authorization = facts.header('Authorization');
    const read = oauth.authorizeBearer(authorization, SCOPE.read);
    if (!read.ok) return refusal(read.status, read.status === 403 ? 'insufficient_scope' : 'invalid_token', read.description, read.wwwAuthenticate);

    const body = readMessages(exchange.body, facts);
    if (!body.ok) return body.refusal;

    // The task scopes of the write tools the message (or batch) calls: each must be held; a refusal names taste:write, which holds them all.
    const needed = new Set<OwnerScope>();
    for (const name of toolsCalled(body.messages)) {
      const scope = ownerToolNamed(name)?.scope;
      if (scope !== undefined && scope !== SCOPE.read) needed.add(scope);
    }
    if (needed.size > 0) {
      const write = oauth.authorizeBearer(authorization, [...needed].sort().join(' '), SCOPE.write);
      if (!write.ok) return refusal(write.status, write.status === 403 ? 'insufficient_scope' : 'invalid_token', write.description, write.wwwAuthenticate);
    }

    const server = createServer(context, {
      ui: sharesUi(body.messages),
      log,
      owner: { writes: context.owner, client: { client: read.token.clientId, grant: read.token.grantId, scopes: read.token.scopes } },
    });
    // The transport is given the parsed body; the request it sees carries no credential onward.
    return answerStatelessly(server, exchange.request(), body.parsed, NO_STORE);
  };
}
