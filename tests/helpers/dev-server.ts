/**
 * Starts the dev loop's server (`node src/runtime/dev.ts --serve`, what `npm run dev`
 * runs after its build) on the built `dist/` and a content folder of the test's own, and
 * follows what it prints, so a test can wait for a rebuild to be served or refused.
 * Needs `npm run build` to have run on content the folder starts as a copy of.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';

export interface DevServer {
  base: string;
  /** Lines printed so far. */
  lines: string[];
  /** The first line from index `from` on that matches, waiting for it. */
  waitFor(pattern: RegExp, from?: number, timeoutMs?: number): Promise<RegExpExecArray>;
  stop(): Promise<void>;
}

export async function startDevServer(contentDir: string, env: Record<string, string> = {}): Promise<DevServer> {
  const child = spawn(process.execPath, ['src/runtime/dev.ts', '--serve'], {
    env: { ...process.env, CONTENT_DIR: contentDir, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
  });
  const waitFor = async (pattern: RegExp, from = 0, timeoutMs = 60_000): Promise<RegExpExecArray> => {
    const started = Date.now();
    for (;;) {
      for (const line of lines.slice(from)) {
        const match = pattern.exec(line);
        if (match) return match;
      }
      if (child.exitCode !== null) throw new Error(`the dev server stopped (${child.exitCode}):\n${lines.join('\n')}`);
      if (Date.now() - started > timeoutMs) throw new Error(`no line matched ${pattern} in ${timeoutMs} ms:\n${lines.slice(from).join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const base = (await waitFor(/listening on (http:\/\/\S+),/))[1]!;
  await waitFor(/ready for edits/);
  return {
    base,
    lines,
    waitFor,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
