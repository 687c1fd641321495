/**
 * The build generations one process serves, and rebuild-and-swap: the one way the data
 * under a running server changes (the dev loop's watcher, owner writes). A generation is
 * one `Runtime` over one folder of files: the build's own `dist/`, then
 * `dist/generations/<pid>/<n>/` for each rebuild, all of these reading one image,
 * `dist/generations/<pid>/site.db`, each in a snapshot of its own. `rebuild(paths)`
 * compiles what the changed content files change (src/compile/incremental.ts), opens a
 * Runtime on the result and makes it current. Each request is answered wholly by the generation current
 * when it arrived; a generation swapped out is closed — its image, its caches, its folder
 * — once its last request is done. Quota counters are shared by all generations, so a
 * rebuild does not reset them. Invalid content throws a ContentError and the current
 * generation keeps serving; the files of a failed rebuild are read again by the next one,
 * so fixing any file involved recovers.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { restCollections } from '../collections/index.ts';
import type { Manifest } from '../compile/compile.ts';
import { rebuildGeneration, type Generation } from '../compile/incremental.ts';
import { LIMITS } from '../core/limits.ts';
import { FragmentStore, type FragmentDump } from '../formats/fragments.ts';
import { MemoryCounterStore } from '../http/rate-limit.ts';
import { createDispatcher } from './dispatch.ts';
import { renderPage } from './pages.ts';
import { ROUTES, type Route } from './routes.ts';
import { Runtime, type RuntimeOptions } from './runtime.ts';

export interface GenerationsOptions extends RuntimeOptions {
  /** The content folder rebuilds read (`CONTENT_DIR`). */
  contentDir: string;
  /** The owner's name, the feeds' author (`SITE_AUTHOR`), as the build had it. */
  siteAuthor?: string;
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
  /** Milliseconds per step of the rebuild (src/compile/incremental.ts), and `open` for the new Runtime. */
  timings: Record<string, number>;
}

/** Removes the generation folders of processes that no longer run (each process writes under its own pid). */
function removeOrphans(root: string): void {
  if (!existsSync(root)) return;
  for (const pid of readdirSync(root)) {
    let alive = Number(pid) === process.pid;
    try {
      if (!alive) alive = process.kill(Number(pid), 0);
    } catch (error) {
      alive = (error as NodeJS.ErrnoException).code === 'EPERM';
    }
    if (!alive) rmSync(join(root, pid), { recursive: true, force: true });
  }
}

/** The newest as-of time of the lists a generation serves (the status document's `dataAsOf`). */
const asOfOf = (runtime: Runtime) => restCollections.map((c) => runtime.image.asOf(c.name)).reduce((a, b) => (b > a ? b : a), '1970-01-01T00:00:00Z');

export class Generations {
  private readonly options: GenerationsOptions;
  private readonly root: string;
  private runtime: Runtime;
  private generation: Generation;
  private number = 0;
  /** Requests under way per generation. */
  private readonly inFlight = new Map<Runtime, number>();
  /** Generations swapped out, closed with their folder once their last request is done. */
  private readonly retiring = new Map<Runtime, string | undefined>();
  /** A generation whose image is committed but whose Runtime failed to open. */
  private unopened: Generation | undefined;
  /** Paths of a rebuild that failed, read again by the next one. */
  private pending = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Per-record fragments of the exports and calendars, kept across rebuilds (src/formats/fragments.ts). */
  private readonly fragments = new FragmentStore();

  private constructor(options: GenerationsOptions, runtime: Runtime, manifest: Manifest) {
    this.options = options;
    this.root = join(options.distDir, 'generations', String(process.pid));
    this.runtime = runtime;
    this.generation = { layout: runtime.layout, manifest };
  }

  static async open(options: GenerationsOptions): Promise<Generations> {
    const counters = options.counters ?? {
      rest: new MemoryCounterStore(LIMITS.rateLimitClients),
      sql: new MemoryCounterStore(LIMITS.rateLimitClients),
      graphql: new MemoryCounterStore(LIMITS.rateLimitClients),
    };
    const withCounters = { ...options, counters };
    removeOrphans(join(options.distDir, 'generations'));
    const runtime = await Runtime.open(withCounters);
    return new Generations(withCounters, runtime, JSON.parse(readFileSync(runtime.layout.manifest, 'utf8')) as Manifest);
  }

  /** The generation a request arriving now is answered by. */
  current(): Runtime {
    return this.runtime;
  }

