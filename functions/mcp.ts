/**
 * The public MCP endpoint, `/mcp` (SPEC §4.7): JSON-RPC 2.0 over Streamable HTTP,
 * stateless, anonymous and read-only. In order, each step before any work of the next:
 *
 * 1. Host is the site's host or a loopback name, and Origin, when sent, is the site's
 *    origin or a loopback origin (DNS-rebinding protection): otherwise 403.
 * 2. OPTIONS is the CORS preflight of an allowed origin.
 * 3. GET from a browser (Accept prefers text/html) is sent to the setup page (303).
 *    Any other GET is 405: a stateless server offers no SSE stream at GET, which the
 *    Streamable HTTP transport allows ("or else return HTTP 405"), rather than holding
 *    an idle stream open that no message will ever use.
 * 4. The client's request quota (429 with Retry-After and a JSON-RPC error body).
 * 5. POST: the body is at most 64 KiB (413), UTF-8 JSON (400, -32700), one message or a
 *    batch only where the protocol version allows one (2025-03-26), at most ten (400).
 * 6. The tool-work quota: each `tools/call` spends its tool's weight before it runs (429).
 * 7. A fresh server and transport (no session) answer, as JSON; DELETE is answered by
 *    the transport as a stateless server does. `Authorization` is never read: this lane
 *    takes no credential and sends no one through OAuth (the owner's is `/owner/mcp`).
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { LIMITS } from '../src/core/limits.ts';
import type { RequestFacts } from '../src/http/answer.ts';
import { negotiate } from '../src/http/negotiate.ts';
import { allowedHost, loopbackOrigin } from '../src/http/origin.ts';
import { RateLimiter, type CounterStore } from '../src/http/rate-limit.ts';
import { createServer, sharesUi } from '../src/mcp/server.ts';
import { toolNamed } from '../src/mcp/tools.ts';
import type { Runtime } from '../src/runtime/runtime.ts';
import { problemUrl, URLS } from '../src/urls.ts';

export const MCP_ALLOW = 'GET, POST, DELETE, OPTIONS';
/** The protocol version a request without `MCP-Protocol-Version` is assumed to speak (Streamable HTTP transport, "Protocol Version Header"). */
const ASSUMED_VERSION = '2025-03-26';

export interface McpOptions {
  /** Where the request and work counters live (shared across generations). */
  counters?: { requests?: CounterStore; work?: CounterStore };
  /** Requests per client and window (`MCP_RATE_LIMIT_REQUESTS`). */
  requestQuota?: number;
  /** Tool work units per client and window (`MCP_TOOL_WORK_BUDGET`). */
  workQuota?: number;
  clientOf: (request: RequestFacts) => string;
  log?: (error: unknown) => void;
}

const NO_STORE = { 'Cache-Control': 'no-store' };

/** A JSON-RPC error outside any request (id null), as the transport writes its own. */
function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}, data?: unknown): Response {
  const error = data === undefined ? { code, message } : { code, message, data };
  return new Response(JSON.stringify({ jsonrpc: '2.0', error, id: null }), { status, headers: { 'Content-Type': 'application/json', ...NO_STORE, ...headers } });
}

/** Whether an Origin may call: the site's own, or a loopback one (local tools). */
const allowedOrigin = (origin: string, site: URL) => origin === site.origin || loopbackOrigin(origin);

interface Message {
  method?: unknown;
  params?: { name?: unknown };
}

export type McpHandler = (runtime: Runtime, request: Request, facts: RequestFacts) => Promise<Response>;

