/**
 * WebSocket RPC sessions: `ws` answers the handshake the dispatcher passed on, and a
 * capnweb `RpcSession` runs over a small transport that enforces the session's bounds
 * before capnweb parses a message:
 *
 * - size: `maxPayload` (65,536 bytes, as a batch); `ws` closes a larger frame with 1009;
 * - operations: at most 32 calls and property reads per message, counted as for a
 *   batch; more closes the session with 1009;
 * - calls in flight: at most 32 pulled calls awaiting their answer; the 33rd closes the
 *   session with 1008 (policy violation);
 * - idle time: no message for `idleMs` closes it with 1001 (going away);
 * - a process stopping (`closeSessionsGoingAway`, src/runtime/drain.ts): each session
 *   closes with 1001 once no call it pulled awaits an answer, so a client sees a clean
 *   end rather than a reset and loses no answer it asked for.
 *
 * When the socket closes, for any reason, the transport's `receive()` rejects, which
 * capnweb turns into the end of the session: every capability derived in it is dead and
 * calls on it reject on the client; a new session rebuilds them.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { RpcSession, type RpcTransport } from 'capnweb';
import { WebSocketServer, type WebSocket } from 'ws';
import { LIMITS } from '../core/limits.ts';
import { RpcError, sendable } from './errors.ts';
import { countOperations } from './operations.ts';
import type { Root } from './root.ts';

export interface WebSocketOptions {
  /** Largest message, in bytes. */
  maxPayload: number;
  /** Operations per message. */
  operationsMax: number;
  /** Pulled calls awaiting an answer. */
  inFlightMax: number;
  /** A session with no message for this long is closed. */
  idleMs: number;
}

export const WEBSOCKET_DEFAULTS: WebSocketOptions = {
  maxPayload: LIMITS.rpcBatchBytesMax,
  operationsMax: LIMITS.rpcBatchOperationsMax,
  inFlightMax: LIMITS.rpcInFlightMax,
  idleMs: LIMITS.rpcIdleSeconds * 1000,
};

/** Close codes (RFC 6455 §7.4.1). */
const GOING_AWAY = 1001;
const POLICY_VIOLATION = 1008;
const TOO_BIG = 1009;

/** The export id a server answer settles, read off its start (the server writes these, so their form is known). */
const ANSWER = /^\["(?:resolve|reject)",(-?\d+)[,\]]/;

/** A capnweb transport over a `ws` socket, bounding what the client may send. */
class BoundedTransport implements RpcTransport {
  readonly #ws: WebSocket;
  readonly #options: WebSocketOptions;
  readonly #queue: string[] = [];
  readonly #pulled = new Set<number>();
  #waiting: { resolve: (message: string) => void; reject: (error: Error) => void } | undefined;
  #error: Error | undefined;
  #idle: NodeJS.Timeout | undefined;
  #leaving = false;

  constructor(ws: WebSocket, options: WebSocketOptions) {
    this.#ws = ws;
    this.#options = options;
    this.#touch();
    sessions.add(this);
    ws.once('close', () => sessions.delete(this));
    ws.on('message', (data, isBinary) => this.#received(isBinary ? undefined : String(data)));
    ws.on('close', () => this.#fail(new RpcError('UNAVAILABLE', 'The WebSocket session ended; open a new session and rebuild its capabilities.')));
    ws.on('error', () => this.#fail(new RpcError('UNAVAILABLE', 'The WebSocket failed; open a new session and rebuild its capabilities.')));
  }

  #touch(): void {
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => this.#close(GOING_AWAY, 'idle session closed'), this.#options.idleMs);
    this.#idle.unref();
  }

  #close(code: number, reason: string): void {
    clearTimeout(this.#idle);
    this.#ws.close(code, reason);
    this.#fail(new RpcError(code === GOING_AWAY ? 'UNAVAILABLE' : 'RESOURCE_LIMIT', `The session was closed: ${reason}.`));
  }

  /** Closes with 1001 now if no pulled call awaits its answer, else after the last one is sent. */
  leave(): void {
    this.#leaving = true;
    if (this.#pulled.size === 0 && this.#error === undefined) this.#close(GOING_AWAY, 'server restarting; open a new session');
  }

  leaveNow(): void {
    if (this.#error === undefined) this.#close(GOING_AWAY, 'server restarting; open a new session');
  }

  #fail(error: Error): void {
    clearTimeout(this.#idle);
    if (this.#error) return;
    this.#error = error;
    this.#waiting?.reject(error);
    this.#waiting = undefined;
  }

  #received(message: string | undefined): void {
    if (this.#error) return;
    this.#touch();
    if (message === undefined) return this.#close(POLICY_VIOLATION, 'capnweb messages are text');
    const counted = countOperations([message], this.#options.operationsMax);
    if (!counted.ok)
      return this.#close(
        counted.reason === 'malformed' ? POLICY_VIOLATION : TOO_BIG,
        counted.reason === 'malformed' ? 'not a capnweb message' : `more than ${this.#options.operationsMax} operations in one message`,
      );
    const parsed = JSON.parse(message) as unknown[];
    if (parsed[0] === 'pull' && typeof parsed[1] === 'number') {
      this.#pulled.add(parsed[1]);
      if (this.#pulled.size > this.#options.inFlightMax) return this.#close(POLICY_VIOLATION, `more than ${this.#options.inFlightMax} calls in flight`);
    }
    if (this.#waiting) {
      this.#waiting.resolve(message);
      this.#waiting = undefined;
    } else {
      this.#queue.push(message);
    }
  }

  send(message: string): void {
    const answer = ANSWER.exec(message);
    if (answer) this.#pulled.delete(Number(answer[1]));
    if (this.#error === undefined) this.#ws.send(message);
    if (this.#leaving && answer) this.leave();
  }

  receive(): Promise<string> {
    const next = this.#queue.shift();
    if (next !== undefined) return Promise.resolve(next);
    if (this.#error) return Promise.reject(this.#error);
    return new Promise((resolve, reject) => (this.#waiting = { resolve, reject }));
  }

  abort(reason: unknown): void {
    void reason;
    this.#close(POLICY_VIOLATION, 'session aborted');
  }
}

/** Open sessions of this process, so a stopping process can close them (1001). */
const sessions = new Set<BoundedTransport>();
let leaving = false;

/**
 * Closes every session with 1001 (going away) once its pulled calls are answered, and
 * every session opened from now on as soon as it opens: for a process that is stopping.
 * `force` closes them all now, calls in flight or not (the drain's time is up).
 */
export function closeSessionsGoingAway(force = false): void {
  leaving = true;
  for (const session of sessions) {
    if (force) session.leaveNow();
    else session.leave();
  }
}

let server: WebSocketServer | undefined;
let serverPayload = 0;

/** Answers a WebSocket handshake and runs an RPC session on it, with a root made for it. */
export function acceptWebSocket(req: IncomingMessage, socket: Duplex, head: Buffer, root: () => Root, overrides: Partial<WebSocketOptions> = {}): void {
  const options = { ...WEBSOCKET_DEFAULTS, ...overrides };
  // One server per payload bound; it only performs handshakes (noServer).
  if (!server || serverPayload !== options.maxPayload) {
    server = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload });
    serverPayload = options.maxPayload;
  }
  server.handleUpgrade(req, socket, head, (ws) => {
    const transport = new BoundedTransport(ws, options);
    new RpcSession(transport, root(), { onSendError: sendable, limits: { maxMessageSize: options.maxPayload } });
    if (leaving) transport.leave();
  });
}
