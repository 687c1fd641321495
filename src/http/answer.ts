/**
 * The plain shape every handler produces — status, headers, body bytes — and the
 * request facts they read. Handlers work on these so the same logic serves two
 * adapters: Web `Request`/`Response` (tests, any Web-standard host) and node:http
 * directly (the runtime's hot path, which skips building Web objects per request).
 */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** Null for HEAD, 204 and 304. */
  body: Uint8Array | null;
  /** An HTML page's Markdown twin, sent in its place to a client that prefers Markdown (src/http/twin.ts). */
  markdown?: Uint8Array;
  /**
   * Fields of `headers` that every answer replayed from one remembered answer shares, by
   * the same names and values (the same object each time): the node:http writer checks and
   * serializes them once, not per answer (src/runtime/node.ts). `headers` stays whole, so a
   * consumer that ignores this loses nothing.
   */
  fixedHeaders?: Readonly<Record<string, string>>;
}

/** What a handler may read of a request. */
export interface RequestFacts {
  method: string;
  url: URL;
  header(name: string): string | null;
  /** The socket's peer address, where the adapter knows it (quotas key on it). */
  peer?: string;
  /**
   * The request target as the client wrote it, where the adapter has it (node:http): what
   * remembered answers are replayed by before the target is parsed (functions/rest.ts).
   */
  target?: string;
}

export function factsOf(request: Request): RequestFacts {
  return { method: request.method, url: new URL(request.url), header: (name) => request.headers.get(name) };
}

export function toResponse(answer: Answer): Response {
  return new Response(answer.body === null ? null : new Uint8Array(answer.body), { status: answer.status, headers: answer.headers });
}

/** A Web-standard handler from an answer function (a Promise only when the answer is one: a quota kept in a shared store). */
export function webHandler(answer: (facts: RequestFacts) => Answer | Promise<Answer>): (request: Request) => Response | Promise<Response> {
  return (request) => {
    // HEAD answers carry the GET's status and headers, never a body (node:http drops it itself).
    const respond = (result: Answer) => toResponse(request.method === 'HEAD' ? { ...result, body: null } : result);
    const result = answer(factsOf(request));
    return result instanceof Promise ? result.then(respond) : respond(result);
  };
}

/**
 * A Web request's body, reading at most `max + 1` bytes: enough for a handler to know it
 * is too large without buffering all of it (node:http has its own reader in the runtime).
 */
export async function readBoundedBody(request: Request, max: number): Promise<Uint8Array | null> {
  if (request.body === null) return null;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size <= max) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  if (size > max) await reader.cancel();
  return Buffer.concat(chunks);
}
