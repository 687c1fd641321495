/**
 * Remembered GraphQL answers, found by the words of the request before graphql-http reads
 * them: its method, `Accept`, `Content-Type`, query string and body text. Those are all
 * graphql-http and the handler read of a request once its `GraphQL-API-Version` and size
 * were accepted (the client only decides whose budget is charged), so equal words ask the
 * same operation with the same variables and media type. The image never changes under a
 * runtime and resolvers read nothing else, so the answer is then the same bytes: replaying
 * it is exact, and skips parsing the request, the document lookup, cost measurement and
 * serialization. Two spellings of one request are remembered apart. Only a clean 200 is
 * remembered, with the cost it was charged, which the same words always have; the cost is
 * charged again on every replay (functions/graphql.ts).
 *
 * An answer is kept as it leaves: body bytes, and every header but the client's
 * `RateLimit`, security headers included, as one object the node:http writer serializes
 * once (`Answer.fixedHeaders`). `RateLimit` comes last in every GraphQL answer, so the
 * replayed head is the computed one byte for byte.
 */
import type { Answer, RequestFacts } from '../http/answer.ts';
import { ANSWER_OVERHEAD_BYTES } from '../http/answer-cache.ts';
import { stringBytes } from '../core/memo.ts';

/** A remembered answer: its bytes, its headers but the client's count, and the operation's cost. */
export interface RememberedAnswer {
  body: Uint8Array;
  fixed: Readonly<Record<string, string>>;
  cost: number;
}

/**
 * The request's query string (`?…`, or empty), as the URL parser reads it; without parsing
 * the target when it holds no `?` (the dispatcher leaves a plain path unparsed), since its
 * query string is then empty.
 */
export const searchOf = (request: RequestFacts): string => (request.target === undefined || request.target.includes('?') ? request.url.search : '');

/**
 * The words a GraphQL answer is remembered by. Header values and a query string never
 * hold a NUL (Node's parser and `Headers` refuse one; `URL` escapes it), and the body
 * text comes last, so no two requests share a key.
 */
export const replayKey = (request: RequestFacts, text: string): string =>
  `${request.method}\u0000${request.header('Accept') ?? ''}\u0000${request.header('Content-Type') ?? ''}\u0000${searchOf(request)}\u0000${text}`;

/** What a remembered answer holds, as the cache charges it: body bytes, header names and values, and the answer's fixed overhead. */
export function rememberedBytes(value: RememberedAnswer): number {
  let bytes = ANSWER_OVERHEAD_BYTES + value.body.byteLength;
  for (const name in value.fixed) bytes += stringBytes(name) + stringBytes(value.fixed[name]!);
  return bytes;
}

/** A remembered answer sent again, with this request's count. */
export const replayed = (remembered: RememberedAnswer, rateLimit: string): Answer => ({
  status: 200,
  headers: { ...remembered.fixed, RateLimit: rateLimit },
  body: remembered.body,
  fixedHeaders: remembered.fixed,
});
