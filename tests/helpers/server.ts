/**
 * Starts the real built server (`node server.ts`, as `npm run serve` runs it) on a free
 * port for HTTP tests, its stderr shown, and stops it afterwards. Tests that use it need
 * `npm run build` to have run, which `npm test` does first.
 *
 * Each server keeps its state (`STATE_DIR`: the OAuth store, the journal, the content lock)
 * in a temporary folder of its own, removed when it stops, unless the test names one: test
 * files run concurrently, and a project-wide `state/` would be shared between them. It keeps
 * idle connections as long as the tests' in-process servers do (keep-alive.ts), and starts
 * its SQL workers at the first statement (`SQL_WARM=0`): most test servers run none.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReplica } from '../../bench/replica-harness.ts';
import { TEST_KEEP_ALIVE_MS } from './keep-alive.ts';

export interface RunningServer {
  base: string;
  stop: () => Promise<void>;
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const ownState = env.STATE_DIR === undefined ? mkdtempSync(join(tmpdir(), 'server-state-')) : undefined;
  const removeState = () => ownState && rmSync(ownState, { recursive: true, force: true });
  const server = await startReplica(
    { KEEP_ALIVE_TIMEOUT_MS: String(TEST_KEEP_ALIVE_MS), SQL_WARM: '0', ...(ownState && { STATE_DIR: ownState }), ...env },
    { stderr: 'inherit' },
  ).catch((error: unknown) => {
    removeState();
    throw error;
  });
  return {
    base: server.base,
    stop: async () => {
      await server.stop();
      removeState();
    },
  };
}
