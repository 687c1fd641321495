/**
 * The thin adapter between node:http and the dispatcher: the server with its named
 * timeouts and connection cap, a bounded body reader, an Answer written back with its
 * status, headers and bytes (the fields a remembered answer keeps serialized once, not
 * per answer), and Node's own parser errors (`clientError`: malformed requests,
 * oversized headers, timeouts) answered as RFC 9457 problems rather than Node's bare
 * text. No Web Request/Response is built on this path; they cost more than
 * the query.
 */
import { createServer, STATUS_CODES, validateHeaderName, validateHeaderValue, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ProblemSlug } from '../core/problems.ts';
import { LIMITS } from '../core/limits.ts';
import type { Answer } from '../http/answer.ts';
import { problemAnswer } from '../http/problem.ts';

/** Writes `answer` on `res`, without its body for HEAD. */
export function write(res: ServerResponse, answer: Answer, head = false): void {
  const rest = answer.fixedHeaders && unfixed(res, answer.headers, answer.fixedHeaders);
  if (rest === undefined) res.writeHead(answer.status, answer.headers);
  else {
    // Node checks and serializes every field on every writeHead: for REST's twenty fields
    // that costs more than the rest of a remembered answer's work. The fixed fields were
    // checked once, by Node's own validators, and go into the head Node has just built,
    // after its status line (`HTTP/1.1 200 OK\r\n`: 15 bytes and the reason phrase).
    res.writeHead(answer.status, rest.fields);
    const outgoing = res as ServerResponse & { _header: string };
    const line = 15 + res.statusMessage.length;
    outgoing._header = outgoing._header.slice(0, line) + rest.fixed + outgoing._header.slice(line);
  }
  res.end(head ? undefined : (answer.body ?? undefined));
}

/**
 * The fields of `headers` that are not among `fixed` (by name and value), with the fixed
 * ones' block; none when a fixed field is missing from `headers` or changed, or when this
 * Node keeps no `_header`: the head Node builds and sends before the body, a field of
 * node:_http_outgoing since Node 0.x, null until the head is built.
 */
function unfixed(
  res: ServerResponse,
  headers: Record<string, string>,
  fixed: Readonly<Record<string, string>>,
): { fields: Record<string, string>; fixed: string } | undefined {
  const block = fixedBlock(fixed);
  if (block === undefined || (res as ServerResponse & { _header?: unknown })._header !== null) return undefined;
  const fields: Record<string, string> = {};
  let shared = 0;
  for (const name in headers) {
    if (block.fields[name] === headers[name]) shared++;
    else fields[name] = headers[name]!;
  }
  return shared === block.count ? { fields, fixed: block.wire } : undefined;
}

/** Fields Node reads as it frames the message or keeps the connection: always handed to Node. */
const FRAMING = new Set(['connection', 'content-length', 'date', 'expect', 'keep-alive', 'trailer', 'transfer-encoding', 'upgrade']);

/** A set of fixed fields, checked and serialized: the wire form, and the fields it holds. */
interface FixedBlock {
  wire: string;
  fields: Readonly<Record<string, string>>;
  count: number;
}

const fixedBlocks = new WeakMap<Readonly<Record<string, string>>, FixedBlock>();

/** The fixed fields' block, made once per set; none if a field is invalid (Node then refuses it as it would any other). */
function fixedBlock(fixed: Readonly<Record<string, string>>): FixedBlock | undefined {
  let block = fixedBlocks.get(fixed);
  if (block === undefined) {
    const fields: Record<string, string> = Object.create(null) as Record<string, string>;
    const lines: string[] = [];
    for (const [name, value] of Object.entries(fixed)) {
      if (FRAMING.has(name.toLowerCase())) continue;
      try {
        validateHeaderName(name);
        validateHeaderValue(name, value);
      } catch {
        return undefined;
      }
      fields[name] = value;
      lines.push(`${name}: ${value}\r\n`);
    }
    // Joined, the block is one flat string: concatenated, it would be a rope walked on every write.
    block = { wire: lines.join(''), fields, count: lines.length };
    fixedBlocks.set(fixed, block);
  }
  return block;
}

/**
 * The request body, read up to `max` bytes. Once `max` bytes have arrived the read ends,
 * the rest left on the socket, and `past` is called (the caller closes the connection
 * after its answer: the request's framing was not consumed); the handler sees `max`
 * bytes, enough to know the body was too large.
 */
export function readBody(req: IncomingMessage, max: number, past: () => void): Promise<Uint8Array | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // One chunk (a small body arrives in one) is handed over as it is: the parser gave it a buffer of its own.
    const done = () => resolve(size === 0 ? null : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    const onData = (chunk: Buffer) => {
      chunks.push(chunk.subarray(0, max - size));
      size += Math.min(chunk.length, max - size);
      if (size >= max) {
        req.off('data', onData);
        req.pause();
        past();
        done();
      }
    };
    req.on('data', onData);
    req.on('end', done);
    req.on('error', () => resolve(null));
  });
}

