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
 *
 * A `tools/call` answer is remembered (per generation, bounded, admitted from its second
 * request as REST's are): the public tools read only the immutable image, so the answer
 * to the same tool, arguments and transport headers is the same bytes but for the
 * request's id, which a replay writes in. Both quotas are charged before a replay too.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { LIMITS } from '../src/core/limits.ts';
import { AnswerCache } from '../src/http/answer-cache.ts';
import type { Answer, RequestFacts } from '../src/http/answer.ts';
import { negotiate } from '../src/http/negotiate.ts';
import { allowedHost, loopbackOrigin } from '../src/http/origin.ts';
import { RateLimiter, type CounterStore } from '../src/http/rate-limit.ts';
import type { McpContext } from '../src/mcp/context.ts';
import { createServer, sharesUi } from '../src/mcp/server.ts';
import { toolNamed } from '../src/mcp/tools.ts';
import type { Exchange } from '../src/http/exchange.ts';
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
  /** The budget of remembered `tools/call` answers (`ANSWER_CACHE_BYTES`; 0: none). */
  cacheBytes?: number;
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

/** A remembered `tools/call` answer: its body's bytes up to the id (`…,"id":`), and its type. */
interface Remembered {
  head: Buffer;
  contentType: string;
}

const rememberedBytes = (value: Remembered) => value.head.byteLength + 2 * value.contentType.length + 96;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The replay key of a message whose answer may be remembered: one `tools/call` of a public
 * tool carrying nothing but its name and arguments (no `_meta`, no other member), with the
 * headers the transport reads; and the id to write into the answer.
 */
function replayable(body: unknown, facts: RequestFacts): { key: string; id: string } | undefined {
  if (!isObject(body)) return undefined;
  const { jsonrpc, id, method, params, ...other } = body;
  if (jsonrpc !== '2.0' || method !== 'tools/call' || Object.keys(other).length > 0 || !isObject(params)) return undefined;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  const { name, arguments: args, ...rest } = params;
  if (typeof name !== 'string' || !toolNamed(name) || Object.keys(rest).length > 0) return undefined;
  const headers = ['Accept', 'Content-Type', 'MCP-Protocol-Version'].map((header) => facts.header(header));
  return { key: JSON.stringify([...headers, name, args ?? null]), id: JSON.stringify(id) };
}

/** One request over the generation it arrived on (its `McpContext`). */
export type McpHandler = (context: McpContext, exchange: Exchange) => Promise<Response | Answer>;

export function mcpHandler(options: McpOptions): McpHandler {
  const windowSeconds = LIMITS.mcpWindowSeconds;
  const requests = new RateLimiter({ store: options.counters?.requests, limit: options.requestQuota ?? LIMITS.mcpRequestsPerWindow, windowSeconds, policy: 'mcp-requests' });
  const work = new RateLimiter({ store: options.counters?.work, limit: options.workQuota ?? LIMITS.mcpToolWorkPerWindow, windowSeconds, policy: 'mcp-tool-work' });
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const answers = new AnswerCache<Remembered>(options.cacheBytes ?? LIMITS.mcpAnswerCacheBytes, LIMITS.answerCacheAdmissionSlots, rememberedBytes);
  const refused = (limiter: RateLimiter, header: string, what: string) =>
    rpcError(429, -32000, `Rate limited: this client used its ${what} for the window; retry after ${windowSeconds} seconds.`, { ...limiter.policyHeaders, RateLimit: header, 'Retry-After': String(windowSeconds) }, { type: problemUrl('rate-limited'), retryAfter: windowSeconds });

  /** The transport's answer to a replayable call, remembered when it is a result ending in the request's id. */
  const remember = async (replay: { key: string; id: string }, response: Response): Promise<Response> => {
    const text = await response.text();
    const contentType = response.headers.get('Content-Type');
    if (text.startsWith('{"result":') && text.endsWith(`"id":${replay.id}}`) && contentType) answers.set(replay.key, { head: Buffer.from(text.slice(0, -(replay.id.length + 1))), contentType });
    return new Response(text, { status: response.status, headers: response.headers });
  };

  return async (context, exchange) => {
    const { facts } = exchange;
    const site = new URL(context.siteUrl);
    if (!allowedHost(facts.header('Host'), site)) return rpcError(403, -32000, `Forbidden: this endpoint is served at ${site.host}.`);
    const origin = facts.header('Origin');
    if (origin !== null && !allowedOrigin(origin, site)) return rpcError(403, -32000, 'Forbidden: requests from another site’s pages are refused (Origin).');
    const cors: Record<string, string> = origin === null ? {} : { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
    if (facts.method === 'OPTIONS') {
      return new Response(null, {
        status: 204,
        headers: { ...cors, ...NO_STORE, Allow: MCP_ALLOW, 'Access-Control-Allow-Methods': MCP_ALLOW, 'Access-Control-Allow-Headers': 'Accept, Content-Type, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID', 'Access-Control-Max-Age': '600' },
      });
    }
    if (facts.method === 'GET') {
      if (negotiate(facts.header('Accept'), ['application/json', 'text/event-stream', 'text/html']) === 'text/html') {
        return new Response(null, { status: 303, headers: { Location: URLS.mcpSetup, ...NO_STORE } });
      }
      return rpcError(405, -32000, 'Method not allowed: this stateless server offers no SSE stream; POST JSON-RPC messages to this URL.', { ...cors, Allow: MCP_ALLOW });
    }
    const client = options.clientOf(facts);
    const quota = await requests.take(client);
    if (!quota.allowed) return refused(requests, quota.header, `quota of ${LIMITS.mcpRequestsPerWindow} requests`);
    const limits = { ...cors, ...requests.policyHeaders, RateLimit: quota.header };

    let parsedBody: unknown;
    let messages: Message[] = [];
    if (facts.method === 'POST') {
      const body = exchange.body ?? new Uint8Array(0);
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
        const spent = await work.take(client, cost);
        if (!spent.allowed) return refused(work, spent.header, `tool work budget of ${LIMITS.mcpToolWorkPerWindow} units`);
      }
    }
    const replay = replayable(parsedBody, facts);
    const hit = replay && answers.get(replay.key);
    if (replay && hit) return { status: 200, headers: { 'Content-Type': hit.contentType, ...limits, ...NO_STORE }, body: Buffer.concat([hit.head, Buffer.from(`${replay.id}}`)]) };
    const server = createServer(context, { ui: messages.some((m) => m?.method === 'initialize' && sharesUi(m)), log: options.log });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      const answered = await transport.handleRequest(exchange.request(), parsedBody === undefined ? undefined : { parsedBody });
      const response = replay && answered.status === 200 ? await remember(replay, answered) : answered;
      // Headers completed in place (a second Response around the transport's would copy its body stream).
      for (const [name, value] of Object.entries({ ...limits, ...NO_STORE })) response.headers.set(name, value);
      return response;
    } finally {
      await server.close();
    }
  };
}
