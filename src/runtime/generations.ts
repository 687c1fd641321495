/**
 * The build generations one process serves, and rebuild-and-swap: the one way the data
 * under a running server changes (the dev loop's watcher, owner writes). A generation is
 * one `ServingRuntime`: the build's own `dist/` first, then one per rebuild. `rebuild(paths)`
 * compiles what the changed content files change (src/compile/incremental/rebuild.ts), opens a
 * ServingRuntime on the result and makes it current. Each request is answered wholly by the
 * generation current when it arrived; a generation swapped out is closed — its image
 * snapshot, its caches — once its last request is done, and the files only it used are
 * removed. Rebuilt generations write under `dist/generations/<pid>-<n>/`: one image
 * (`site.db`, each generation reading its own snapshot) and a folder per generation for
 * the files it changed. Quota counters are shared by all generations, so a rebuild does
 * not reset them. Invalid content throws a ContentError and the current generation keeps
 * serving; the files of a failed rebuild are read again by the next one, so fixing any
 * file involved recovers.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { restCollections } from '../collections/index.ts';
import type { BuildOutput } from '../compile/incremental/rebuild.ts';
import { LIMITS } from '../core/limits.ts';
import { OwnerWrites } from '../owner/writes.ts';
import { FragmentStore, type FragmentDump } from '../formats/fragments.ts';
import { RecordOrders } from '../compile/artifacts/record-order.ts';
import { MemoryCounterStore } from '../http/rate-limit.ts';
import { createDispatcher, type DispatchTable } from './dispatch.ts';
import type { Dispatcher } from './node.ts';
import { renderPage } from '../site/render-page.ts';
import { DISPATCH_TABLE } from './routes.ts';
import type { RuntimeOptions } from './runtime.ts';
import { ServingRuntime } from './serving.ts';

/** The incremental compile, loaded at the first rebuild: a server that never rebuilds (a replica, a reader) does not load the compiler. */
const rebuilding = () => import('../compile/incremental/rebuild.ts');

export interface GenerationsOptions extends RuntimeOptions {
  /** The content folder rebuilds read (`CONTENT_DIR`). */
  contentDir: string;
  /** The owner's name, the feeds' author (`SITE_AUTHOR`), as the build had it. */
  siteAuthor?: string;
  /** Called after a rebuild swapped a new generation in, before the next rebuild starts (the writer publishes it as a release: src/release/writer.ts). */
  afterRebuild?: (runtime: ServingRuntime) => Promise<void>;
}

export interface RebuildSummary {
  /** Whether a new generation now serves (false: nothing a reader sees changed, nothing was written). */
  swapped: boolean;
  /** The serving generation: 0 is the build's own. */
  generation: number;
  /** The serving generation's as-of time: the newest record date of any list. */
  asOf: string;
  /** URL paths whose answer changed (or left), and the SQL endpoint when `public.writing` did. */
  changed: string[];
  /** Provenance warnings of the changed records. */
  warnings: string[];
  /** Time from the call to the swap. */
  ms: number;
  /** Milliseconds per step of the rebuild (src/compile/incremental/rebuild.ts), and `open` for the new ServingRuntime. */
  timings: Record<string, number>;
}

/** Removes the generation folders of processes that no longer run (each process writes under folders named after its pid). */
function removeOrphans(root: string): void {
  if (!existsSync(root)) return;
  for (const folder of readdirSync(root)) {
    const pid = folder.split('-')[0]!;
    let alive = Number(pid) === process.pid;
    try {
      if (!alive) alive = process.kill(Number(pid), 0);
    } catch (error) {
      alive = (error as NodeJS.ErrnoException).code === 'EPERM';
    }
    if (!alive) rmSync(join(root, folder), { recursive: true, force: true });
  }
}

/** Generations objects this process has opened, numbering their folders. */
let opened = 0;

