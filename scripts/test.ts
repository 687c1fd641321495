/**
 * `npm test` and `npm run test:quick` (issue 42, item 4): the whole suite in as little wall
 * time as two cores allow, and the inner loop's unit and property tests without a build.
 *
 * Which group a test file is in is read off the file, never from a list kept here:
 * - quick: `tests/unit/**`, `tests/core/**` and every `*-properties.test.ts`. They start
 *   no server and need no Redis; some read the demo image of the last build (`dist/`).
 *   Tests that compile whole sites live in `tests/compile/**`, outside the quick group.
 * - alone: a file whose header comment has a line `@alone` (it holds a wall-clock promise,
 *   such as "ok within 5 s of Redis answering again", that a loaded machine breaks). These
 *   run after the rest, one at a time.
 * - the rest, which isolate themselves (port 0, a temporary folder per file, `STATE_DIR`
 *   per server, Redis keys under `runPrefix()`), so they run concurrently.
 * - slow: of the quick group and the rest, a file whose header has a line `@slow` (saying
 *   why) starts before the others, in a process of its own.
 *
 * `npm test` starts the format check, the import-cycle check, the type check and the build
 * at once (they only read the sources; the build alone writes `dist/`), the checks at a
 * lower priority, so the build gets the processor first. As soon as the build is done, the
 * quick group and the rest run in processes of `--per-process=N` files each (default 8),
 * `--concurrency=N` processes at a time (default 3), the `@slow` files first, beside
 * whichever check is still running; then, once the checks are done too, the `@alone` group,
 * a process per file. Every step runs even when another failed (the tests do not run
 * without a build), so one run reports everything; the exit status is 1 when anything failed.
 *
 * Every Node process of the run shares one V8 compile cache (`NODE_COMPILE_CACHE` is set to
 * `node_modules/.cache/node-compile-cache`): each test file and each server it starts otherwise compiles the
 * same few hundred modules again.
 *
 * `node scripts/test.ts [--quick] [--concurrency=N] [--per-process=N] [file…]` (`npm test -- --concurrency=2`): with
 * files, runs only those, grouped the same way, against the last build and without the checks.
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { existsSync, globSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
process.chdir(root);

/** The quick group (see the header). */
const isQuick = (file: string): boolean => /^tests\/(unit|core)\//.test(file) || file.endsWith('-properties.test.ts');

/** A line of the file's header comment starting with `@<mark>`. */
const marked = (file: string, mark: string): boolean => new RegExp(`^\\s*\\*\\s*@${mark}\\b`, 'm').test(readFileSync(file, 'utf8').slice(0, 4000));
/** The alone group: `@alone` on a line of the file's header comment. */
const isAlone = (file: string): boolean => marked(file, 'alone');

interface Step {
  name: string;
  ok: boolean;
  ms: number;
}

const steps: Step[] = [];
const started = performance.now();
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/**
 * The run's temporary folder, in memory where the system has one (/dev/shm): the tests
 * create and delete thousands of files, and on the benchmark machine's ext4 each new file
 * took about 0.84 ms of kernel time (the inode allocator scanning past recently deleted
 * ones) against 0.024 ms in memory; tests/compile/incremental.test.ts 4.8–7.9 → 2.1–2.4 s
 * of system CPU. Removed at the end, with whatever a failed test left in it.
 */
const temporary = existsSync('/dev/shm') ? mkdtempSync('/dev/shm/collections-test-') : undefined;
const env = {
  ...process.env,
  NODE_COMPILE_CACHE: join(root, 'node_modules', '.cache', 'node-compile-cache'),
  ...(temporary && { TMPDIR: temporary }),
};
const finish = (ok: boolean): never => {
  if (temporary) rmSync(temporary, { recursive: true, force: true });
  process.exit(ok ? 0 : 1);
};

/**
 * Runs a command to its end. A check's output is printed in one piece when it ends; the
 * test runner's (`live`) is passed on line by line, so the two never cut into each other's lines.
 */
function run(name: string, command: string, args: string[], options: { live?: boolean; background?: boolean; step?: boolean } = {}): Promise<boolean> {
  const live = options.live ?? false;
  const start = performance.now();
  return new Promise((done) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    if (options.background && child.pid !== undefined) setPriority(child.pid, 10);
    let kept = '';
    const take = (chunk: Buffer) => {
      kept += chunk.toString();
      if (!live) return;
      const end = kept.lastIndexOf('\n') + 1;
      process.stdout.write(kept.slice(0, end));
      kept = kept.slice(end);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code) => {
      const step = { name, ok: code === 0, ms: performance.now() - start };
      if (options.step ?? true) steps.push(step);
      const tail = kept && !kept.endsWith('\n') ? `${kept}\n` : kept;
      process.stdout.write(`${tail}# ${step.ok ? 'ok' : 'FAILED'}: ${name} (${seconds(step.ms)})\n`);
      done(step.ok);
    });
  });
}

