/**
 * A graceful stop for one serving process, on SIGTERM (a rolling restart, a deploy) or
 * SIGINT. In order:
 *
 * 1. the process says `draining`: `/api/status.json` answers 503 with that status, so a
 *    load balancer's health check takes it out, and every answer from now on carries
 *    `Connection: close`, so no kept-alive connection is reused for a new request;
 * 2. it stops accepting connections (the listening socket closes; a proxy's next
 *    connection is refused and goes to another replica) and closes idle ones;
 * 3. every WebSocket RPC session closes with 1001 (going away) once the calls it pulled
 *    are answered, so capnweb clients see a clean end and reconnect elsewhere;
 * 4. requests in flight finish (an owner write among them finishes its rebuild; one cut
 *    short by a hard kill is settled by the owner journal at the next start), bounded by
 *    `drainTimeoutMs`, after which what is left is closed.
 *
 * The caller then closes the generations and exits 0.
 */
import type { Server } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { LIMITS } from '../core/limits.ts';
import { closeSessionsGoingAway } from '../rpc/websocket.ts';
import type { Dispatcher } from './node.ts';

/** The process's own state, read by the status document (functions/status.ts). */
export interface Lifecycle {
  draining: boolean;
}

/** A dispatcher whose answers close their connection once the process is draining. */
export function drainingDispatcher(dispatcher: Dispatcher, lifecycle: Lifecycle): Dispatcher {
  return {
    request: (req, res) => {
      if (lifecycle.draining) res.shouldKeepAlive = false;
      dispatcher.request(req, res);
    },
    upgrades: (req) => dispatcher.upgrades(req),
    upgrade: (req, socket, head) => dispatcher.upgrade(req, socket, head),
  };
}

/**
 * Drains `server`: resolves `drained` once `idle()` does (no request or session left),
 * or `timed out` after `timeoutMs`, having then closed every session and connection.
 */
export async function drain(
  server: Server,
  idle: () => Promise<void>,
  lifecycle: Lifecycle,
  timeoutMs: number = LIMITS.drainTimeoutMs,
): Promise<'drained' | 'timed out'> {
  lifecycle.draining = true;
  server.close();
  server.closeIdleConnections();
  closeSessionsGoingAway();
  const timer = new AbortController();
  const outcome = await Promise.race([
    idle().then(() => 'drained' as const),
    delay(timeoutMs, 'timed out' as const, { signal: timer.signal }).catch(() => 'drained' as const),
  ]);
  timer.abort();
  if (outcome === 'timed out') closeSessionsGoingAway(true);
  server.closeAllConnections();
  return outcome;
}