/** The newest as-of time of the lists a generation serves (the status document's `dataAsOf`). */
const asOfOf = (runtime: ServingRuntime) => restCollections.map((c) => runtime.image.asOf(c.name)).reduce((a, b) => (b > a ? b : a), '1970-01-01T00:00:00Z');

/** A generation and the requests (and WebSocket sessions) under way on it. */
interface Held {
  readonly runtime: ServingRuntime;
  count: number;
  /** Counts one of them done: the listener every response of the generation shares, so no function is made per request. */
  readonly release: () => void;
}

export class Generations {
  private readonly options: GenerationsOptions;
  /** Where this process's rebuilt generations write. */
  private readonly root: string;
  /** The image every rebuilt generation reads (a WAL copy of the build's, made once), and its making. */
  private readonly liveImage: string;
  private readonly buildImage: string;
  private prepared: Promise<void> | undefined;
  /** The current generation, with its requests under way: a request is counted on it without a lookup. */
  private held: Held;
  /** Requests under way on every generation. */
  private underWay = 0;
  private number = 0;
  /** Generations swapped out while requests were under way on them, closed once their last is done. */
  private readonly retiring = new Set<Held>();
  /** How many open generations use each file a rebuild wrote; a file no generation uses is removed. */
  private readonly uses = new Map<string, number>();
  /** A build output whose image is committed but whose ServingRuntime failed to open. */
  private unopened: BuildOutput | undefined;
  /** Paths of a rebuild that failed, read again by the next one. */
  private pending = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Callers of `idle()` waiting for the last request to end. */
  private idleWaiters: (() => void)[] = [];
  /** Per-record fragments of the exports and calendars, kept across rebuilds (src/formats/fragments.ts). */
  private readonly fragments = new FragmentStore();
  /** The records the exports and calendars read, in default order, kept across rebuilds (src/compile/artifacts/record-order.ts). */
  private readonly orders = new RecordOrders();

  /** The current generation. */
  private get runtime(): ServingRuntime {
    return this.held.runtime;
  }

  private constructor(options: GenerationsOptions, runtime: ServingRuntime) {
    this.options = options;
    this.buildImage = runtime.build.image;
    // A process may hold several (test files sharing a process, each with its own site): each writes apart.
    this.root = resolve(options.distDir, 'generations', `${process.pid}-${++opened}`);
    this.liveImage = join(this.root, 'site.db');
    this.held = this.holding(runtime);
  }

  static async open(options: GenerationsOptions): Promise<Generations> {
    const counters = options.counters ?? {
      rest: new MemoryCounterStore(LIMITS.rateLimitClients),
      sql: new MemoryCounterStore(LIMITS.rateLimitClients),
      graphql: new MemoryCounterStore(LIMITS.rateLimitClients),
      mcp: new MemoryCounterStore(LIMITS.rateLimitClients),
      mcpWork: new MemoryCounterStore(LIMITS.rateLimitClients),
      rpc: new MemoryCounterStore(LIMITS.rateLimitClients),
    };
    // The owner lane's writes edit this content folder and rebuild through these generations.
    const owner = options.owner ?? (options.oauth ? new OwnerWrites({ contentDir: options.contentDir, stateDir: options.oauth.config.stateDir }) : undefined);
    const withCounters = { ...options, counters, owner };
    removeOrphans(join(options.distDir, 'generations'));
    const generations = new Generations(withCounters, await ServingRuntime.open(withCounters));
    owner?.attach({ current: () => generations.current(), rebuild: (paths) => generations.rebuild(paths) });
    await owner?.catchUp();
    return generations;
  }

  /** The generation a request arriving now is answered by. */
  current(): ServingRuntime {
    return this.runtime;
  }

