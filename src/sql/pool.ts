/**
 * A small pool of SQL worker threads (src/sql/sql-worker.ts), so that parsing, checking
 * and running a public statement never happens on the event loop. Each worker holds its
 * own database, opened from the SQL image bytes, and its own statement cache, and takes
 * one statement at a time under the time budget (the worker thread's processor time, and
 * at most four times as long on the clock): a statement that overruns it is answered with
 * a `sql-limit` problem, and its worker is terminated (V8 stops JavaScript and
 * WebAssembly alike) and a replacement started. The time budget also bounds what a
 * statement can allocate (the worst backtracking measured grew a worker's heap by about
 * 40 MB a second); workers get no `resourceLimits` heap cap, because reaching one can
 * abort the whole process rather than the worker (seen on Node 24 with this parser;
 * nodejs/node#65019).
 *
 * Statements that find every worker busy wait in a queue, shed by waiting time rather than
 * by count: a statement is admitted when its expected wait — the statements ahead of it,
 * shared among the workers, times the run time of recent statements (or the time the
 * running ones have taken so far, when longer) — stays within `sqlQueueWaitMs`, and one
 * that has still waited that long when a worker frees is refused then. So hundreds of
 * cheap statements queue and are all answered, while a flood of slow ones is shed after a
 * few; either refusal is an immediate `sql-busy` (503 with Retry-After, the expected
 * drain) rather than a longer wait. A count bound (`sqlQueueMax`) caps only the memory of
 * a burst. One client runs one statement at a time and may have only a few running or
 * waiting (`sqlClientStatementsMax`, past it a 429 `sql-client-busy`: its own limit); a
 * worker takes the oldest waiting statement of a client with none running, and the
 * start-up of a worker replacing one that overran counts as its client's running
 * statement. So a client sending slow statements holds at most one worker, restarts
 * included, and everyone else's statements pass its own.
 * Workers start with the first statement (or `warm()`), do not keep an idle process
 * alive (they are unreferenced once started and while idle), and `close()` terminates
 * them.
 */
import { Worker } from 'node:worker_threads';
import { PublicError } from '../core/errors.ts';
import type { ProblemSlug } from '../core/problems.ts';
import { LIMITS } from '../core/limits.ts';
import type { SqlFormat } from './execute.ts';
import { RELATIONS, type SqlRelation } from './relations.ts';

/** What a worker is started with: the image and the relation catalog (data, so the worker loads no declarations). */
export interface WorkerSetup {
  image: SharedArrayBuffer;
  relations: readonly SqlRelation[];
}
export interface WorkerRequest {
  text: string;
  format: SqlFormat;
}
/** `ready` once, then one reply per request: encoded rows, a public problem, or an internal failure (for the log only). */
export type WorkerReply =
  { ready: true } | { ok: true; body: Uint8Array; truncated: boolean } | { ok: false; slug: ProblemSlug; detail: string } | { ok: false; internal: string };

export interface Encoded {
  body: Uint8Array;
  truncated: boolean;
}

export interface SqlPoolOptions {
  /**
   * The SQL image bytes (`dist/image/sql.db`); each worker opens its own copy. Bytes are
   * copied into memory the workers share; an already shared copy (`SqlPool.image` of a
   * generation whose image is the same file) is used as it is.
   */
  image: Uint8Array | SharedArrayBuffer;
  /** Worker threads; `sqlWorkers` by default. */
  workers?: number;
  /** Statements that may wait for a worker at most; `sqlQueueMax` by default. */
  queue?: number;
  /** Milliseconds a statement may expect to wait, or wait, for a worker; `sqlQueueWaitMs` by default. */
  queueWaitMs?: number;
  /** Milliseconds a statement may take in its worker; `sqlTimeBudgetMs` by default. */
  timeBudgetMs?: number;
  /** Called with the client of a statement that overran the time budget (the SQL handler charges its quota). */
  onOverrun?: (client: string) => void;
}

