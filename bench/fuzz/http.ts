/**
 * A raw HTTP/1.1 client over `net.Socket`, so that what the fuzzer generates reaches the
 * server byte for byte: malformed request lines, invalid Host values, duplicate and
 * oversized headers, obs-fold, mismatched framing. Requests are "byte strings" (each
 * character one byte, code < 256; `latin1` on the wire), never re-encoded or validated here.
 *
 * One request at a time per connection (no pipelining), connections kept alive between
 * requests. The response parser follows RFC 9112 §6.3: no body for HEAD, 1xx, 204 and 304;
 * chunked when Transfer-Encoding says so; else Content-Length; else until the server
 * closes. An exchange ends in one of four outcomes: a response, a reset (the connection
 * closed or failed before a complete response), a hang (no complete response within the
 * timeout) or a malformed answer (bytes that are not an HTTP/1.1 response).
 */
import { connect, type Socket } from 'node:net';

export interface RawRequest {
  /** Byte strings, sent as they are. */
  method: string;
  target: string;
  version: string;
  /** In order; names and values as sent, duplicates kept. */
  headers: readonly (readonly [string, string])[];
  /** The bytes after the head, already framed (the generator chose Content-Length or chunked). */
  body?: Buffer;
  /** Framing deliberately broken (the server may wait for bytes that never come, or close): a close without a response is not a reset. */
  brokenFraming?: boolean;
  /** Half-close after sending, so the server sees end-of-stream instead of waiting for more bytes. */
  halfClose?: boolean;
}

export interface RawResponse {
  version: string;
  status: number;
  reason: string;
  /** Lower-cased names, in order. */
  headers: [string, string][];
  body: Buffer;
  /** The server signalled (or did) close the connection after this response. */
  closes: boolean;
}

export type Outcome =
  | { kind: 'response'; response: RawResponse; ms: number }
  | { kind: 'reset'; detail: string; receivedBytes: number; ms: number }
  | { kind: 'hang'; receivedBytes: number; ms: number }
  | { kind: 'malformed'; detail: string; head: string; ms: number };

export function serialize(request: RawRequest): Buffer {
  let head = `${request.method} ${request.target} ${request.version}\r\n`;
  for (const [name, value] of request.headers) head += `${name}: ${value}\r\n`;
  head += '\r\n';
  const bytes = Buffer.from(head, 'latin1');
  return request.body && request.body.length > 0 ? Buffer.concat([bytes, request.body]) : bytes;
}

export function header(response: RawResponse, name: string): string | undefined {
  return response.headers.find(([n]) => n === name)?.[1];
}

/**
 * Calls `expire` once `ms` have passed and whatever had arrived by then has been read: the
 * timer's callback waits for the next check phase (setImmediate), which comes after the
 * event loop has polled for I/O. After the fuzzer's own event loop was held (a large case
 * to generate or check), Node runs expired timers before it reads the sockets; without
 * this, an answer already waiting in the socket would be taken for a hang.
 * `clearTimeout` on the result cancels it before it fires; `expire` must tolerate being
 * called after its exchange settled.
 */
export function deadline(ms: number, expire: () => void): NodeJS.Timeout {
  return setTimeout(() => setImmediate(expire), ms);
}

/** Past this many bytes without the end of a head, the answer is not HTTP. */
const HEAD_BYTES_MAX = 256 * 1024;
const STATUS_LINE = /^HTTP\/(\d\.\d) (\d{3})(?: (.*))?$/;
const HEADER_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*(.*?)[ \t]*$/;

type Parsed = { done: false } | { done: true; response: RawResponse; rest: Buffer } | { error: string; head: string };