  /**
   * The dispatcher of the generations: it reads `current()` once, synchronously, as a
   * request arrives — the same tick in which the request is counted against that
   * generation, so a swap can never fall between the two. The count drops when the
   * response closes (finished or aborted), or at once for one written whole in that tick,
   * or for an upgraded connection when its socket closes: a WebSocket session keeps the
   * generation it started on.
   */
  dispatcher(table: DispatchTable = DISPATCH_TABLE): Dispatcher {
    const dispatch = createDispatcher(() => this.runtime, table);
    return {
      request: (req, res) => {
        const held = this.enter();
        dispatch.request(req, res);
        // An answer the kernel took whole within this tick reads nothing of its generation
        // after it (a remembered list, mostly): it is done without a listener. Any other
        // holds the generation until the response closes, finished or aborted.
        if (res.writableEnded && res.writableLength === 0) this.done(held);
        else res.on('close', held.release);
      },
      upgrades: (req) => dispatch.upgrades(req),
      upgrade: (req, socket, head) => {
        socket.on('close', this.enter().release);
        dispatch.upgrade(req, socket, head);
      },
    };
  }

  /** Counts a request (or session) arriving now against the current generation. */
  private enter(): Held {
    const held = this.held;
    held.count++;
    this.underWay++;
    return held;
  }

  private holding(runtime: ServingRuntime): Held {
    const held: Held = { runtime, count: 0, release: () => this.done(held) };
    return held;
  }

