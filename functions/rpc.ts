/**
 * Object-capability RPC over Cap'n Web (SPEC §4.6, §8) at `/api/rpc`: HTTP batch sessions
 * (POST) and WebSocket sessions (GET with `Upgrade: websocket`) on the same path, each
 * with a fresh `Root` (src/rpc/root.ts) over the generation it started on. In order,
 * before capnweb parses anything:
 *
 * - OPTIONS is the CORS preflight; a GET without an upgrade is a 426 problem naming the
 *   two ways in.
 * - A batch body over 65,536 bytes is a 413 problem (the dispatcher reads at most one
 *   byte more); a body that is not capnweb's format (one JSON message per line) is a
 *   400; more than 32 operations in it a 413. Nothing of a refused batch runs.
 * - The session is admitted against the address's quota (100 sessions per 60 s,
 *   batches and upgrades alike); the 101st is a 429 with `Retry-After` and the RateLimit
 *   fields.
 * - The batch runs; errors leave as `{message, code}` only (src/rpc/errors.ts). A batch
 *   whose `records()` answers can only be pulled gets them pre-serialized from the stored
 *   JSON (src/rpc/preserialized.ts): the same bytes as capnweb's, without its round trip.
 *
 * A batch text answered before is answered again from its bytes once the size check
 * passed (it was well-formed and counted then), after the session is admitted.
 *
 * WebSocket sessions (src/rpc/websocket.ts) bound each message by size (`maxPayload`)
 * and operations, calls in flight, idle time, and the session's budgets.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { LIMITS } from '../src/core/limits.ts';
import { SearchCore } from '../src/core/search.ts';
import type { QueryCore } from '../src/core/query.ts';
import type { Answer, RequestFacts } from '../src/http/answer.ts';
import { AnswerCache } from '../src/http/answer-cache.ts';
import { COMMON_HEADERS } from '../src/http/headers.ts';
import { preflight } from '../src/http/cors.ts';
import { problemAnswer } from '../src/http/problem.ts';
import { RateLimiter, settle, type CounterStore } from '../src/http/rate-limit.ts';
import { secured } from '../src/http/security.ts';
import { runBatch } from '../src/rpc/batch.ts';
import { sendable } from '../src/rpc/errors.ts';
import { batchMessages, countOperations } from '../src/rpc/operations.ts';
import { preserializable, WireHold } from '../src/rpc/preserialized.ts';
import { Root } from '../src/rpc/root.ts';
import { DEFAULT_BUDGETS, DEFAULT_EXPORT_BYTES, Session, type SessionBudgets, type Transport } from '../src/rpc/session.ts';
import { acceptWebSocket, type WebSocketOptions } from '../src/rpc/websocket.ts';
import { TasteSources } from '../src/taste/sources.ts';
import type { Exchange } from '../src/http/exchange.ts';
import { URLS } from '../src/urls.ts';

const ALLOW = 'GET, POST, OPTIONS';
export const RPC_POLICY_NAME = 'rpc-sessions';
const RPC_HEADERS: Readonly<Record<string, string>> = { ...COMMON_HEADERS, 'Cache-Control': 'no-store' };
const BATCH_TYPE = 'text/plain; charset=utf-8';
/** Shared: decoding keeps no state between calls (no `stream` option), and one decoder is built once, not per batch. */
const decoder = new TextDecoder();

export interface RpcOptions {
  /** The cross-collection search of the runtime's generation (shared with REST and the site); a new one by default. */
  search?: SearchCore;
  /** The generation's taste records, music catalog, similarity index and profile (shared with REST and MCP); new ones by default. */
  taste?: TasteSources;
  /** Where session counters live; in-process by default. */
  counters?: CounterStore;
  /** Sessions per address and window (SPEC §8: 100). */
  sessions?: number;
  /** Per-session budgets (tests lower them). */
  budgets?: SessionBudgets;
  /** The largest export body per transport (tests set the batch bound to a demo export's size). */
  exportBytes?: Partial<Record<Transport, number>>;
  /** WebSocket bounds (tests shorten the idle time). */
  websocket?: Partial<WebSocketOptions>;
  /** The clock the session quota uses (tests move it). */
  now?: () => number;
  /** The budget of remembered batch answers (`ANSWER_CACHE_BYTES`; 0: none). */
  cacheBytes?: number;
  /** Whether a batch that only pulls its records gets them pre-serialized (src/rpc/preserialized.ts); true unless a test compares it with capnweb's own path. */
  preserialize?: boolean;
}

export interface RpcHandler {
  batch(exchange: Exchange, client: string): Promise<Answer>;
  /** The refusal to write on the socket, if any (a Promise only when a shared store keeps the session quota). */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, client: string): Answer | undefined | Promise<Answer | undefined>;
}

/** A session admitted (its count) or refused (the 429). */
interface Admission {
  refusal?: Answer;
  /** The `RateLimit` field of this session's count. */
  rateLimit: string;
}

