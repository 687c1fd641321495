/**
 * The owner lane's MCP endpoint, `POST /owner/mcp` (SPEC §4.7, §5; issue 17 items 6–7):
 * the MCP server of `/mcp` — the same read tools over the public corpus — plus the
 * owner's write tools, behind an OAuth bearer token issued for this resource. In order:
 *
 * 1. The token (src/oauth/verify.ts): none or a bad, expired, revoked or foreign one
 *    (issued for another resource) → 401 with `WWW-Authenticate: Bearer
 *    resource_metadata="…", scope="taste:read"` (RFC 6750 §3, RFC 9728 §5.1); a token
 *    without `taste:read` → 403.
 * 2. The body: at most the MCP bound (413), one UTF-8 JSON message or a small batch (400).
 * 3. A `tools/call` of a write tool needs `taste:write`: otherwise 403 `insufficient_scope`
 *    naming it, before anything is written.
 * 4. A fresh stateless server and transport answer, as JSON; write calls are journaled
 *    under the token's client.
 *
 * The token is read only here: the public `/mcp` never reads `Authorization`.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { LIMITS } from '../src/core/limits.ts';
import type { RequestFacts } from '../src/http/answer.ts';
import { ownerToolNamed, WRITE_SCOPE } from '../src/mcp/owner-tools.ts';
import { createServer, sharesUi } from '../src/mcp/server.ts';
import type { Runtime } from '../src/runtime/runtime.ts';

export const READ_SCOPE = 'taste:read';
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

function rpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), { status, headers: { 'Content-Type': 'application/json', ...NO_STORE } });
}

export async function ownerMcp(runtime: Runtime, request: Request, facts: RequestFacts, log: (error: unknown) => void = console.error): Promise<Response> {
  const oauth = runtime.oauth;
  if (!oauth) return rpcError(404, -32000, 'The owner lane is not configured on this server.');
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

  const writes = messages.some((m) => m?.method === 'tools/call' && ownerToolNamed(String(m.params?.name)) !== undefined);
  if (writes && !read.token.scopes.includes(WRITE_SCOPE)) {
    const write = oauth.authorizeBearer(authorization, WRITE_SCOPE);
    if (!write.ok) return refusal(write.status, write.status === 403 ? 'insufficient_scope' : 'invalid_token', write.description, write.wwwAuthenticate);
  }

  const server = createServer(runtime, { ui: messages.some((m) => m?.method === 'initialize' && sharesUi(m)), log, owner: { writes: runtime.owner, client: read.token.clientId } });
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
