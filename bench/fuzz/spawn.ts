/**
 * The server under attack. Either one the fuzzer starts itself — the built server
 * (`node --max-semi-space-size=4 server.ts`, as `npm run serve` runs it) on a free port,
 * with the quotas lifted so the campaign is not answered by 429s, and loop-monitor.ts
 * loaded into it — which it can watch (a crash is the process exiting; RSS is read from
 * /proc/<pid>/status; the server's own event-loop delay is asked over IPC) and restart
 * after a crash or a freeze; or one already running at `--base`, which it can only probe.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LOOP_MONITOR, loopDelayOf, type LoopDelay } from './loop-delay.ts';

/** The project root: the built server reads dist/ relative to it. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The quotas the spawned server runs with: one fuzzer is one client, and a 429 answers nothing about the surface. */
const UNLIMITED = String(Number.MAX_SAFE_INTEGER);
const SERVER_ENV = { RATE_LIMIT_REQUESTS: UNLIMITED, SQL_RATE_LIMIT_REQUESTS: UNLIMITED, GRAPHQL_COST_BUDGET: UNLIMITED };
/** Lines of the server's stderr kept for the report (a crash prints its stack there). */
const STDERR_LINES = 40;

export interface Exit {
  code: number | null;
  signal: string | null;
  /** The last lines the server wrote to stderr before it exited. */
  stderr: string[];
}

export interface Target {
  host: string;
  port: number;
  /** The process id, when the fuzzer started it or was told it (`--pid`). */
  pid: number | undefined;
  /** Set once the current process has exited. */
  exited: Exit | undefined;
  /** Whether the fuzzer owns the process (and may restart it). */
  owned: boolean;
  restarts: number;
  /** Lines written to stderr by the server (logged internal errors among them). */
  stderrLines: number;
  /** Kills the current process (SIGKILL: a frozen event loop never runs a SIGTERM handler) and starts a new one. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  /** Resident set size now, in MB (undefined without a pid). */
  rssMb(): number | undefined;
  /** The highest RSS the process reached (VmHWM), in MB. */
  peakRssMb(): number | undefined;
  /**
   * The server's own event-loop delay (loop-monitor.ts), when the fuzzer started it: the
   * longest since `since` (epoch ms) and the run's figures; undefined when the server does
   * not answer within `timeoutMs` (its event loop is held now), or cannot be asked.
   */
  loopDelay?(since: number, timeoutMs: number, startRun?: boolean): Promise<LoopDelay | undefined>;
}

function readStatus(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const kb = new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

export function attach(base: string, pid?: number): Target {
  const url = new URL(base);
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port || 80),
    pid,
    exited: undefined,
    owned: false,
    restarts: 0,
    stderrLines: 0,
    restart: () => Promise.reject(new Error('the server at --base is not the fuzzer’s to restart')),
    stop: async () => {},
    rssMb: () => readStatus(pid, 'VmRSS'),
    peakRssMb: () => readStatus(pid, 'VmHWM'),
  };
}

export async function spawnServer(env: Record<string, string> = {}): Promise<Target> {
  let child: ChildProcess;
  let askLoopDelay: ReturnType<typeof loopDelayOf> | undefined;
  const target: Target = {
    host: '127.0.0.1',
    port: 0,
    pid: undefined,
    exited: undefined,
    owned: true,
    restarts: 0,
    stderrLines: 0,
    restart: async () => {
      await target.stop();
      target.restarts++;
      await start();
    },
    stop: async () => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
    rssMb: () => readStatus(target.pid, 'VmRSS'),
    peakRssMb: () => readStatus(target.pid, 'VmHWM'),
    loopDelay: (since, timeoutMs, startRun) => askLoopDelay?.(since, timeoutMs, startRun) ?? Promise.resolve(undefined),
  };
  const start = async () => {
    // Each process has its own lines: a crashed one may still be flushing stderr after its exit event, and after the next one started.
    const stderr: string[] = [];
    target.exited = undefined;
    child = spawn(process.execPath, ['--max-semi-space-size=4', '--import', LOOP_MONITOR, 'server.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...SERVER_ENV, ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    askLoopDelay = loopDelayOf(child);
    const current = child;
    let partial = '';
    current.stderr!.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop()!;
      target.stderrLines += lines.length;
      stderr.push(...lines);
      if (stderr.length > STDERR_LINES) stderr.splice(0, stderr.length - STDERR_LINES);
    });
    current.stderr!.once('end', () => {
      if (partial) stderr.push(partial);
    });
    current.once('exit', (code, signal) => {
      if (current === child) target.exited = { code, signal, stderr };
    });
    let output = '';
    target.port = await new Promise<number>((resolve, reject) => {
      // Keeps draining stdout after the port is known, so the child never blocks on a full pipe.
      current.stdout!.on('data', (chunk: Buffer) => {
        if (output.length > 4096) return;
        output += chunk.toString();
        const match = /listening on http:\/\/[^:]+:(\d+)/.exec(output);
        if (match) resolve(Number(match[1]));
      });
      current.once('exit', (code) => reject(new Error(`the server exited while starting (${code}): ${output}${stderr.join('\n')}`)));
    });
    target.pid = current.pid;
    // The run's event-loop figures begin now that it listens: its start-up is not serving.
    await askLoopDelay(performance.timeOrigin + performance.now(), 10_000, true);
  };
  await start();
  return target;
}