/** Tries to read one complete response from `buffer`; skips interim 1xx answers. */
export function parseResponse(buffer: Buffer, method: string, ended: boolean): Parsed {
  let offset = 0;
  for (;;) {
    const end = buffer.indexOf('\r\n\r\n', offset, 'latin1');
    if (end < 0) {
      if (buffer.length - offset > HEAD_BYTES_MAX) return { error: 'no end of head', head: buffer.subarray(offset, offset + 200).toString('latin1') };
      if (ended && buffer.length > offset)
        return { error: 'connection closed inside the head', head: buffer.subarray(offset, offset + 200).toString('latin1') };
      return { done: false };
    }
    const head = buffer.subarray(offset, end).toString('latin1');
    const [statusLine = '', ...lines] = head.split('\r\n');
    const status = STATUS_LINE.exec(statusLine);
    if (!status) return { error: 'bad status line', head: head.slice(0, 200) };
    const headers: [string, string][] = [];
    for (const line of lines) {
      const match = HEADER_LINE.exec(line);
      if (!match) return { error: `bad header line ${JSON.stringify(line.slice(0, 80))}`, head: head.slice(0, 200) };
      headers.push([match[1]!.toLowerCase(), match[2]!]);
    }
    const code = Number(status[2]);
    const bodyStart = end + 4;
    if (code >= 100 && code < 200 && code !== 101) {
      offset = bodyStart;
      continue;
    }
    const version = status[1]!;
    const get = (name: string) => headers.filter(([n]) => n === name).map(([, v]) => v);
    const connection = get('connection').join(',').toLowerCase();
    let closes = connection.includes('close') || (version === '1.0' && !connection.includes('keep-alive')) || code === 101;
    const make = (body: Buffer, rest: Buffer): Parsed => ({
      done: true,
      response: { version, status: code, reason: status[3] ?? '', headers, body, closes },
      rest,
    });
    if (method === 'HEAD' || code === 204 || code === 304 || code === 101) return make(Buffer.alloc(0), buffer.subarray(bodyStart));
    const transferEncoding = get('transfer-encoding').join(',').toLowerCase();
    if (transferEncoding !== '') {
      if (!/(^|,)\s*chunked\s*$/.test(transferEncoding)) {
        closes = true;
        if (!ended) return { done: false };
        return make(buffer.subarray(bodyStart), Buffer.alloc(0));
      }
      const chunked = readChunked(buffer, bodyStart);
      if ('error' in chunked) return { error: chunked.error, head: head.slice(0, 200) };
      if (!chunked.done) return ended ? { error: 'connection closed inside a chunked body', head: head.slice(0, 200) } : { done: false };
      return make(chunked.body, buffer.subarray(chunked.end));
    }
    const lengths = get('content-length');
    if (lengths.length > 0) {
      const distinct = new Set(lengths.flatMap((v) => v.split(',').map((s) => s.trim())));
      const [only] = distinct;
      if (distinct.size !== 1 || !/^\d+$/.test(only!)) return { error: `bad Content-Length ${JSON.stringify(lengths)}`, head: head.slice(0, 200) };
      const length = Number(only);
      if (buffer.length - bodyStart < length) return ended ? { error: 'connection closed inside the body', head: head.slice(0, 200) } : { done: false };
      return make(buffer.subarray(bodyStart, bodyStart + length), buffer.subarray(bodyStart + length));
    }
    closes = true;
    if (!ended) return { done: false };
    return make(buffer.subarray(bodyStart), Buffer.alloc(0));
  }
}

function readChunked(buffer: Buffer, start: number): { done: false } | { done: true; body: Buffer; end: number } | { error: string } {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at, 'latin1');
    if (lineEnd < 0) return { done: false };
    const sizeText = buffer.subarray(at, lineEnd).toString('latin1').split(';')[0]!.trim();
    if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText)) return { error: `bad chunk size ${JSON.stringify(sizeText.slice(0, 20))}` };
    const size = parseInt(sizeText, 16);
    at = lineEnd + 2;
    if (size === 0) {
      // Trailer fields, then an empty line.
      for (;;) {
        const trailerEnd = buffer.indexOf('\r\n', at, 'latin1');
        if (trailerEnd < 0) return { done: false };
        const empty = trailerEnd === at;
        at = trailerEnd + 2;
        if (empty) return { done: true, body: Buffer.concat(parts), end: at };
      }
    }
    if (buffer.length < at + size + 2) return { done: false };
    parts.push(buffer.subarray(at, at + size));
    if (buffer[at + size] !== 13 || buffer[at + size + 1] !== 10) return { error: 'chunk not followed by CRLF' };
    at += size + 2;
  }
}

