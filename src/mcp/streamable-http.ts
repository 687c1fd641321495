/**
 * The Streamable HTTP edge both MCP endpoints share, the public `/mcp` (functions/mcp.ts)
 * and the owner lane's `/owner/mcp` (functions/owner-mcp.ts): what a request must be
 * before an MCP server sees it, and how a stateless server then answers it. Each endpoint
 * runs these steps in its own order and supplies what differs: the origins it admits and
 * the words of that refusal, its credential check or quotas, and its server (tool set).
 *
 * - `siteRefusal`: `Host` names the site or a loopback name, and `Origin`, when sent, is
 *   one the endpoint admits (DNS-rebinding protection, src/http/origin.ts).
 * - `readMessages`: the body within the MCP bound (413), one UTF-8 JSON document (400,
 *   -32700), a batch only under the protocol version that has batches and of 1 to
 *   `mcpBatchMessagesMax` messages (400, -32600).
 * - `answerStatelessly`: a fresh transport without a session answers as JSON; the
 *   endpoint's headers are completed on its answer; the server is closed after.
 *
 * The transport checks the rest itself, in the same words on both endpoints: `Accept`,
 * `Content-Type`, the `MCP-Protocol-Version` of every message after `initialize`, and
 * DELETE. Refusals before any message is read are JSON-RPC errors with id null (`rpcError`),
 * in the form the transport writes its own.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { LIMITS } from '../core/limits.ts';
import type { RequestFacts } from '../http/answer.ts';
import { allowedHost } from '../http/origin.ts';

export const NO_STORE: Readonly<Record<string, string>> = { 'Cache-Control': 'no-store' };

/**
 * The protocol version a request without `MCP-Protocol-Version` is assumed to speak
 * (Streamable HTTP transport, "Protocol Version Header"); also the last one with JSON-RPC
 * batches, which 2025-06-18 removed.
 */
export const BATCH_PROTOCOL_VERSION = '2025-03-26';

/** fatal: a body that is not UTF-8 is refused, not read with replacement characters. (Stateless: it never decodes a stream.) */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A JSON-RPC error outside any request (id null), as the transport writes its own. */
export function rpcError(status: number, code: number, message: string, headers: Readonly<Record<string, string>> = {}, data?: unknown): Response {
  const error = data === undefined ? { code, message } : { code, message, data };
  return new Response(JSON.stringify({ jsonrpc: '2.0', error, id: null }), {
    status,
    headers: { 'Content-Type': 'application/json', ...NO_STORE, ...headers },
  });
}

/**
 * Which of `Host` and `Origin` refuses the request, if either: `Host` must name the site
 * or a loopback address, and an `Origin`, when sent, must be one `admitsOrigin` takes.
 * The endpoint words the 403 (the public one as JSON-RPC, the owner lane as a problem).
 */
export function siteRefusal(facts: RequestFacts, site: URL, admitsOrigin: (origin: string) => boolean): 'host' | 'origin' | undefined {
  if (!allowedHost(facts.header('Host'), site)) return 'host';
  const origin = facts.header('Origin');
  return origin !== null && !admitsOrigin(origin) ? 'origin' : undefined;
}

/** A JSON-RPC message as the endpoints' checks read it: its method, and the tool a `tools/call` names. */
export interface Message {
  method?: unknown;
  params?: { name?: unknown };
}

/** A POST body read: as parsed (the transport is handed it, not the bytes) and its messages; or the refusal. */
export type ReadMessages = { ok: true; parsed: unknown; messages: readonly Message[] } | { ok: false; refusal: Response };

/**
 * The messages of a POST body, bounded and checked before any of them is handled. The
 * body is as the dispatcher read it (one byte past the bound when it was larger); a
 * refusal carries `headers` (the endpoint's quota fields, CORS).
 */
export function readMessages(body: Uint8Array | null, facts: RequestFacts, headers: Readonly<Record<string, string>> = {}): ReadMessages {
  const refuse = (status: number, code: number, message: string): ReadMessages => ({ ok: false, refusal: rpcError(status, code, message, headers) });
  const bytes = body ?? new Uint8Array(0);
  if (bytes.length > LIMITS.mcpRequestBytesMax)
    return refuse(413, -32600, `The request body is larger than ${LIMITS.mcpRequestBytesMax} bytes; send one smaller message.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(UTF8.decode(bytes));
  } catch {
    return refuse(400, -32700, 'Parse error: the body is not one UTF-8 JSON document.');
  }
  if (!Array.isArray(parsed)) return { ok: true, parsed, messages: parsed !== null && typeof parsed === 'object' ? [parsed as Message] : [] };
  const version = facts.header('MCP-Protocol-Version') ?? BATCH_PROTOCOL_VERSION;
  if (version !== BATCH_PROTOCOL_VERSION)
    return refuse(400, -32600, `Invalid Request: protocol version ${version.slice(0, 20)} takes one JSON-RPC message per request, not a batch.`);
  if (parsed.length === 0 || parsed.length > LIMITS.mcpBatchMessagesMax)
    return refuse(400, -32600, `Invalid Request: a batch holds 1 to ${LIMITS.mcpBatchMessagesMax} messages.`);
  return { ok: true, parsed, messages: parsed as Message[] };
}

/** The tools the messages call (`tools/call`), by the name each gives, in order. */
export const toolsCalled = (messages: readonly Message[]): string[] => messages.flatMap((m) => (m?.method === 'tools/call' ? [String(m.params?.name)] : []));

/**
 * `server`'s answer to `request` through a fresh stateless transport (no session: any
 * replica answers any request), as JSON rather than an SSE stream, with `headers` set on
 * it; the server is closed once it has answered. `parsed` is the body `readMessages` read
 * (absent: a request without one, such as DELETE).
 */
export async function answerStatelessly(server: Server, request: Request, parsed: unknown, headers: Readonly<Record<string, string>>): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const response = await transport.handleRequest(request, parsed === undefined ? undefined : { parsedBody: parsed });
    // Headers completed in place (a second Response around the transport's would copy its body stream).
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  } finally {
    await server.close();
  }
}
