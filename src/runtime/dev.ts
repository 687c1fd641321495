/**
 * `npm run dev`: the live authoring loop. Builds once (`astro build`), serves the build
 * with the project's own runtime, and watches the content folder (`CONTENT_DIR`): a
 * saved edit, a new file or a deletion is rebuilt incrementally and swapped under the
 * running server (src/runtime/generations.ts), and what changed is printed; an invalid
 * edit prints every problem as `path: field: reason` and the last good build keeps
 * serving until the file is fixed. A change to the code (`src/`, `functions/`,
 * `server.ts`, `astro.config.mjs`), to an image file (`content/media/`) or to the owner's
 * profile (`content/site.yaml`, which every page and document reads) rebuilds fully and
 * restarts the server.
 *
 * Two processes: this supervisor, which builds and watches the code, and the server
 * (this file with `--serve`), which a code change replaces. `PORT`, `HOST` and the other
 * variables of `npm run serve` apply.
 *
 * No save is lost while the loop starts. The supervisor watches the content before its
 * build reads it; the server watches it before it answers its first request. Between
 * the two, the supervisor keeps every content name it sees from the start of the build
 * and hands them to the server once the server watches (over the IPC channel), and the
 * server rebuilds them: an edit saved during the build, or before the server watched,
 * is in the build's generation or the next one (a file the build read unchanged rebuilds
 * to nothing).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { stripVTControlCharacters } from 'node:util';
import { ContentError } from '../compile/compile.ts';
import { isContentFile } from '../compile/content/load.ts';
import { PROFILE_FILE } from '../collections/profile.ts';
import { MEDIA_FOLDER, paths } from '../paths.ts';
import { renderPage } from '../site/render-page.ts';
import type { Generations } from './generations.ts';
import { serve } from './serve.ts';
import { watchFolder, type Watcher } from './watch.ts';

const CODE = ['src', 'functions', 'server.ts', 'astro.config.mjs'];
const log = (line: string) => console.log(`[dev] ${line}`);
/** A name that may be a content file or a folder of them (editors' swap and backup files are neither). */
const contentName = (name: string) => isContentFile(name) || !/[.~]/.test(name.split('/').pop() ?? '');

/** What the server and the supervisor say to each other over the IPC channel. */
type Handoff = { type: 'watching' } | { type: 'changed'; names: string[] };

const isChanged = (message: unknown): message is Extract<Handoff, { type: 'changed' }> =>
  typeof message === 'object' && message !== null && (message as Handoff).type === 'changed' && Array.isArray((message as { names?: unknown }).names);

/** Rebuilds for `names` and prints what it gave. */
function rebuildFor(generations: Generations, names: string[]): void {
  generations.rebuild(names).then(
    (result) => {
      if (!result.swapped) return log(`${names.join(', ')}: nothing changed`);
      const steps = Object.entries(result.timings)
        .map(([step, ms]) => `${step} ${ms}`)
        .join(', ');
      log(
        `generation ${result.generation} serving in ${Math.round(result.ms)} ms (${steps} ms; data as of ${result.asOf}); changed: ${result.changed.join(' ') || 'records only'}`,
      );
      for (const warning of result.warnings) log(`warning: ${warning}`);
    },
    (error: unknown) => {
      if (error instanceof ContentError) log(`${error.message}\n[dev] still serving the last good build; fix the file and save again`);
      else console.error(error);
    },
  );
}

/**
 * The server process: watch the content, serve the build, rebuild and swap on every
 * content change. Watching comes first, so a save made at any time after the first
 * answer (or before it) is rebuilt; changes seen before the build is open wait for it.
 */
async function serveAndWatch(): Promise<void> {
  let generations: Generations | undefined;
  const early = new Set<string>();
  const changed = (names: string[]) => {
    if (generations) rebuildFor(generations, names);
    else for (const name of names) early.add(name);
  };
  watchFolder(paths.content, contentName, changed);
  process.on('message', (message: unknown) => {
    if (isChanged(message) && message.names.length > 0) changed(message.names);
  });
  if (process.send && process.connected) process.send({ type: 'watching' } satisfies Handoff);
  const served = await serve();
  generations = served.generations;
  log(`listening on ${served.url}, watching ${relative(process.cwd(), paths.content) || '.'}`);
  if (early.size > 0) changed([...early].sort());
  // Astro loads its page modules on first use, and the exports and calendars are kept as
  // per-record fragments: load and render them now rather than during the first edit. A
  // rebuild meanwhile is not held back: fragments are kept by their record's JSON, so the
  // two only share work.
  const warming = performance.now();
  await renderPage(generations.current().pages, '/rerender/home', { core: generations.current().core }).catch(() => undefined);
  await generations.warm();
  log(`ready for edits (warmed in ${((performance.now() - warming) / 1000).toFixed(1)} s)`);
}