/** The facts of a WebSocket handshake the quota key reads: its peer and forwarding header. */
export function upgradeFacts(req: IncomingMessage): RequestFacts {
  return {
    method: 'GET',
    url: new URL(URLS.rpc, 'http://runtime.invalid'),
    peer: req.socket.remoteAddress ?? '',
    header: (name) => {
      const value = req.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

export function createRpcHandler(core: QueryCore, options: RpcOptions = {}): RpcHandler {
  const limiter = new RateLimiter({
    store: options.counters,
    limit: options.sessions ?? LIMITS.rpcSessionsPerWindow,
    windowSeconds: LIMITS.rpcWindowSeconds,
    policy: RPC_POLICY_NAME,
    now: options.now,
  });
  const search = options.search ?? new SearchCore(core.image);
  const taste = options.taste ?? new TasteSources(core);
  const budgets = options.budgets ?? DEFAULT_BUDGETS;
  const preserialize = options.preserialize ?? true;
  const rootFor = (transport: Transport, wire?: WireHold) =>
    new Root(
      {
        core,
        search,
        siteUrl: core.image.siteUrl,
        session: new Session(transport, budgets, { ...DEFAULT_EXPORT_BYTES, ...options.exportBytes }[transport]),
        wire,
      },
      taste,
    );

  /** Admits one session for `client`, or the 429 refusing it; the answer's RateLimit fields either way. */
  const admit = (client: string): Admission | Promise<Admission> =>
    settle(limiter.take(client), (quota) => {
      if (quota.allowed) return { rateLimit: quota.header };
      const detail = `This address opened its ${options.sessions ?? LIMITS.rpcSessionsPerWindow} RPC sessions for this ${LIMITS.rpcWindowSeconds}-second window; retry after the time in Retry-After, and keep a WebSocket session open for many calls.`;
      return {
        rateLimit: quota.header,
        refusal: problemAnswer('rate-limited', detail, {
          headers: { ...RPC_HEADERS, ...limiter.policyHeaders, RateLimit: quota.header, 'Retry-After': String(LIMITS.rpcWindowSeconds) },
        }),
      };
    });

  const tooLarge = (detail: string) => problemAnswer('rpc-batch-too-large', detail, { headers: RPC_HEADERS });
  // A fresh session over the immutable image answers the same messages with the same
  // messages (capnweb numbers exports and imports in order), so a batch's answer is a pure
  // function of its text: remembered as REST's answers are. The session quota is charged first.
  const answers = new AnswerCache<Buffer>(
    options.cacheBytes ?? LIMITS.rpcAnswerCacheBytes,
    LIMITS.answerCacheAdmissionSlots,
    (answer) => answer.byteLength + 96,
  );
  // Every batch answer's fields before the client's count, with the security headers the
  // dispatcher would add (first, as it adds them): checked and serialized once by the
  // node:http writer (`Answer.fixedHeaders`); the count and Content-Type follow, as ever.
  const fixed = secured({ ...RPC_HEADERS, ...limiter.policyHeaders }, URLS.rpc, core.image.siteUrl);
  const answered = (answer: Buffer, rateLimit: string): Answer => ({
    status: 200,
    headers: { ...fixed, RateLimit: rateLimit, 'Content-Type': BATCH_TYPE },
    body: answer,
    fixedHeaders: fixed,
  });

  return {
    async batch({ facts, body }, client) {
      if (facts.method === 'OPTIONS') return preflight(ALLOW, { headers: RPC_HEADERS, allowHeaders: 'Content-Type' });
      if (facts.method !== 'POST') {
        return problemAnswer(
          'rpc-upgrade-required',
          `RPC sessions are HTTP batches (POST ${URLS.rpc}) or WebSocket sessions (GET ${URLS.rpc} with Upgrade: websocket).`,
          { headers: { ...RPC_HEADERS, Upgrade: 'websocket', Connection: 'Upgrade' } },
        );
      }
      const bytes = body ?? new Uint8Array(0);
      if (bytes.byteLength > LIMITS.rpcBatchBytesMax)
        return tooLarge(`The batch is larger than ${LIMITS.rpcBatchBytesMax} bytes; nothing was run. Split it, or use a WebSocket session.`);
      const text = decoder.decode(bytes);
      // A remembered text was well-formed and within the operations bound when it ran.
      const known = answers.get(text);
      if (known) return settle(admit(client), (admitted) => admitted.refusal ?? answered(known, admitted.rateLimit));
      const messages = batchMessages(text);
      const counted = countOperations(messages, LIMITS.rpcBatchOperationsMax);
      if (!counted.ok && counted.reason === 'malformed') {
        return problemAnswer('rpc-batch-malformed', 'The batch is not one JSON message per line, as a capnweb client sends; nothing was run.', {
          headers: RPC_HEADERS,
        });
      }
      if (!counted.ok)
        return tooLarge(
          `The batch holds more than ${LIMITS.rpcBatchOperationsMax} operations (calls and property reads); nothing was run. Split it, or use a WebSocket session.`,
        );
      const admitted = await admit(client);
      if (admitted.refusal) return admitted.refusal;
      let answer: string;
      const wire = preserialize && preserializable(messages) ? new WireHold() : undefined;
      try {
        answer = await runBatch(messages, rootFor('batch', wire), { onSendError: sendable, limits: { maxMessageSize: LIMITS.rpcBatchBytesMax } });
      } catch {
        // capnweb refused a message it could not read (a forged expression): the session is over, nothing more ran.
        return problemAnswer('rpc-batch-malformed', 'The batch holds a message capnweb cannot read; the session was aborted.', { headers: RPC_HEADERS });
      }
      const bytesOut = wire === undefined ? Buffer.from(answer) : wire.encode(answer);
      answers.set(text, bytesOut);
      return answered(bytesOut, admitted.rateLimit);
    },

    upgrade(req, socket, head, client) {
      return settle(admit(client), (admitted) => {
        if (admitted.refusal) return admitted.refusal;
        acceptWebSocket(req, socket, head, () => rootFor('websocket'), { ...options.websocket });
        return undefined;
      });
    },
  };
}
