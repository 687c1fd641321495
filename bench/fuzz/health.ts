/**
 * Is the server well? Single requests and pairs on new connections, a probe (the status
 * document), whether the server is down (exited, refusing, or not answering the probe),
 * whether its event loop was held while a request waited, and bringing the server back
 * (a restart when the fuzzer owns it, else waiting).
 *
 * Whether the event loop was held is measured inside the server when the fuzzer started
 * it (loop-monitor.ts, asked over IPC). A server at `--base` can only be watched from
 * outside: a heartbeat (the status document every 200 ms on its own connection) whose
 * gaps, less the times the fuzzer's own event loop was held, are the server's.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Connection, type Outcome, type RawRequest } from './http.ts';
import type { Target } from './spawn.ts';

/** The server closes keep-alive connections idle for 5 s; never reuse one that old. */
export const IDLE_REUSE_MS = 3000;
const PROBE_MS = 2000;
const HEARTBEAT_MS = 200;
/** The event loop held this long means some request blocks every other. */
export const STALL_MS = 1000;
/** The fuzzer's own event loop, checked this often; a tick this much late is a hold of it. */
const OWN_TICK_MS = 20;
const OWN_HOLD_MS = 50;
/** How long a server at --base may take to answer again after a freeze. */
const RECOVERY_MS = 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The times the fuzzer's own event loop was held (generating or checking a large case, its own GC), so they are not counted as the server's. */
class OwnLoop {
  private readonly histogram = monitorEventLoopDelay({ resolution: 10 });
  private holds: { from: number; to: number }[] = [];
  private ticker: NodeJS.Timeout | undefined;

  start(): void {
    this.histogram.enable();
    let last = performance.now();
    this.ticker = setInterval(() => {
      const now = performance.now();
      if (now - last - OWN_TICK_MS >= OWN_HOLD_MS) this.holds.push({ from: last + OWN_TICK_MS, to: now });
      if (this.holds.length > 2000) this.holds.splice(0, 1000);
      last = now;
    }, OWN_TICK_MS);
    this.ticker.unref();
  }

  stop(): void {
    clearInterval(this.ticker);
    this.histogram.disable();
  }

  /** Milliseconds of [from, to] (performance.now() times) during which the fuzzer's event loop was held. */
  heldWithin(from: number, to: number): number {
    return this.holds.reduce((sum, h) => sum + Math.max(0, Math.min(to, h.to) - Math.max(from, h.from)), 0);
  }

  /** The longest the fuzzer's event loop was held, in ms (past the histogram's 10 ms sampling interval). */
  get maxMs(): number {
    return Math.max(0, this.histogram.max / 1e6 - 10);
  }
}

export class Health {
  private beats: number[] = [];
  private beating = false;
  private heartbeat: Promise<void> | undefined;
  readonly own = new OwnLoop();

  private readonly target: Target;
  private readonly timeoutMs: number;

  constructor(target: Target, timeoutMs: number) {
    this.target = target;
    this.timeoutMs = timeoutMs;
  }

  probeRequest(): RawRequest {
    return { method: 'GET', target: '/api/status.json', version: 'HTTP/1.1', headers: [['Host', `${this.target.host}:${this.target.port}`]] };
  }

  /** One request on a new connection. */
  async send(request: RawRequest, timeoutMs = this.timeoutMs): Promise<Outcome> {
    let connection: Connection;
    try {
      connection = await Connection.open(this.target.host, this.target.port, timeoutMs);
    } catch (error) {
      return { kind: 'reset', detail: (error as Error).message, receivedBytes: 0, ms: 0 };
    }
    const outcome = await connection.exchange(request, timeoutMs);
    connection.destroy();
    return outcome;
  }

  /** Two requests on one new connection, the second sent once the first is answered: the second's outcome (undefined if the first closed the connection). */
  async sendPair(first: RawRequest, second: RawRequest): Promise<Outcome | undefined> {
    let connection: Connection;
    try {
      connection = await Connection.open(this.target.host, this.target.port, this.timeoutMs);
    } catch {
      return undefined;
    }
    const one = await connection.exchange(first, this.timeoutMs);
    const two = one.kind === 'response' && connection.usable(IDLE_REUSE_MS) ? await connection.exchange(second, this.timeoutMs) : undefined;
    connection.destroy();
    return two;
  }

  /** Whether the server is down: exited (when owned), or refusing or not answering a probe. */
  async down(): Promise<'crash' | 'freeze' | undefined> {
    const { target } = this;
    if (target.owned) {
      // A crash closes the sockets a moment before the exit event arrives.
      for (let i = 0; i < 6 && !target.exited; i++) await sleep(50);
      if (target.exited) return 'crash';
    }
    const probe = await this.send(this.probeRequest(), PROBE_MS);
    if (probe.kind === 'response') return undefined;
    if (target.owned && target.exited) return 'crash';
    return probe.kind === 'hang' ? 'freeze' : 'crash';
  }

  /** Starts watching the event loops: the fuzzer's own and, for a server the fuzzer cannot ask (one at --base), the heartbeat. */
  startWatching(): void {
    this.own.start();
    if (!this.target.loopDelay) this.startHeartbeat();
  }

  async stopWatching(): Promise<void> {
    this.own.stop();
    await this.stopHeartbeat();
  }

  /** The status document every 200 ms on its own connection; a gap between its answers, less the fuzzer's own holds, is a time the server's event loop was held, whichever request held it. */
  private startHeartbeat(): void {
    this.beating = true;
    this.heartbeat = (async () => {
      let connection: Connection | undefined;
      while (this.beating) {
        const began = performance.now();
        try {
          if (!connection?.usable(IDLE_REUSE_MS)) {
            connection?.destroy();
            connection = await Connection.open(this.target.host, this.target.port, PROBE_MS);
          }
          if ((await connection.exchange(this.probeRequest(), 60_000)).kind === 'response') this.beats.push(performance.now());
          if (this.beats.length > 4000) this.beats.splice(0, 2000);
        } catch {
          connection = undefined;
        }
        await sleep(Math.max(0, HEARTBEAT_MS - (performance.now() - began)));
      }
      connection?.destroy();
    })();
  }

  private async stopHeartbeat(): Promise<void> {
    this.beating = false;
    await this.heartbeat;
  }

  /**
   * Whether the server's event loop was held STALL_MS or more between `from` and `to`
   * (performance.now() times): as the server measured it, or else as the heartbeat's gaps
   * less the fuzzer's own holds show it.
   */
  async stalled(from: number, to: number): Promise<boolean> {
    if (this.target.loopDelay) {
      // No answer within the probe's time: the server's event loop is held right now.
      const delay = await this.target.loopDelay(performance.timeOrigin + from, PROBE_MS);
      return delay === undefined || delay.maxMs >= STALL_MS;
    }
    const edges = [from, ...this.beats.filter((t) => t >= from && t <= to), to];
    return edges.some((t, i) => i > 0 && t - edges[i - 1]! - this.own.heldWithin(edges[i - 1]!, t) >= STALL_MS);
  }

  /** Brings the server back: restarts it when the fuzzer owns it; else waits for a freeze to pass (a crash cannot be undone from here). */
  async revive(): Promise<boolean> {
    if (this.target.owned) {
      await this.target.restart();
      return true;
    }
    for (let waited = 0; waited < RECOVERY_MS; waited += PROBE_MS) {
      if ((await this.send(this.probeRequest(), PROBE_MS)).kind === 'response') return true;
      await sleep(100);
    }
    return false;
  }
}
