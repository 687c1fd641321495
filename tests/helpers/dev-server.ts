/**
 * Starts the dev loop on a content folder of the test's own and follows what it prints,
 * so a test can wait for a state (built, listening, a rebuild served or refused) rather
 * than for time to pass. `startDevServer` starts its server alone (`node
 * src/runtime/dev.ts --serve`, what `npm run dev` runs after its build) on the built
 * `dist/`, which needs `npm run build` to have run on content the folder starts as a
 * copy of; `startDevLoop` starts all of `npm run dev` — the supervisor, its build into a
 * dist folder of the test's own, then the server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

export interface DevProcess {
  /** Lines printed so far. */
  lines: string[];
  /** The first line from index `from` on that matches, waiting for it. */
  waitFor(pattern: RegExp, from?: number, timeoutMs?: number): Promise<RegExpExecArray>;
  stop(): Promise<void>;
}

export interface DevServer extends DevProcess {
  base: string;
}

/** The line the server prints once it answers, with its address. */
export const LISTENING = /listening on (http:\/\/\S+),/;

function follow(child: ChildProcess): DevProcess {
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
      if (child.exitCode !== null) throw new Error(`the dev process stopped (${child.exitCode}):\n${lines.join('\n')}`);
      if (Date.now() - started > timeoutMs) throw new Error(`no line matched ${pattern} in ${timeoutMs} ms:\n${lines.slice(from).join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  return {
    lines,
    waitFor,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

const devEnv = (contentDir: string, env: Record<string, string>) => ({ ...process.env, CONTENT_DIR: contentDir, PORT: '0', HOST: '127.0.0.1', ...env });

/**
 * The dev server alone. Resolves once it prints that it listens and, unless `ready` is
 * false, that it is warmed up for edits.
 */
export async function startDevServer(contentDir: string, env: Record<string, string> = {}, { ready = true } = {}): Promise<DevServer> {
  const child = spawn(process.execPath, ['src/runtime/dev.ts', '--serve'], { env: devEnv(contentDir, env), stdio: ['ignore', 'pipe', 'inherit'] });
  const dev = follow(child);
  const base = (await dev.waitFor(LISTENING))[1]!;
  if (ready) await dev.waitFor(/ready for edits/);
  return { ...dev, base };
}

/** `npm run dev` (the supervisor), building into `distDir`; resolves at once, to follow its lines. */
export function startDevLoop(contentDir: string, distDir: string, env: Record<string, string> = {}): DevProcess {
  const child = spawn(process.execPath, ['src/runtime/dev.ts'], {
    env: devEnv(contentDir, { DIST_DIR: distDir, ...env }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return follow(child);
}