/**
 * Closes the connection after this request's answer without losing the answer: a lingering
 * close, as nginx's `lingering_close` does. A request refused before its body was read may
 * still be sending, and a socket closed with unread bytes makes the kernel send a reset,
 * which takes with it an answer the client had not read yet (a chunked Micropub body
 * refused at its bound came back with no answer in 1 of 12 runs). So the answer goes out
 * with `Connection: close`, the server's side is shut after it (Node's `destroySoon`
 * would destroy the socket instead), and what still comes is read and dropped for at most
 * `lingerMs`, or until the client closes its side.
 */
export function closeAfter(req: IncomingMessage, res: ServerResponse): void {
  res.shouldKeepAlive = false;
  const socket = req.socket as Socket & { destroySoon(): void };
  socket.destroySoon = () => {
    socket.end();
    req.resume();
    const timer = setTimeout(() => socket.destroy(), LIMITS.lingerMs);
    socket.once('close', () => clearTimeout(timer));
  };
}

/** What a parser error from Node means for the client, by its code. */
function clientProblem(code: string | undefined): { slug: ProblemSlug; detail: string } {
  // Node's parser raises the same error for a section over `maxHeaderSize` bytes and for one
  // with more fields than `maxHeadersCount` (checked on Node 24), so the detail names both bounds.
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      slug: 'headers-too-large',
      detail: `The header section is larger than ${LIMITS.headerBytesMax} bytes or has more than ${LIMITS.headersCountMax} fields.`,
    };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { slug: 'request-timeout', detail: `The request did not arrive within ${LIMITS.requestTimeoutMs / 1000} seconds.` };
  return { slug: 'bad-request', detail: 'The request is not valid HTTP/1.1.' };
}

/** Answers a request Node could not parse, then closes the connection (its framing can no longer be trusted). */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const { slug, detail } = clientProblem(error.code);
  endWithProblem(socket, slug, detail);
}

/** Writes a problem straight onto a socket Node has handed over, and closes it. */
function endWithProblem(socket: Duplex, slug: ProblemSlug, detail: string, extra: Record<string, string> = {}): void {
  endWithAnswer(socket, problemAnswer(slug, detail, { headers: extra }));
}

/** Writes an answer onto a socket Node has handed over (a refused upgrade, a request it could not parse), and closes it. */
export function endWithAnswer(socket: Duplex, answer: Answer): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = answer.body ?? new Uint8Array();
  const headers = { ...answer.headers, 'Content-Length': String(body.byteLength), 'X-Content-Type-Options': 'nosniff', Connection: 'close' };
  const head = [`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), body]));
}

/** What node:http needs from the dispatcher: requests, and which requests are upgrades and their sockets. */
export interface Dispatcher {
  request(req: IncomingMessage, res: ServerResponse): void;
  /** Whether Node should hand the request over as an upgrade: a WebSocket handshake to a path whose route takes upgrades. */
  upgrades(req: IncomingMessage): boolean;
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

/**
 * A node:http server for a dispatcher, with the runtime's limits on time, size and
 * connections; an idle keep-alive connection closes after `keepAliveTimeoutMs`
 * (`KEEP_ALIVE_TIMEOUT_MS`).
 */
export function createNodeServer(dispatcher: Dispatcher, { keepAliveTimeoutMs = LIMITS.keepAliveTimeoutMs }: { keepAliveTimeoutMs?: number } = {}): Server {
  // The dispatcher checks Host itself, so a missing one is answered as a problem too.
  const server = createServer(
    {
      requireHostHeader: false,
      maxHeaderSize: LIMITS.headerBytesMax,
      requestTimeout: LIMITS.requestTimeoutMs,
      keepAliveTimeout: keepAliveTimeoutMs,
      // Only a handshake to a path that takes upgrades becomes one; any other Upgrade is an ordinary request.
      shouldUpgradeCallback: dispatcher.upgrades,
    },
    dispatcher.request,
  );
  server.headersTimeout = LIMITS.headersTimeoutMs;
  server.maxHeadersCount = LIMITS.headersCountMax;
  server.maxConnections = LIMITS.connectionsMax;
  server.on('clientError', answerClientError);
  server.on('upgrade', dispatcher.upgrade);
  // Node answers an `Expect` other than 100-continue with a bare 417 itself, before the
  // request listener runs, and keeps the connection; after an Upgrade request its parser
  // then answers nothing more on it (a malformed request there got neither an answer nor
  // a close: the fuzz campaign's one hang). The same 417 as a problem, closing the
  // connection after an Upgrade request, as the dispatcher does for the requests it answers.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers.upgrade !== undefined) res.shouldKeepAlive = false;
    write(res, problemAnswer('expectation-failed', 'This server takes no expectation but `Expect: 100-continue`; send the request without `Expect`.'));
  });
  // Node hands CONNECT requests to this event, and without a listener drops the socket unanswered. No path is a tunnel.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) =>
    endWithProblem(socket, 'method-not-allowed', 'This server is not a proxy: CONNECT is not taken on any path.', { Allow: 'GET, HEAD, POST, QUERY, OPTIONS' }),
  );
  return server;
}