interface Job extends WorkerRequest {
  client: string;
  /**
   * performance.now() past which the statement, still waiting, is refused: set only for one
   * that queued behind running statements, not behind a worker's start-up (the first, or
   * the replacement of one that overran), whose cost is the pool's, not the load's.
   */
  deadline: number;
  resolve: (encoded: Encoded) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** Settles once the worker's module has finished evaluating (it said ready) or it ended. */
  started: Promise<void>;
  /** The client whose statement overran the time budget, while this worker replacing its worker starts. */
  replacing?: string;
  job?: Job;
  /** performance.now() when its statement was handed to the worker. */
  begun?: number;
  timer?: NodeJS.Timeout;
}

const WORKER_URL = new URL('./sql-worker.ts', import.meta.url);
/** However busy the machine, a statement holds its worker for at most this many time budgets on the clock. */
const WALL_CLOCK_FACTOR = 4;
/**
 * The run time assumed before any statement has been measured (milliseconds, on the
 * clock, from hand-over to reply): a cheap statement over the SQL image takes about one.
 */
const RUN_TIME_PRIOR_MS = 2;
/** Weight of the newest run time in the moving average: the estimate follows a change of load within a few statements. */
const RUN_TIME_WEIGHT = 0.2;

export class SqlPool {
  readonly workers: number;
  readonly queueMax: number;
  readonly queueWaitMs: number;
  readonly timeBudgetMs: number;
  /** Exponentially weighted moving average of recent statements' run times (ms). */
  private runTimeMs = RUN_TIME_PRIOR_MS;
  private readonly onOverrun: (client: string) => void;
  /** The image's bytes, shared with the workers (and with a later pool over the same image file). */
  readonly image: SharedArrayBuffer;
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  /** Statements running or waiting, per client. */
  private readonly perClient = new Map<string, number>();
  /** Callers of `warm()` waiting for every worker to be ready. */
  private warming: (() => void)[] = [];
  private closed = false;

  constructor(options: SqlPoolOptions) {
    this.workers = options.workers ?? LIMITS.sqlWorkers;
    this.queueMax = options.queue ?? LIMITS.sqlQueueMax;
    this.queueWaitMs = options.queueWaitMs ?? LIMITS.sqlQueueWaitMs;
    this.timeBudgetMs = options.timeBudgetMs ?? LIMITS.sqlTimeBudgetMs;
    this.onOverrun = options.onOverrun ?? (() => undefined);
    if (options.image instanceof SharedArrayBuffer) this.image = options.image;
    else {
      this.image = new SharedArrayBuffer(options.image.byteLength);
      new Uint8Array(this.image).set(options.image);
    }
  }

  /**
   * Milliseconds a statement arriving now may expect to wait for a worker: none when one is
   * idle and nothing waits; else its turn among the workers times the expected run time —
   * the recent average, or what the running statements have taken so far when every worker
   * has been busy longer (a flood of slow statements shows there before any of them ends).
   */
  expectedWaitMs(): number {
    const busy = [...this.slots].filter((slot) => slot.job !== undefined || !slot.ready);
    if (this.queue.length === 0 && busy.length < this.workers) return 0;
    const now = performance.now();
    const running = busy.length < this.workers ? 0 : Math.min(...busy.map((slot) => (slot.begun === undefined ? 0 : now - slot.begun)));
    return Math.ceil((this.queue.length + 1) / this.workers) * Math.max(this.runTimeMs, running);
  }

  /**
   * Seconds after which a refused statement may expect room: the expected wait (for the
   * pool, or for the client's own statements ahead of it), at least one.
   */
  retryAfterSeconds(client?: string): number {
    const own = client === undefined ? 0 : (this.perClient.get(client) ?? 0) * this.runTimeMs;
    return Math.max(1, Math.ceil(Math.max(this.expectedWaitMs(), own) / 1000));
  }

