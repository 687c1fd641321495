/**
 * `npm run dev`: the live authoring loop. Builds once (`astro build`), serves the build
 * with the project's own runtime, and watches the content folder (`CONTENT_DIR`): a
 * saved edit, a new file or a deletion is rebuilt incrementally and swapped under the
 * running server (src/runtime/generations.ts), and what changed is printed; an invalid
 * edit prints every problem as `path: field: reason` and the last good build keeps
 * serving until the file is fixed. A change to the code (`src/`, `functions/`,
 * `server.ts`, `astro.config.mjs`) or to an image file (`content/media/`) rebuilds fully
 * and restarts the server.
 *
 * Two processes: this supervisor, which builds and watches the code, and the server
 * (this file with `--serve`), which a code change replaces. `PORT`, `HOST` and the other
 * variables of `npm run serve` apply.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ContentError } from '../compile/compile.ts';
import { isContentFile } from '../compile/load.ts';
import { MEDIA_FOLDER, paths } from '../paths.ts';
import { renderPage } from './render-page.ts';
import { serve } from './serve.ts';
import { watchFolder, type Watcher } from './watch.ts';

const CODE = ['src', 'functions', 'server.ts', 'astro.config.mjs'];
const log = (line: string) => console.log(`[dev] ${line}`);
/** A name that may be a content file or a folder of them (editors' swap and backup files are neither). */
const contentName = (name: string) => isContentFile(name) || !/[.~]/.test(name.split('/').pop() ?? '');

/** The server process: serve the build, rebuild and swap on every content change. */
async function serveAndWatch(): Promise<void> {
  const { generations, url } = await serve();
  log(`listening on ${url}, watching ${relative(process.cwd(), paths.content) || '.'}`);
  // Astro loads its page modules on first use, and the exports and calendars are kept as
  // per-record fragments: load and render them now rather than during the first edit.
  const warming = performance.now();
  await renderPage(generations.current().pages, '/rerender/home', { core: generations.current().core }).catch(() => undefined);
  await generations.warm();
  log(`ready for edits (warmed in ${((performance.now() - warming) / 1000).toFixed(1)} s)`);
  watchFolder(paths.content, contentName, (names) => {
    generations.rebuild(names).then(
      (result) => {
        if (!result.swapped) return log(`${names.join(', ')}: nothing changed`);
        const steps = Object.entries(result.timings).map(([step, ms]) => `${step} ${ms}`).join(', ');
        log(`generation ${result.generation} serving in ${Math.round(result.ms)} ms (${steps} ms; data as of ${result.asOf}); changed: ${result.changed.join(' ') || 'records only'}`);
        for (const warning of result.warnings) log(`warning: ${warning}`);
      },
      (error: unknown) => {
        if (error instanceof ContentError) log(`${error.message}\n[dev] still serving the last good build; fix the file and save again`);
        else console.error(error);
      },
    );
  });
}

/** `astro build` into `DIST_DIR`, its output shown only when it fails (at scale it lists every page). */
async function build(): Promise<boolean> {
  log('building');
  const started = performance.now();
  const child = spawn(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d));
  child.stderr!.on('data', (d: Buffer) => (output += d));
  const [code] = (await once(child, 'exit')) as [number | null];
  for (const line of output.split('\n')) if (/compiled \d+ records|\[WARN\]/.test(line)) log(line.replace(/^.*?\] /, ''));
  if (code !== 0) {
    console.error(output.split('\n').slice(-40).join('\n'));
    log('the build failed; fix it and save again');
    return false;
  }
  log(`built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

/** The supervisor: build, start the server, and on a code change stop it, build again and restart it. */
async function supervise(): Promise<void> {
  let server: ChildProcess | undefined;
  let busy = false;
  let again = false;
  const stop = async () => {
    if (server === undefined || server.exitCode !== null) return;
    const stopping = server;
    server = undefined;
    stopping.kill('SIGTERM');
    await once(stopping, 'exit');
  };
  const cycle = async () => {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    do {
      again = false;
      await stop();
      if (await build()) {
        const started = spawn(process.execPath, ['--max-semi-space-size=4', import.meta.filename, '--serve'], { stdio: 'inherit' });
        server = started;
        started.once('exit', (code) => server === started && log(`the server stopped (${code}); save a file to build and start it again`));
      }
    } while (again);
    busy = false;
  };
  const watchers: Watcher[] = CODE.filter((p) => existsSync(p)).map((p) =>
    watchFolder(p, () => true, (names) => {
      log(`${p}: ${names.slice(0, 3).join(', ')}${names.length > 3 ? '…' : ''} changed: full rebuild and restart`);
      void cycle();
    }, 200),
  );
  // Image files are published by the full build (src/compile/media.ts): a change to one rebuilds and restarts.
  const media = join(paths.content, MEDIA_FOLDER);
  if (existsSync(media)) {
    watchers.push(watchFolder(media, () => true, (names) => {
      log(`${MEDIA_FOLDER}: ${names.slice(0, 3).join(', ')}${names.length > 3 ? '…' : ''} changed: full rebuild and restart`);
      void cycle();
    }, 200));
  }
  // Content is the server's to watch; while no server runs (the build failed), a content change retries the build.
  watchers.push(watchFolder(paths.content, contentName, () => (server === undefined || server.exitCode !== null ? void cycle() : undefined), 200));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      for (const w of watchers) w.close();
      void stop().finally(() => process.exit(0));
    });
  }
  await cycle();
}

if (process.argv.includes('--serve')) await serveAndWatch();
else await supervise();