  private done(held: Held): void {
    held.count--;
    this.underWay--;
    if (held.count === 0 && this.retiring.has(held)) this.close(held);
    if (this.underWay === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  /** Resolves once no request and no WebSocket session is under way on any generation (for a stopping process). */
  idle(): Promise<void> {
    if (this.underWay === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** The files of a generation that a rebuild wrote (the build's own files are never removed). */
  private written(build: BuildOutput): string[] {
    const files = [build.sqlImage, ...Object.values(build.manifest).map((entry) => resolve(build.root, entry.file))];
    return files.filter((file) => file.startsWith(`${this.root}/`) && file !== this.liveImage);
  }

  private use(build: BuildOutput, by: number): void {
    for (const file of this.written(build)) {
      const uses = (this.uses.get(file) ?? 0) + by;
      if (uses > 0) this.uses.set(file, uses);
      else {
        this.uses.delete(file);
        rmSync(file, { force: true });
      }
    }
  }

  private close(held: Held): void {
    this.retiring.delete(held);
    void held.runtime.close();
    this.use(held.runtime.build, -1);
  }

  /** Copies the build's image for rebuilds to update, once, without blocking requests. */
  private prepare(): Promise<void> {
    this.prepared ??= rebuilding()
      .then(({ prepareImage }) => prepareImage(this.buildImage, this.liveImage))
      .catch((error: unknown) => {
        this.prepared = undefined;
        throw error;
      });
    return this.prepared;
  }

  /**
   * Compiles what the content files at `paths` (absolute, or relative to the content
   * folder; files or folders; edited, new or deleted) change, and swaps the result in.
   * Calls run one after another, in order. Throws a ContentError when the content is
   * invalid; the current generation keeps serving.
   */
  rebuild(paths: readonly string[]): Promise<RebuildSummary> {
    const run = this.queue.then(() => this.rebuildNow(paths));
    const after = run.then((summary) => (summary.swapped ? this.options.afterRebuild?.(this.runtime) : undefined));
    this.queue = after.catch(() => undefined);
    return run;
  }

  /**
   * Serves `build` (a release read from `RELEASES_DIR`: src/release/follow.ts) from
   * now on, as a rebuild's would be: requests under way finish on the one it replaces.
   * Queued with the rebuilds.
   */
  adopt(build: BuildOutput, release: string): Promise<void> {
    const run = this.queue.then(() => this.swap(build, release)).then(() => undefined);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async rebuildNow(paths: readonly string[]): Promise<RebuildSummary> {
    const started = performance.now();
    // A build output whose image was committed but whose ServingRuntime did not open is served first (its files are complete).
    if (this.unopened) await this.swap(this.unopened);
    const all = [...new Set([...this.pending, ...paths])];
    const target = { dir: join(this.root, String(this.number + 1)), root: resolve(this.options.distDir), image: this.liveImage };
    rmSync(target.dir, { recursive: true, force: true });
    const previous = this.runtime;
    let result;
    try {
      await this.prepare();
      const options = { ...this.options, fragments: this.fragments, orders: this.orders };
      const { rebuildOutput } = await rebuilding();
      result = await rebuildOutput(previous.build, previous.image, target, all, options, (core, route) => renderPage(previous.pages, route, { core }));
    } catch (error) {
      this.pending = new Set(all);
      throw error;
    }
    this.pending.clear();
    if (result === undefined)
      return { swapped: false, generation: this.number, asOf: asOfOf(previous), changed: [], warnings: [], ms: performance.now() - started, timings: {} };
    const opening = performance.now();
    const next = await this.swap(result.build);
    const timings = { ...result.timings, open: Math.round(performance.now() - opening) };
    return {
      swapped: true,
      generation: this.number,
      asOf: asOfOf(next),
      changed: result.changed,
      warnings: result.warnings,
      ms: performance.now() - started,
      timings,
    };
  }

  /** Opens a ServingRuntime on `build` and makes it current; the one it replaces closes after its last request. */
  private async swap(build: BuildOutput, release?: string): Promise<ServingRuntime> {
    let next: ServingRuntime;
    try {
      next = await ServingRuntime.open({ ...this.options, build, release }, { warmSql: false, follows: this.runtime });
    } catch (error) {
      this.unopened = build;
      throw error;
    }
    this.unopened = undefined;
    this.use(build, +1);
    const previous = this.held;
    this.held = this.holding(next);
    this.number += 1;
    if (previous.count === 0) this.close(previous);
    else this.retiring.add(previous);
    return next;
  }

  /**
   * Prepares the first rebuild without blocking requests: copies the build's image for
   * rebuilds to update, and renders the current exports and calendars once in a worker
   * thread to keep their fragments, so the first rebuild that touches places or events
   * renders only what changed rather than every record (at a million records, tens of
   * seconds). Then renders them once here too, from the kept fragments, which loads
   * what a first render in this thread loads (time zone rules, the writers' code).
   * Resolves when done; a failure only leaves the first rebuild slower. A rebuild may run
   * meanwhile (the dev loop watches before it warms): it waits for the image's copy only,
   * and since fragments are kept by their record's JSON and `load` adds only those not
   * held yet, the two share work without ever disagreeing.
   */
  async warm(): Promise<void> {
    const image = this.prepare().catch(() => undefined);
    const worker = new Worker(new URL('./warm.ts', import.meta.url), { workerData: { image: this.runtime.build.image } });
    const fragments = new Promise<void>((done) => {
      worker.once('message', (dump: FragmentDump) => {
        this.fragments.load(dump);
        done();
      });
      worker.once('error', () => done());
      worker.once('exit', () => done());
    });
    await Promise.all([image, fragments]);
    const { calendarDocuments, exportDocuments } = await import('../compile/artifacts/exports.ts');
    const { keptRecordSitemaps } = await import('../compile/incremental/pages.ts');
    this.orders.use(this.runtime.build, this.runtime.core);
    exportDocuments(this.runtime.core, this.fragments, this.orders);
    calendarDocuments(this.runtime.core, this.fragments, this.orders);
    keptRecordSitemaps(this.runtime.core, this.orders);
  }

  /** Closes every generation and removes the files rebuilds wrote; for the end of the process (requests still under way may fail). */
  async shutdown(): Promise<void> {
    await this.queue;
    for (const held of [...this.retiring]) this.close(held);
    // Awaited: the process exits next, and exiting while SQL worker threads still stop aborts Node (V8 fatal).
    await this.runtime.close();
    rmSync(this.root, { recursive: true, force: true });
  }
}
