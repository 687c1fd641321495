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
 * 7. A plain `tools/call` of a public tool (src/mcp/direct.ts: nothing but the tool's name
 *    and arguments, headers the transport takes) is answered from memory, or by the tool
 *    directly with the bytes the SDK's server and transport would write, without them.
 * 8. Anything else: a fresh server and transport (no session) answer, as JSON; DELETE is
 *    answered by the transport as a stateless server does. `Authorization` is never read:
 *    this lane takes no credential and sends no one through OAuth (the owner's is `/owner/mcp`).
 *
 * Steps 1, 5 and 8 are the Streamable HTTP edge it shares with the owner lane
 * (src/mcp/streamable-http.ts); the origins it admits, the quotas and the public tool set
 * are its own. The handler is built once per generation, over that generation's
 * `McpContext`, with the generation's remembered answers.
 *
 * A plain call's answer is remembered (per generation, bounded, admitted from its second
 * request as REST's are): the public tools read only the immutable image, so the answer
 * to the same tool, arguments and transport headers is the same bytes but for the
 * request's id, which a replay writes in. Both quotas are charged before a replay too.
 * Its fields are the transport's JSON answer's with this endpoint's, secured once.
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
import { answerBody, plainCall, transportAccepts, type PlainCall } from '../src/mcp/direct.ts';
import { answerStatelessly, NO_STORE, readMessages, rpcError, siteRefusal, toolsCalled, type Message } from '../src/mcp/streamable-http.ts';
import { secured } from '../src/http/security.ts';
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
  /** false: plain calls too go through the SDK's server and transport, unremembered (what the property tests compare the direct answers with). */
  direct?: boolean;
}

/**
 * A plain call's answer body and where its id starts (`…,"id":` is the head before it): a
 * call asked again with the same id is answered with the same bytes, without a copy; another
 * id is written in after the head.
 */
interface Answered {
  body: Buffer;
  head: number;
  /** The id the body ends with, as JSON. */
  id: string;
}

/** What a remembered answer holds: its body, and the objects around it. */
const rememberedBytes = (answer: Answered) => answer.body.byteLength + 2 * answer.id.length + 128;

/** What a replay is keyed by: the headers the transport reads, the tool and its arguments (the id is written in). */
const replayKey = (call: PlainCall, facts: RequestFacts) =>
  JSON.stringify([facts.header('Accept'), facts.header('Content-Type'), facts.header('MCP-Protocol-Version'), call.tool.name, call.args ?? null]);

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
  const cacheBytes = options.cacheBytes ?? LIMITS.mcpAnswerCacheBytes;
  const answers = new AnswerCache<Answered>(cacheBytes, LIMITS.answerCacheAdmissionSlots, rememberedBytes);
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

  // The fields every answer to a plain call shares, secured once (src/http/security.ts) and
  // named as fixed: the node:http writer serializes them once, not per answer (src/runtime/node.ts).
  const fixed = Object.freeze(secured({ 'Content-Type': 'application/json', ...requests.policyHeaders, ...NO_STORE }, URLS.mcp, context.siteUrl));
  /** A plain call's answer: its body with the request's id, and the fields of the transport's JSON answer. */
  const answered = (answer: Answered, call: PlainCall, cors: Record<string, string>, count: string): Answer => ({
    status: 200,
    headers: { ...fixed, ...cors, RateLimit: count },
    fixedHeaders: fixed,
    body: answer.id === call.id ? answer.body : Buffer.concat([answer.body.subarray(0, answer.head), Buffer.from(`${call.id}}`)]),
  });

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
    // A plain call of a public tool: remembered, or answered as the SDK would answer it, without it (src/mcp/direct.ts).
    const call = options.direct === false ? undefined : plainCall(parsed);
    if (call) {
      const key = cacheBytes > 0 ? replayKey(call, facts) : undefined;
      const hit = key === undefined ? undefined : answers.get(key);
      if (hit) return answered(hit, call, cors, quota.header);
      if (transportAccepts(facts)) {
        const body = answerBody(call, context, options.log);
        const answer = { body, head: body.byteLength - Buffer.byteLength(call.id) - 1, id: call.id };
        if (key !== undefined) answers.set(key, answer);
        return answered(answer, call, cors, quota.header);
      }
    }
    const server = createServer(context, { ui: sharesUi(messages), log: options.log });
    return answerStatelessly(server, exchange.request(), parsed, { ...limits, ...NO_STORE });
  };
}