/**
 * One keep-alive connection. `exchange` sends one request and resolves with its outcome;
 * after anything but a response that leaves the connection open, the connection is spent
 * and a new one must be opened.
 */
export class Connection {
  private socket: Socket;
  private buffer: Buffer = Buffer.alloc(0);
  private ended = false;
  private failure: string | undefined;
  /** Bytes read on this connection so far. */
  private received = 0;
  private onChange: (() => void) | undefined;
  /** When the connection last finished an exchange (the server closes idle ones after its keep-alive timeout). */
  idleSince = Date.now();
  spent = false;
  /** Requests sent on this connection so far, and the one before the current exchange. */
  sent = 0;
  previous: { request: RawRequest; status: number | string } | undefined;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.received += chunk.length;
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.onChange?.();
    });
    socket.on('end', () => {
      this.ended = true;
      this.onChange?.();
    });
    socket.on('close', () => {
      this.ended = true;
      this.spent = true;
      this.onChange?.();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      this.failure ??= error.code ?? error.message;
      this.onChange?.();
    });
  }

  static open(host: string, port: number, timeoutMs: number): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port, noDelay: true });
      let connected = false;
      const timer = deadline(timeoutMs, () => {
        if (connected) return;
        socket.destroy();
        reject(new Error('connect timeout'));
      });
      socket.once('connect', () => {
        connected = true;
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new Connection(socket));
      });
      socket.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(Object.assign(new Error(error.code ?? error.message), { code: error.code }));
      });
    });
  }

  /** Whether this connection can carry another request (open, and not idle long enough for the server to be closing it). */
  usable(idleMaxMs: number): boolean {
    return !this.spent && !this.ended && this.failure === undefined && this.buffer.length === 0 && Date.now() - this.idleSince < idleMaxMs;
  }

  destroy(): void {
    this.spent = true;
    this.socket.destroy();
  }

  exchange(request: RawRequest, timeoutMs: number): Promise<Outcome> {
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: Outcome, keep: boolean) => {
        if (settled) return;
        settled = true;
        this.previous = { request, status: outcome.kind === 'response' ? outcome.response.status : outcome.kind };
        clearTimeout(timer);
        this.onChange = undefined;
        this.idleSince = Date.now();
        if (!keep) this.destroy();
        resolve(outcome);
      };
      const check = () => {
        // A reset after the head of a close-delimited answer ends it as a close would (Node's own 400s end that way).
        const parsed = parseResponse(this.buffer, request.method, this.ended || this.failure !== undefined);
        if ('error' in parsed) return finish({ kind: 'malformed', detail: parsed.error, head: parsed.head, ms: ms() }, false);
        if (parsed.done) {
          // Bytes after the response that nobody asked for: the connection is out of step; drop it.
          // After a request with broken framing the server may still be reading (or answering) its leftovers: never reuse the connection.
          const keep =
            !parsed.response.closes && parsed.rest.length === 0 && !this.ended && this.failure === undefined && !request.halfClose && !request.brokenFraming;
          this.buffer = Buffer.alloc(0);
          return finish({ kind: 'response', response: parsed.response, ms: ms() }, keep);
        }
        if (this.ended || this.failure !== undefined) {
          finish(
            {
              kind: 'reset',
              detail: this.failure ?? (this.buffer.length > 0 ? 'closed inside the response' : 'closed without a response'),
              receivedBytes: this.buffer.length,
              ms: ms(),
            },
            false,
          );
        }
      };
      // Bytes still arriving when the deadline passes (read in the same turn as it) are read on before the verdict.
      let seen = -1;
      const expire = () => {
        if (settled) return;
        if (this.received !== seen) {
          seen = this.received;
          setImmediate(expire);
          return;
        }
        finish({ kind: 'hang', receivedBytes: this.buffer.length, ms: ms() }, false);
      };
      const timer = deadline(timeoutMs, expire);
      this.onChange = check;
      this.sent++;
      this.buffer = Buffer.alloc(0);
      this.socket.write(serialize(request), (error) => {
        if (error) this.failure ??= (error as NodeJS.ErrnoException).code ?? error.message;
      });
      if (request.halfClose) this.socket.end();
      check();
    });
  }
}
