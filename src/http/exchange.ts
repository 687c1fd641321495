/**
 * One request as a fetch route sees it (src/runtime/routes.ts): the facts every handler
 * reads, the body the dispatcher read within the route's bound, and the Web `Request`
 * built only when a handler asks for it (MCP's transport, capnweb's batch).
 */
import type { RequestFacts } from './answer.ts';

/** What a fetch route is handed: the request's facts and body, and its Web request on demand. */
export interface Exchange {
  facts: RequestFacts;
  /** The body as read (bounded by the route's `bodyMax`, one byte more when it was larger); null when empty or not read. */
  body: Uint8Array | null;
  /** The Web request, built when first asked for: headers, the body read, a signal aborted when the client goes away. */
  request(): Request;
}
