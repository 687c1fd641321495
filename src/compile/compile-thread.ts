/**
 * The compile on a thread of its own, for `astro build`: it runs while Vite bundles (a
 * few hundred MB at most since the GraphQL explorer is bundled apart), and when the
 * thread ends everything the compile held (its heap, its SQLite caches) goes back to the
 * system before Astro prerenders in the same process. A ContentError crosses the thread
 * as its problems and is raised again as itself; any other failure as its message and
 * stack.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import type { LoadProblem } from './content/load.ts';
import type { CompileOptions, CompileResult } from './compile.ts';

type Outcome = { result: CompileResult } | { problems: LoadProblem[] } | { error: string };

if (parentPort && (workerData as { compileThread?: boolean } | undefined)?.compileThread) {
  const port = parentPort;
  const { compile, ContentError } = await import('./compile.ts');
  const { options } = workerData as { options: CompileOptions };
  // V8's gc(), for the compile to collect between its phases (compile.ts, GARBAGE_ALLOWANCE): the
  // flag adds it to contexts made after it is set, so a new context hands it over.
  setFlagsFromString('--expose-gc');
  const collectGarbage = runInNewContext('gc') as () => void;
  let outcome: Outcome;
  try {
    outcome = { result: compile(options, collectGarbage) };
  } catch (error) {
    outcome =
      error instanceof ContentError ? { problems: [...error.problems] } : { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  port.postMessage(outcome);
}

/** `compile(options)` on a thread of its own. */
export async function compileOnThread(options: CompileOptions): Promise<CompileResult> {
  // A young generation of 32 MB rather than V8's default for a large heap: 70–120 MB less
  // peak RSS at 100k records, the same compile time (measured, three builds each).
  const worker = new Worker(new URL(import.meta.url), { workerData: { compileThread: true, options }, resourceLimits: { maxYoungGenerationSizeMb: 32 } });
  const outcome = await new Promise<Outcome>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the compile thread ended (exit code ${code}) without a result`)));
  });
  await worker.terminate();
  if ('result' in outcome) return outcome.result;
  if ('problems' in outcome) {
    const { ContentError } = await import('./compile.ts');
    throw new ContentError(outcome.problems);
  }
  throw new Error(`the compile failed: ${outcome.error}`);
}
