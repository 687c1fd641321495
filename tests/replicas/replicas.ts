/**
 * Replicas for the replica tests: `npm run serve`'s entry (`server.ts`, the built `dist/`)
 * as separate processes on free loopback ports, each with its own environment, stopped
 * with SIGTERM as a container runtime stops them, their exit code kept.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

export interface Replica {
  base: string;
  /** `127.0.0.1:<port>`, for the balancer. */
  address: string;
  child: ChildProcess;
  /** Everything the replica printed. */
  output(): string;
  /** SIGTERM, then its exit code (null when a signal ended it). */
  stop(): Promise<number | null>;
}

export async function startReplica(env: Record<string, string> = {}): Promise<Replica> {
  const child = spawn(process.execPath, ['--max-semi-space-size=4', 'server.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`replica exited early (${code}): ${output}`)));
  });
  return {
    base,
    address: new URL(base).host,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      return code;
    },
  };
}