/**
 * `astro build` into `DIST_DIR`, its output shown only when it fails (at scale it lists
 * every page) but for the compile's summary and warnings, shown as they come. `started`
 * is given the build's process, which a stop of the supervisor ends.
 */
async function build(started: (child: ChildProcess) => void): Promise<boolean> {
  log('building');
  const began = performance.now();
  const child = spawn(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build'], { stdio: ['ignore', 'pipe', 'pipe'] });
  started(child);
  const tail: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    // Astro colours its log when CI is set, as on CI machines (picocolors): the lines are read as text.
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (coloured) => {
      const line = stripVTControlCharacters(coloured);
      tail.push(line);
      if (tail.length > 40) tail.shift();
      if (/compiled \d+ records|\[WARN\]/.test(line)) log(line.replace(/^.*?\] /, ''));
    });
  }
  // 'close', not 'exit': the output is read to its end.
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) {
    console.error(tail.join('\n'));
    log('the build failed; fix it and save again');
    return false;
  }
  log(`built in ${((performance.now() - began) / 1000).toFixed(1)} s`);
  return true;
}

/**
 * The supervisor: build, start the server, and on a code change stop it, build again and
 * restart it. Content changes are the server's, but from the start of a build until its
 * server watches they are kept here and handed over (see the header).
 */
async function supervise(): Promise<void> {
  let server: ChildProcess | undefined;
  let building: ChildProcess | undefined;
  let busy = false;
  let again = false;
  /** Content names seen since the current build began, until its server watches. */
  let unseen: Set<string> | undefined;
  const stop = async () => {
    if (server === undefined || server.exitCode !== null) return;
    const stopping = server;
    server = undefined;
    stopping.kill('SIGTERM');
    await once(stopping, 'exit');
  };
  const start = (seen: Set<string>, content: Watcher) => {
    const child = spawn(process.execPath, ['--max-semi-space-size=4', import.meta.filename, '--serve'], { stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
    server = child;
    child.on('message', (message: unknown) => {
      if ((message as Handoff | null)?.type !== 'watching') return;
      // In the next check phase: the watch events already queued when the server began
      // watching are handled first, so a save made just before is among the names.
      setImmediate(() => {
        if (unseen !== seen) return;
        unseen = undefined;
        const names = [...new Set([...seen, ...content.pending()])].sort();
        // A server gone meanwhile loses nothing: the build that replaces it reads every file.
        if (child.connected)
          child.send(
            { type: 'changed', names } satisfies Handoff,
            (error) => error && log(`could not hand ${names.length} changed names to the server: ${error.message}`),
          );
      });
    });
    child.once('exit', (code) => server === child && log(`the server stopped (${code}); save a file to build and start it again`));
  };
  const cycle = async (content: Watcher) => {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    do {
      again = false;
      await stop();
      const seen = new Set<string>();
      unseen = seen;
      const built = await build((child) => (building = child));
      building = undefined;
      if (built) start(seen, content);
      // A failed build read the content before a save made meanwhile, which may be the fix.
      else if (seen.size > 0) again = true;
    } while (again);
    busy = false;
  };
  // Content is the server's to watch once it does; while no server runs (the build failed), a content change retries the build.
  const content = watchFolder(
    paths.content,
    contentName,
    (names) => {
      for (const name of names) unseen?.add(name);
      // The profile is read by every page and document, which an incremental rebuild does not redo.
      if (names.includes(PROFILE_FILE)) {
        log(`${PROFILE_FILE} changed: full rebuild and restart`);
        void cycle(content);
      } else if (!busy && (server === undefined || server.exitCode !== null)) void cycle(content);
    },
    200,
  );
  const watchers: Watcher[] = [content];
  for (const p of CODE.filter((p) => existsSync(p))) {
    watchers.push(
      watchFolder(
        p,
        () => true,
        (names) => {
          log(`${p}: ${names.slice(0, 3).join(', ')}${names.length > 3 ? '…' : ''} changed: full rebuild and restart`);
          void cycle(content);
        },
        200,
      ),
    );
  }
  // Image files are published by the full build (src/compile/content/media.ts): a change to one rebuilds and restarts.
  const media = join(paths.content, MEDIA_FOLDER);
  if (existsSync(media)) {
    watchers.push(
      watchFolder(
        media,
        () => true,
        (names) => {
          log(`${MEDIA_FOLDER}: ${names.slice(0, 3).join(', ')}${names.length > 3 ? '…' : ''} changed: full rebuild and restart`);
          void cycle(content);
        },
        200,
      ),
    );
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      for (const w of watchers) w.close();
      building?.kill('SIGTERM');
      void stop().finally(() => process.exit(0));
    });
  }
  await cycle(content);
}

if (process.argv.includes('--serve')) await serveAndWatch();
else await supervise();
