/**
 * Starts the real built server (`node server.ts`) on a free port for HTTP tests, and
 * stops it afterwards. Tests that use it need `npm run build` to have run, which
 * `npm test` does first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

export interface RunningServer {
  base: string;
  stop: () => Promise<void>;
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const child: ChildProcess = spawn(process.execPath, ['server.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited early (${code}): ${output}`)));
  });
  return {
    base,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