  /** Checks, runs and encodes one statement of `client` in a worker; rejects with a PublicError (or an internal Error). */
  run(text: string, format: SqlFormat, client = ''): Promise<Encoded> {
    if (this.closed) return Promise.reject(busy('The SQL endpoint is shutting down; retry after the time in Retry-After.'));
    const mine = this.perClient.get(client) ?? 0;
    if (mine >= LIMITS.sqlClientStatementsMax) {
      return Promise.reject(
        new PublicError(
          'sql-client-busy',
          `This client already has ${LIMITS.sqlClientStatementsMax} SQL statements running or waiting; wait for their answers, or retry after the time in Retry-After.`,
        ),
      );
    }
    if (this.queue.length >= this.queueMax) {
      return Promise.reject(busy(`Every SQL worker is busy and ${this.queueMax} statements are already waiting; retry after the time in Retry-After.`));
    }
    if (this.expectedWaitMs() > this.queueWaitMs) {
      return Promise.reject(
        busy(
          `Every SQL worker is busy, and the statements waiting would keep this one waiting longer than ${this.queueWaitMs} ms; retry after the time in Retry-After.`,
        ),
      );
    }
    this.perClient.set(client, mine + 1);
    const done = () => {
      const left = this.perClient.get(client)! - 1;
      if (left === 0) this.perClient.delete(client);
      else this.perClient.set(client, left);
    };
    return new Promise((resolve, reject) => {
      this.queue.push({
        text,
        format,
        client,
        deadline: this.starting() ? Infinity : performance.now() + this.queueWaitMs,
        resolve: (encoded) => (done(), resolve(encoded)),
        reject: (error) => (done(), reject(error)),
      });
      this.pump();
    });
  }

  /** Starts every worker now rather than on demand; resolves when all are ready. */
  warm(): Promise<void> {
    while (!this.closed && this.slots.size < this.workers) this.start();
    return new Promise((resolve) => {
      this.warming.push(resolve);
      this.pump();
    });
  }

  /** Terminates every worker; statements still waiting or running are refused with `sql-busy`. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(busy('The SQL endpoint is shutting down; retry after the time in Retry-After.'));
    await Promise.all([...this.slots].map((slot) => this.retire(slot, busy('The SQL endpoint is shutting down; retry after the time in Retry-After.'))));
  }

  /** Clients with a statement running, or whose overrun statement's worker is still being replaced (that start-up is theirs too). */
  private running(): Set<string> {
    const clients = new Set<string>();
    for (const slot of this.slots) {
      if (slot.job !== undefined) clients.add(slot.job.client);
      else if (!slot.ready && slot.replacing !== undefined) clients.add(slot.replacing);
    }
    return clients;
  }

  /** Hands waiting statements to idle workers (the oldest of a client with none running), and starts the workers if none are. */
  private pump(): void {
    this.expire();
    for (const slot of this.slots) {
      if (!slot.ready || slot.job !== undefined) continue;
      const running = this.running();
      const index = this.queue.findIndex((job) => !running.has(job.client));
      if (index === -1) break;
      this.dispatch(slot, this.queue.splice(index, 1)[0]!);
    }
    // The first statement starts every worker, so the next client finds one ready.
    while (!this.closed && this.queue.length > 0 && this.slots.size < this.workers) this.start();
    if ([...this.slots].every((slot) => slot.ready) || this.closed) for (const resolve of this.warming.splice(0)) resolve();
    // Only workers starting or with a statement running keep the process alive.
    for (const slot of this.slots) {
      if (slot.job !== undefined || !slot.ready) slot.worker.ref();
      else slot.worker.unref();
    }
  }

  /** Whether a worker is missing or still starting. */
  private starting(): boolean {
    return this.slots.size < this.workers || [...this.slots].some((slot) => !slot.ready);
  }