export function mcpHandler(options: McpOptions): McpHandler {
  const windowSeconds = LIMITS.mcpWindowSeconds;
  const requests = new RateLimiter({ store: options.counters?.requests, limit: options.requestQuota ?? LIMITS.mcpRequestsPerWindow, windowSeconds, policy: 'mcp-requests' });
  const work = new RateLimiter({ store: options.counters?.work, limit: options.workQuota ?? LIMITS.mcpToolWorkPerWindow, windowSeconds, policy: 'mcp-tool-work' });
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const refused = (limiter: RateLimiter, header: string, what: string) =>
    rpcError(429, -32000, `Rate limited: this client used its ${what} for the window; retry after ${windowSeconds} seconds.`, { ...limiter.policyHeaders, RateLimit: header, 'Retry-After': String(windowSeconds) }, { type: problemUrl('rate-limited'), retryAfter: windowSeconds });

  return async (runtime, request, facts) => {
    const site = new URL(runtime.siteUrl);
    if (!allowedHost(facts.header('Host'), site)) return rpcError(403, -32000, `Forbidden: this endpoint is served at ${site.host}.`);
    const origin = facts.header('Origin');
    if (origin !== null && !allowedOrigin(origin, site)) return rpcError(403, -32000, 'Forbidden: requests from another site’s pages are refused (Origin).');
    const cors: Record<string, string> = origin === null ? {} : { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
    if (request.method === 'OPTIONS') {
      return new Response(null, {
        status: 204,
        headers: { ...cors, ...NO_STORE, Allow: MCP_ALLOW, 'Access-Control-Allow-Methods': MCP_ALLOW, 'Access-Control-Allow-Headers': 'Accept, Content-Type, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID', 'Access-Control-Max-Age': '600' },
      });
    }
    if (request.method === 'GET') {
      if (negotiate(facts.header('Accept'), ['application/json', 'text/event-stream', 'text/html']) === 'text/html') {
        return new Response(null, { status: 303, headers: { Location: URLS.mcpSetup, ...NO_STORE } });
      }
      return rpcError(405, -32000, 'Method not allowed: this stateless server offers no SSE stream; POST JSON-RPC messages to this URL.', { ...cors, Allow: MCP_ALLOW });
    }
    const client = options.clientOf(facts);
    const quota = requests.take(client);
    if (!quota.allowed) return refused(requests, quota.header, `quota of ${LIMITS.mcpRequestsPerWindow} requests`);
    const limits = { ...cors, ...requests.policyHeaders, RateLimit: quota.header };

    let parsedBody: unknown;
    let messages: Message[] = [];
    if (request.method === 'POST') {
      const body = new Uint8Array(await request.arrayBuffer());
      if (body.length > LIMITS.mcpRequestBytesMax) return rpcError(413, -32600, `The request body is larger than ${LIMITS.mcpRequestBytesMax} bytes; send one smaller message.`, limits);
      try {
        parsedBody = JSON.parse(decoder.decode(body));
      } catch {
        return rpcError(400, -32700, 'Parse error: the body is not one UTF-8 JSON document.', limits);
      }
      if (Array.isArray(parsedBody)) {
        const version = facts.header('MCP-Protocol-Version') ?? ASSUMED_VERSION;
        if (version !== ASSUMED_VERSION) return rpcError(400, -32600, `Invalid Request: protocol version ${version.slice(0, 20)} takes one JSON-RPC message per request, not a batch.`, limits);
        if (parsedBody.length === 0 || parsedBody.length > LIMITS.mcpBatchMessagesMax) return rpcError(400, -32600, `Invalid Request: a batch holds 1 to ${LIMITS.mcpBatchMessagesMax} messages.`, limits);
        messages = parsedBody as Message[];
      } else if (parsedBody !== null && typeof parsedBody === 'object') {
        messages = [parsedBody as Message];
      }
      const cost = messages.reduce((sum, m) => sum + (m?.method === 'tools/call' ? (toolNamed(String(m.params?.name))?.cost ?? 1) : 0), 0);
      if (cost > 0) {
        const spent = work.take(client, cost);
        if (!spent.allowed) return refused(work, spent.header, `tool work budget of ${LIMITS.mcpToolWorkPerWindow} units`);
      }
    }
    const server = createServer(runtime, { ui: messages.some((m) => m?.method === 'initialize' && sharesUi(m)), log: options.log });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
      // The transport's own Response, its headers completed in place (a second Response would copy the body stream).
      for (const [name, value] of Object.entries({ ...limits, ...NO_STORE })) response.headers.set(name, value);
      return response;
    } finally {
      await server.close();
    }
  };
}
