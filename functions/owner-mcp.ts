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
 * 3. The body: at most the MCP bound (413), one UTF-8 JSON message or a small batch (400).
 * 4. A `tools/call` of a write tool needs its task scope (`taste:log`, `taste:rate`,
 *    `taste:stance`), which `taste:write` includes: otherwise 403 `insufficient_scope`
 *    with `scope="taste:write"` (RFC 6750 §3), before anything is written. `taste:write`
 *    includes reading and every task scope (src/oauth/scopes.ts), so a client that
 *    authorizes again with exactly that scope keeps every call it had.
 * 5. A fresh stateless server and transport answer, as JSON; write calls are journaled
 *    under the token's grant and client (a `requestId` is unique within the grant).
 *
 * The token is read only here: the public `/mcp` never reads `Authorization`.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { LIMITS } from '../src/core/limits.ts';
import type { RequestFacts } from '../src/http/answer.ts';
import { toResponse } from '../src/http/answer.ts';
import { allowedHost } from '../src/http/origin.ts';
import { problemAnswer } from '../src/http/problem.ts';
import type { OwnerMcpContext } from '../src/mcp/context.ts';
import { ownerToolNamed, READ_SCOPE, WRITE_SCOPE, type OwnerScope } from '../src/mcp/owner-tools.ts';
import { createServer, sharesUi } from '../src/mcp/server.ts';

export const OWNER_MCP_ALLOW = 'POST, OPTIONS';
const NO_STORE = { 'Cache-Control': 'no-store' };

interface Message {
  method?: unknown;
  params?: { name?: unknown };
}

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

function rpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), { status, headers: { 'Content-Type': 'application/json', ...NO_STORE } });
}

export async function ownerMcp(context: OwnerMcpContext, request: Request, facts: RequestFacts, log: (error: unknown) => void = console.error): Promise<Response> {
  const oauth = context.oauth;
  if (!oauth) return rpcError(404, -32000, 'The owner lane is not configured on this server.');
  // The owner lane's own URL (its issuer and resource), which is the site's public one.
  const site = new URL(oauth.config.siteUrl);
  const origin = facts.header('Origin');
  if (!allowedHost(facts.header('Host'), site)) return forbidden(`This endpoint is served at ${site.host}; the request names another host.`);
  if (origin !== null && origin !== site.origin) return forbidden(`Requests from another site's pages are refused here (Origin); agents call without one, and only ${site.origin} may call from a browser.`);
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: { Allow: OWNER_MCP_ALLOW, ...NO_STORE } });
  const authorization = facts.header('Authorization');
  const read = oauth.authorizeBearer(authorization, READ_SCOPE);
  if (!read.ok) return refusal(read.status, read.status === 403 ? 'insufficient_scope' : 'invalid_token', read.description, read.wwwAuthenticate);

  const body = new Uint8Array(await request.arrayBuffer());
  if (body.length > LIMITS.mcpRequestBytesMax) return rpcError(413, -32600, `The request body is larger than ${LIMITS.mcpRequestBytesMax} bytes; send one smaller message.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return rpcError(400, -32700, 'Parse error: the body is not one UTF-8 JSON document.');
  }
  const messages: Message[] = Array.isArray(parsed) ? (parsed as Message[]) : parsed !== null && typeof parsed === 'object' ? [parsed as Message] : [];
  if (Array.isArray(parsed) && (parsed.length === 0 || parsed.length > LIMITS.mcpBatchMessagesMax)) return rpcError(400, -32600, `Invalid Request: a batch holds 1 to ${LIMITS.mcpBatchMessagesMax} messages.`);

  // The task scopes of the write tools the message (or batch) calls: each must be held; a refusal names taste:write, which holds them all.
  const needed = new Set<OwnerScope>();
  for (const m of messages) {
    const scope = m?.method === 'tools/call' ? ownerToolNamed(String(m.params?.name))?.scope : undefined;
    if (scope !== undefined && scope !== READ_SCOPE) needed.add(scope);
  }
  if (needed.size > 0) {
    const write = oauth.authorizeBearer(authorization, [...needed].sort().join(' '), WRITE_SCOPE);
    if (!write.ok) return refusal(write.status, write.status === 403 ? 'insufficient_scope' : 'invalid_token', write.description, write.wwwAuthenticate);
  }

  const server = createServer(context, { ui: messages.some((m) => m?.method === 'initialize' && sharesUi(m)), log, owner: { writes: context.owner, client: { client: read.token.clientId, grant: read.token.grantId, scopes: read.token.scopes } } });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    // The transport is given the parsed body; the request it sees carries no credential onward.
    const response = await transport.handleRequest(request, { parsedBody: parsed });
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(NO_STORE)) headers.set(name, value);
    return new Response(response.body, { status: response.status, headers });
  } finally {
    await server.close();
  }
}
