/**
 * Starts the real built server (`node server.ts`, as `npm run serve` runs it) on a free
 * port for HTTP tests, its stderr shown, and stops it afterwards. Tests that use it need
 * `npm run build` to have run, which `npm test` does first.
 */
import { startReplica } from '../../bench/replica-harness.ts';

export interface RunningServer {
  base: string;
  stop: () => Promise<void>;
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startReplica(env, { stderr: 'inherit' });
  return {
    base: server.base,
    stop: async () => void (await server.stop()),
  };
}
