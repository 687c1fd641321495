/**
 * What a route is: the methods it takes, its path, whether it answers a path in a given
 * generation, whether the collections quota meters it, and one handler of one of three
 * kinds — `answer` (request facts and a bounded body in, an Answer out: the fast path),
 * `fetch` (a Web request on demand, a streamed Response or an Answer out) and `upgrade`
 * (a WebSocket handshake). The table of them is src/runtime/routes.ts; the dispatcher
 * (src/runtime/dispatch.ts) is handed it.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Answer, RequestFacts } from '../http/answer.ts';
import type { Exchange } from '../http/exchange.ts';
import type { ServingRuntime } from './serving.ts';

/** A handler that turns request facts (and a body, where the route takes one) into an answer. */
export interface AnswerRoute {
  kind: 'answer';
  /** Largest body read, in bytes; the handler sees one byte more when the body was larger. Absent: no body is read. */
  bodyMax?: number;
  /**
   * A smaller bound for this request, from its headers alone (at most `bodyMax`): what a
   * request without credentials may cost before it is refused. A body declared larger
   * (`Content-Length`) is not read at all, and one sent in chunks is read only up to it;
   * either way the handler sees one byte more than this bound, and the connection closes
   * after the answer, since the rest of the body was never read.
   */
  bodyMaxFor?(request: RequestFacts): number;
  answer(runtime: ServingRuntime, request: RequestFacts, body: Uint8Array | null): Answer | Promise<Answer>;
  /**
   * A remembered answer to a GET or HEAD, found by the request's words alone (its target
   * as written and its headers), asked before the dispatcher parses or routes the target;
   * undefined, having changed nothing, when the route remembers none. A route remembers
   * only targets it was routed, and a generation routes a target one way, so a replay
   * answers what routing would have sent here. A success leaves as it is: the route
   * remembered it with its security headers.
   */
  replay?(runtime: ServingRuntime, request: RequestFacts): Answer | Promise<Answer> | undefined;
}

/**
 * A handler for libraries that speak `Request`/`Response` (MCP's Streamable HTTP
 * transport): a Response's body is streamed to the client as it is produced. A handler
 * that can answer without building Web objects (a remembered answer, a batch answered as
 * one string) returns an Answer instead.
 */
export interface FetchRoute {
  kind: 'fetch';
  /** Largest body read, in bytes; the handler sees one byte more when the body was larger. Absent: no body is read. */
  bodyMax?: number;
  fetch(runtime: ServingRuntime, exchange: Exchange): Response | Answer | Promise<Response | Answer>;
}

/**
 * Takes over a connection a GET with `Upgrade: websocket` asks to switch (RPC sessions),
 * after the dispatcher has checked its target, Host and quota. It answers the handshake
 * itself, or refuses it on the socket.
 */
export type UpgradeHandler = (runtime: ServingRuntime, req: IncomingMessage, socket: Duplex, head: Buffer) => void;

export type Route = (AnswerRoute | FetchRoute) & {
  /** Present where the path also accepts WebSocket upgrades. */
  upgrade?: UpgradeHandler;
  /** A short name, for logs, tests and the fuzz campaign. */
  name: string;
  /** The path as a pattern people read: `/api/{collection}.json`. */
  path: string;
  /** The methods it takes; GET implies HEAD, which the dispatcher answers as a GET without a body. */
  methods: readonly string[];
  /** Whether the route answers this path in this runtime (a static file exists, a collection is known…). */
  matches(pathname: string, runtime: ServingRuntime): boolean;
  /**
   * Whether the dispatcher spends the collections quota on it (preflights aside). REST,
   * SQL and GraphQL meter themselves, with their own policies; static files are free.
   */
  metered?: boolean;
};

/** The first route answering a path, if any. */
export function routeFor(pathname: string, runtime: ServingRuntime, routes: readonly Route[]): Route | undefined {
  return routes.find((route) => route.matches(pathname, runtime));
}

/** The methods a route takes as `Allow` lists them: HEAD beside GET. */
export function allowedMethods(route: Route): string[] {
  return route.methods.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method]));
}