  /**
   * The node:http request listener: the dispatcher reads `current()` once, synchronously,
   * as the request arrives — the same tick in which the request is counted against that
   * generation, so a swap can never fall between the two. The count drops when the
   * response closes (finished or aborted).
   */
  listener(routes: readonly Route[] = ROUTES): (req: IncomingMessage, res: ServerResponse) => void {
    const dispatch = createDispatcher(() => this.runtime, routes);
    return (req, res) => {
      const runtime = this.runtime;
      this.inFlight.set(runtime, (this.inFlight.get(runtime) ?? 0) + 1);
      res.once('close', () => this.done(runtime));
      dispatch(req, res);
    };
  }

  private done(runtime: Runtime): void {
    const left = (this.inFlight.get(runtime) ?? 1) - 1;
    if (left > 0) {
      this.inFlight.set(runtime, left);
      return;
    }
    this.inFlight.delete(runtime);
    if (this.retiring.has(runtime)) this.close(runtime);
  }

  private close(runtime: Runtime): void {
    const dir = this.retiring.get(runtime);
    this.retiring.delete(runtime);
    runtime.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }

  /**
   * Compiles what the content files at `paths` (absolute, or relative to the content
   * folder; files or folders; edited, new or deleted) change, and swaps the result in.
   * Calls run one after another, in order. Throws a ContentError when the content is
   * invalid; the current generation keeps serving.
   */
  rebuild(paths: readonly string[]): Promise<RebuildSummary> {
    const run = this.queue.then(() => this.rebuildNow(paths));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async rebuildNow(paths: readonly string[]): Promise<RebuildSummary> {
    const started = performance.now();
    // A generation whose image was committed but whose Runtime did not open is served first (its files are complete).
    if (this.unopened) await this.swap(this.unopened, this.number + 1);
    const all = [...new Set([...this.pending, ...paths])];
    const number = this.number + 1;
    const target = { dir: join(this.root, String(number)), image: join(this.root, 'site.db') };
    rmSync(target.dir, { recursive: true, force: true });
    const previous = this.runtime;
    let result;
    try {
      const options = { ...this.options, fragments: this.fragments };
      result = await rebuildGeneration({ ...this.generation, image: previous.image }, target, all, options, (core, route) => renderPage(previous.pages, route, { core }));
    } catch (error) {
      this.pending = new Set(all);
      throw error;
    }
    this.pending.clear();
    if (result === undefined) return { swapped: false, generation: this.number, asOf: asOfOf(previous), changed: [], warnings: [], ms: performance.now() - started, timings: {} };
    const opening = performance.now();
    const next = await this.swap(result.generation, number);
    const timings = { ...result.timings, open: Math.round(performance.now() - opening) };
    return { swapped: true, generation: number, asOf: asOfOf(next), changed: result.changed, warnings: result.warnings, ms: performance.now() - started, timings };
  }

  /** Opens a Runtime on `generation` and makes it current; the one it replaces closes after its last request. */
  private async swap(generation: Generation, number: number): Promise<Runtime> {
    let next: Runtime;
    try {
      next = await Runtime.open({ ...this.options, layout: generation.layout });
    } catch (error) {
      this.unopened = generation;
      throw error;
    }
    this.unopened = undefined;
    const previous = this.runtime;
    const previousDir = this.number === 0 ? undefined : join(this.root, String(this.number));
    this.runtime = next;
    this.generation = generation;
    this.number = number;
    this.retiring.set(previous, previousDir);
    if (!this.inFlight.has(previous)) this.close(previous);
    return next;
  }

  /**
   * Renders the current generation's exports and calendars once in a worker thread and
   * keeps their fragments, so the first rebuild that touches places or events renders
   * only what changed rather than every record (at a million records, tens of seconds),
   * without blocking requests meanwhile. Resolves when done; a failure only leaves the
   * store cold.
   */
  warm(): Promise<void> {
    const worker = new Worker(new URL('./warm.ts', import.meta.url), { workerData: { image: this.runtime.layout.image } });
    return new Promise((resolve) => {
      worker.once('message', (dump: FragmentDump) => {
        this.fragments.load(dump);
        resolve();
      });
      worker.once('error', () => resolve());
      worker.once('exit', () => resolve());
    });
  }

  /** Closes every generation and removes the folders rebuilds wrote; for the end of the process (requests still under way may fail). */
  async shutdown(): Promise<void> {
    await this.queue;
    for (const runtime of [...this.retiring.keys()]) this.close(runtime);
    this.runtime.close();
    rmSync(this.root, { recursive: true, force: true });
  }
}
