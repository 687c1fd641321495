/**
 * A graceful stop for one serving process, on SIGTERM (a rolling restart, a deploy) or
 * SIGINT. In order:
 *
 * 1. the process says `draining`: `/api/status.json` answers 503 with that status, so a
 *    load balancer's health check takes it out, and every answer from now on carries
 *    `Connection: close`, so no kept-alive connection is reused for a new request;
 * 2. it hands off: while a balancer still sends it requests it keeps serving them, on
 *    its open connections and on new ones. A balancer that health-checks this process
 *    only stops sending once a check has seen `draining` (or two, or three: its `fall`
 *    count), and a request it sent just before is already on the wire; closing idle
 *    connections then resets that request (`ECONNRESET`), and closing the listening
 *    socket refuses the next connection. So, when the status page is read at intervals
 *    (something health-checks this process), it waits until two checks have been answered
 *    `draining` and no other request has come for LIMITS.drainQuietMs, or for
 *    `DRAIN_DELAY_MS` at most. Nothing reads the status of a lone server (the dev loop, a
 *    test), and it goes on at once;
 * 3. it stops accepting connections (the listening socket closes; a proxy's next
 *    connection is refused and goes to another replica) and closes idle ones;
 * 4. every WebSocket RPC session closes with 1001 (going away) once the calls it pulled
 *    are answered, so capnweb clients see a clean end and reconnect elsewhere;
 * 5. requests in flight finish (an owner write among them finishes its rebuild; one cut
 *    short by a hard kill is settled by the owner journal at the next start), bounded by
 *    `drainTimeoutMs`, after which what is left is closed.
 *
 * The caller then closes the generations and exits 0.
 */
import type { Server } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { LIMITS } from '../core/limits.ts';
import { closeSessionsGoingAway } from '../rpc/websocket.ts';
import { LINKS } from '../urls.ts';
import type { Dispatcher } from './node.ts';

/**
 * The process's own state: whether it drains, read by the status document
 * (functions/status.ts), and when the status and other requests were last answered,
 * which the hand-off (step 2) reads. Request times are kept only while draining, so
 * serving pays one boolean test per request.
 */
export class Lifecycle {
  draining = false;
  /** When the status page was last answered (performance.now()), or -Infinity. */
  statusAt = -Infinity;
  /** The time between its last two answers: a health check's interval. */
  statusEvery = Infinity;
  /** How many status answers said `draining`, and when the second was given. */
  drainingChecks = 0;
  secondCheckAt = Infinity;
  /** While draining: when the last request other than the status arrived. */
  requestAt = -Infinity;

  /** Called by the status document on each answer. */
  statusAnswered(): void {
    const now = performance.now();
    this.statusEvery = now - this.statusAt;
    this.statusAt = now;
    if (this.draining && ++this.drainingChecks === 2) this.secondCheckAt = now;
  }
}

/** A dispatcher whose answers close their connection once the process is draining. */
export function drainingDispatcher(dispatcher: Dispatcher, lifecycle: Lifecycle): Dispatcher {
  return {
    request: (req, res) => {
      if (lifecycle.draining) {
        res.shouldKeepAlive = false;
        if (!req.url?.startsWith(LINKS.status)) lifecycle.requestAt = performance.now();
      }
      dispatcher.request(req, res);
    },
    upgrades: (req) => dispatcher.upgrades(req),
    upgrade: (req, socket, head) => dispatcher.upgrade(req, socket, head),
  };
}

/**
 * Step 2: resolves once a balancer that health-checks this process has seen it draining
 * and stopped sending, or after `delayMs`. Health-checked: the status was read within
 * LIMITS.drainWatchedMs. Seen: two checks answered `draining`, since a balancer asks
 * again only after it has taken in the first answer, even one starved of CPU that takes
 * seconds to. Stopped: no other request since the second for LIMITS.drainQuietMs. A
 * checker that misses two of its intervals (known from its last two reads, else taken
 * as LIMITS.drainAssumedCheckMs) is gone: a test's poll that ended, a monitor. Not
 * health-checked: at once.
 */
export async function handOff(lifecycle: Lifecycle, delayMs: number): Promise<'watched' | 'unwatched'> {
  const start = performance.now();
  if (start - lifecycle.statusAt > LIMITS.drainWatchedMs) return 'unwatched';
  lifecycle.requestAt = Math.max(lifecycle.requestAt, start);
  for (let now = start; now - start < delayMs; now = performance.now()) {
    if (now - Math.max(lifecycle.requestAt, lifecycle.secondCheckAt) >= LIMITS.drainQuietMs) break;
    const every = Number.isFinite(lifecycle.statusEvery) ? lifecycle.statusEvery : LIMITS.drainAssumedCheckMs;
    if (now - Math.max(lifecycle.statusAt, start) > 2 * every + LIMITS.drainQuietMs) break;
    await delay(LIMITS.drainPollMs);
  }
  return 'watched';
}

/**
 * Drains `server` (steps 1 to 5): resolves `drained` once `idle()` does (no request or session left),
 * or `timed out` after `timeoutMs`, having then closed every session and connection.
 */
export async function drain(
  server: Server,
  idle: () => Promise<void>,
  lifecycle: Lifecycle,
  delayMs: number,
  timeoutMs: number = LIMITS.drainTimeoutMs,
): Promise<'drained' | 'timed out'> {
  lifecycle.draining = true;
  await handOff(lifecycle, delayMs);
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