  /** Refuses the waiting statements whose wait has reached the bound: they would be answered later than promised. */
  private expire(): void {
    const now = performance.now();
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const job = this.queue[i]!;
      if (job.deadline > now) continue;
      this.queue.splice(i, 1);
      job.reject(busy(`This statement waited ${this.queueWaitMs} ms for a SQL worker and none came free; retry after the time in Retry-After.`));
    }
  }

  /** Folds one statement's run time (hand-over to reply, or to its overrun) into the moving average. */
  private measure(slot: Slot): void {
    if (slot.begun === undefined) return;
    this.runTimeMs += RUN_TIME_WEIGHT * (performance.now() - slot.begun - this.runTimeMs);
    slot.begun = undefined;
  }

  private start(replacing?: string): void {
    const worker = new Worker(WORKER_URL, { workerData: { image: this.image, relations: RELATIONS } satisfies WorkerSetup });
    const started = new Promise<void>((resolve) => {
      worker.once('message', () => resolve());
      worker.once('exit', () => resolve());
    });
    const slot: Slot = { worker, ready: false, started, replacing };
    this.slots.add(slot);
    worker.on('message', (reply: WorkerReply) => this.receive(slot, reply));
    worker.on('error', (error) => this.fail(slot, error));
    worker.on('exit', (code) => this.fail(slot, new Error(`SQL worker exited with code ${code}`)));
  }

  /**
   * Runs `job` on `slot` under the time budget, which counts the worker thread's processor
   * time, so a statement is not cut short because a busy machine gave its thread less of
   * the clock: when the budget has passed on the clock, the thread's processor time is
   * read, and the deadline moves on by what is left of it, up to WALL_CLOCK_FACTOR times
   * the budget on the clock.
   */
  private dispatch(slot: Slot, job: Job): void {
    slot.job = job;
    const begun = performance.now();
    slot.begun = begun;
    const before = slot.worker.cpuUsage();
    const check = async () => {
      const elapsed = performance.now() - begun;
      const used = await before
        .then((start) => slot.worker.cpuUsage(start))
        .then(
          (u) => (u.user + u.system) / 1000,
          () => elapsed,
        );
      if (slot.job !== job) return;
      if (used < this.timeBudgetMs && elapsed < this.timeBudgetMs * WALL_CLOCK_FACTOR) {
        slot.timer = setTimeout(check, Math.max(this.timeBudgetMs - used, 1));
        return;
      }
      this.measure(slot);
      void this.retire(
        slot,
        new PublicError(
          'sql-limit',
          `The statement took longer than the ${this.timeBudgetMs} ms time budget of the SQL profile to parse, check and run; simplify it.`,
        ),
      );
      // The replacement starts now, so the next statement does not wait for it; until it is
      // ready it counts as the client's running statement, so that client cannot take
      // another worker meanwhile.
      if (!this.closed) this.start(job.client);
      this.onOverrun(job.client);
      this.pump();
    };
    slot.timer = setTimeout(check, this.timeBudgetMs);
    slot.worker.postMessage({ text: job.text, format: job.format } satisfies WorkerRequest);
  }

  private receive(slot: Slot, reply: WorkerReply): void {
    if ('ready' in reply) slot.ready = true;
    else {
      const job = slot.job;
      clearTimeout(slot.timer);
      this.measure(slot);
      slot.job = undefined;
      if (job === undefined) return;
      if (reply.ok) job.resolve({ body: reply.body, truncated: reply.truncated });
      else if ('slug' in reply) job.reject(new PublicError(reply.slug, reply.detail));
      else job.reject(new Error(reply.internal));
    }
    this.pump();
  }

  /** A worker ended on its own (a crash): its statement fails (a logged 500), and it is replaced on demand, never in a loop. */
  private fail(slot: Slot, error: Error): void {
    if (!this.slots.has(slot)) return;
    // A worker that fails before it is ready takes the oldest waiting statement with it, so a
    // worker that cannot start fails requests instead of being restarted for ever.
    if (!slot.ready && slot.job === undefined) this.queue.shift()?.reject(error);
    void this.retire(slot, error);
    this.pump();
  }

  /**
   * Removes a worker from the pool, refusing its statement (if any) with `reason`, and
   * terminates it, but never while its module is still evaluating: terminating a worker
   * then (the sql.js engine loads with a top-level await) can abort the whole process
   * with a V8 fatal error on Node 24, so a starting worker is let finish first (and is
   * kept referenced until then, so a process does not exit under it either).
   */
  private async retire(slot: Slot, reason: unknown): Promise<void> {
    if (!this.slots.delete(slot)) return;
    clearTimeout(slot.timer);
    slot.job?.reject(reason);
    slot.job = undefined;
    await slot.started;
    await slot.worker.terminate().catch(() => undefined);
  }
}

const busy = (detail: string) => new PublicError('sql-busy', detail);