/**
 * Runs test files in processes of `perProcess` files each, `concurrency` processes at a
 * time, the next process starting as one ends. A process runs its files one after another
 * in node:test's isolation `none`: it loads the project's modules once for all of them,
 * where a process per file loaded them for each (the 41 HTTP, GraphQL and RPC files: 59 s
 * of CPU in one process against about 100 s in one process each). Its output is printed in
 * one piece when it ends, so processes never cut into each other's lines. Each file's
 * tests and hooks run in a suite of its own (tests/helpers/shared-process.ts); files that
 * share a process share its globals, so a test that changes one (`process.env.TZ`)
 * restores it.
 */
async function nodeTest(name: string, files: string[], concurrency: number, perProcess: number): Promise<boolean> {
  if (files.length === 0) return true;
  const start = performance.now();
  // A file marked `@slow` starts first, in a process of its own: started last, it would be the
  // run's tail, one core busy and the other idle (the site's browser test, 30–55 s).
  const slow = files.filter((f) => marked(f, 'slow'));
  const others = files.filter((f) => !slow.includes(f));
  const groups: string[][] = slow.map((f) => [f]);
  for (let i = 0; i < others.length; i += perProcess) groups.push(others.slice(i, i + perProcess));
  let next = 0;
  let ok = true;
  const lane = async () => {
    while (next < groups.length) {
      const group = groups[next++]!;
      const shared = group.length > 1 ? ['--test-isolation=none', '--import', './tests/helpers/shared-process.ts'] : [];
      const args = [...shared, '--test', '--test-reporter=spec', ...group];
      ok = (await run(`${group.join(' ')}`, process.execPath, args, { step: false })) && ok;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, groups.length) }, lane));
  steps.push({ name: `${name} (${files.length} files, ${perProcess} per process, ${concurrency} processes at a time)`, ok, ms: performance.now() - start });
  return ok;
}

const args = process.argv.slice(2);
const named = args.filter((a) => !a.startsWith('--'));
const all = (named.length > 0 ? named : globSync('tests/**/*.test.ts')).map((f) => f.replaceAll('\\', '/')).sort();
const quick = all.filter(isQuick);
const alone = all.filter((f) => !isQuick(f) && isAlone(f));
const rest = all.filter((f) => !isQuick(f) && !isAlone(f));
const option = (name: string, fallback: number) =>
  Number(new RegExp(`^--${name}=(\\d+)$`).exec(args.find((a) => a.startsWith(`--${name}=`)) ?? '')?.[1] ?? fallback);
const concurrency = option('concurrency', 3);
const perProcess = option('per-process', 8);

if (args.includes('--quick')) finish(await nodeTest('quick tests', quick, 2, perProcess));
if (named.length > 0) {
  // Named files: only those, against the last build, no checks.
  const ok = (await nodeTest('tests', [...rest, ...quick], concurrency, perProcess)) && (await nodeTest('tests that run alone', alone, 1, 1));
  finish(ok);
}

// The browser tests' Chromium is unpacked into the temporary folder the first time it is
// asked for, and files started together would each find a half-written one: unpack it first.
const unpack = run('unpack Chromium', process.execPath, ['--input-type=module', '-e', "await (await import('@sparticuz/chromium')).default.executablePath()"]);
// The checks yield the processor to the build and the tests (lower priority), and use the time those spend waiting.
const checks = [
  run('format check', 'npm', ['run', '--silent', 'format:check'], { background: true }),
  run('import cycles', 'npm', ['run', '--silent', 'check:cycles'], { background: true }),
  run('type check', 'npm', ['run', '--silent', 'check'], { background: true }),
];
const built = await run('build', 'npm', ['run', '--silent', 'build']);
await unpack;
if (built) await nodeTest('tests', [...rest, ...quick], concurrency, perProcess);
await Promise.all(checks);
if (built) await nodeTest('tests that run alone', alone, 1, 1);
else console.log('# the build failed: the tests, which need it, did not run');

console.log(`\n# ${steps.map((s) => `${s.ok ? 'ok    ' : 'FAILED'} ${seconds(s.ms).padStart(8)}  ${s.name}`).join('\n# ')}`);
console.log(`# npm test: ${seconds(performance.now() - started)}`);
finish(steps.every((s) => s.ok));
