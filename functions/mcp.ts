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
 * Steps 1, 5 and 7 are the Streamable HTTP edge it shares with the owner lane
 * (src/mcp/streamable-http.ts); the origins it admits, the quotas and the public tool set
 * are its own. The handler is built once per generation, over that generation's
 * `McpContext`, with the generation's remembered answers.
 *
 * A `tools/call` answer is remembered (per generation, bounded, admitted from its second
 * request as REST's are): the public tools read only the immutable image, so the answer
 * to the same tool, arguments and transport headers is the same bytes but for the
 * request's id, which a replay writes in. Both quotas are charged before a replay too.
 */
import { LIMITS } from '../src/core/limits.ts';
import { AnswerCache } from '../src/http/answer-cache.ts';
import type { Answer, RequestFacts } from '../src/http/answer.ts';
import type { Exchange } from '../src/http/exchange.ts';
import { negotiate } from '../src/http/negotiate.ts';
import { loopbackOrigin } from '../src/http/origin.ts';
import { RateLimiter, type CounterStore } from '../src/http/rate-limit.ts';
import type { McpContext } from '../src/mcp/context.ts';
import { createServer, sharesUi } from '../src/mcp/server.ts';
import { answerStatelessly, NO_STORE, readMessages, rpcError, siteRefusal, toolsCalled, type Message } from '../src/mcp/streamable-http.ts';
import { toolNamed } from '../src/mcp/tools.ts';
import { problemUrl, URLS } from '../src/urls.ts';

export const MCP_ALLOW = 'GET, POST, DELETE, OPTIONS';

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

/** One request to `/mcp` over the generation the handler was built for. */
export type McpHandler = (exchange: Exchange) => Promise<Response | Answer>;

/** The `/mcp` handler of one generation: `context` is what its tools read. */
export function createMcpHandler(context: McpContext, options: McpOptions): McpHandler {
  const windowSeconds = LIMITS.mcpWindowSeconds;
  const requests = new RateLimiter({
    store: options.counters?.requests,
    limit: options.requestQuota ?? LIMITS.mcpRequestsPerWindow,
    windowSeconds,
    policy: 'mcp-requests',
  });
  const work = new RateLimiter({
    store: options.counters?.work,
    limit: options.workQuota ?? LIMITS.mcpToolWorkPerWindow,
    windowSeconds,
    policy: 'mcp-tool-work',
  });
  const answers = new AnswerCache<Remembered>(options.cacheBytes ?? LIMITS.mcpAnswerCacheBytes, LIMITS.answerCacheAdmissionSlots, rememberedBytes);
  // The site's own origin, or a loopback one (local tools such as the MCP Inspector).
  const site = new URL(context.siteUrl);
  const admitsOrigin = (origin: string) => origin === site.origin || loopbackOrigin(origin);
  const refused = (limiter: RateLimiter, header: string, what: string) =>
    rpcError(
      429,
      -32000,
      `Rate limited: this client used its ${what} for the window; retry after ${windowSeconds} seconds.`,
      { ...limiter.policyHeaders, RateLimit: header, 'Retry-After': String(windowSeconds) },
      { type: problemUrl('rate-limited'), retryAfter: windowSeconds },
    );

  /** The transport's answer to a replayable call, remembered when it is a result ending in the request's id. */
  const remember = async (replay: { key: string; id: string }, response: Response): Promise<Response> => {
    const text = await response.text();
    const contentType = response.headers.get('Content-Type');
    if (text.startsWith('{"result":') && text.endsWith(`"id":${replay.id}}`) && contentType)
      answers.set(replay.key, { head: Buffer.from(text.slice(0, -(replay.id.length + 1))), contentType });
    return new Response(text, { status: response.status, headers: response.headers });
  };

  return async (exchange) => {
    const { facts } = exchange;
    const refusal = siteRefusal(facts, site, admitsOrigin);
    if (refusal === 'host') return rpcError(403, -32000, `Forbidden: this endpoint is served at ${site.host}.`);
    if (refusal === 'origin') return rpcError(403, -32000, 'Forbidden: requests from another site’s pages are refused (Origin).');
    const origin = facts.header('Origin');
    const cors: Record<string, string> = origin === null ? {} : { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
    if (facts.method === 'OPTIONS') {
      return new Response(null, {
        status: 204,
        headers: {
          ...cors,
          ...NO_STORE,
          Allow: MCP_ALLOW,
          'Access-Control-Allow-Methods': MCP_ALLOW,
          'Access-Control-Allow-Headers': 'Accept, Content-Type, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
          'Access-Control-Max-Age': '600',
        },
      });
    }
    if (facts.method === 'GET') {
      if (negotiate(facts.header('Accept'), ['application/json', 'text/event-stream', 'text/html']) === 'text/html') {
        return new Response(null, { status: 303, headers: { Location: URLS.mcpSetup, ...NO_STORE } });
      }
      return rpcError(405, -32000, 'Method not allowed: this stateless server offers no SSE stream; POST JSON-RPC messages to this URL.', {
        ...cors,
        Allow: MCP_ALLOW,
      });
    }
    const client = options.clientOf(facts);
    const quota = await requests.take(client);
    if (!quota.allowed) return refused(requests, quota.header, `quota of ${LIMITS.mcpRequestsPerWindow} requests`);
    const limits = { ...cors, ...requests.policyHeaders, RateLimit: quota.header };

    let parsed: unknown;
    let messages: readonly Message[] = [];
    if (facts.method === 'POST') {
      const read = readMessages(exchange.body, facts, limits);
      if (!read.ok) return read.refusal;
      ({ parsed, messages } = read);
      const cost = toolsCalled(messages).reduce((sum, name) => sum + (toolNamed(name)?.cost ?? 1), 0);
      if (cost > 0) {
        const spent = await work.take(client, cost);
        if (!spent.allowed) return refused(work, spent.header, `tool work budget of ${LIMITS.mcpToolWorkPerWindow} units`);
      }
    }
    const replay = replayable(parsed, facts);
    const hit = replay && answers.get(replay.key);
    if (replay && hit)
      return {
        status: 200,
        headers: { 'Content-Type': hit.contentType, ...limits, ...NO_STORE },
        body: Buffer.concat([hit.head, Buffer.from(`${replay.id}}`)]),
      };
    const server = createServer(context, { ui: sharesUi(messages), log: options.log });
    const answered = await answerStatelessly(server, exchange.request(), parsed, { ...limits, ...NO_STORE });
    return replay && answered.status === 200 ? remember(replay, answered) : answered;
  };
}
