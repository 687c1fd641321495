/**
 * The processes the benchmark loads, one at a time: the runtime (`server.ts`), the bare
 * node:http baseline, and nginx where it is installed. Each reports the pid whose memory
 * is sampled from /proc while it is under load.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

export interface Running {
  base: string;
  /** The processes whose VmRSS is summed (nginx: master and worker). */
  pids: () => number[];
  stop: () => Promise<void>;
}

/** Starts a Node program that prints `listening on <url>` once it accepts connections. */
export async function startNode(args: string[], env: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, args, { env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const base = await new Promise<string>((ok, fail) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) ok(m[1]!);
    });
    child.once('exit', () => fail(new Error(`${args.join(' ')} stopped:\n${out}`)));
  });
  return {
    base,
    pids: () => [child.pid!],
    stop: async () => {
      child.kill();
      await once(child, 'exit');
    },
  };
}

/** Whether nginx is on PATH. */
export function hasNginx(): boolean {
  return !spawnSync('nginx', ['-v']).error;
}

/** A loopback port free now. */
export const freePort = async () => {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  server.close();
  return port;
};

/** nginx serving `root` as static files: one worker, no logs, as a static file server is usually run. */
export async function startNginx(root: string, scratch: string): Promise<Running> {
  const port = await freePort();
  const prefix = resolve(scratch, 'nginx');
  mkdirSync(join(prefix, 'logs'), { recursive: true });
  writeFileSync(
    join(prefix, 'nginx.conf'),
    `worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log;
events { worker_connections 1024; }
http {
  include ${spawnSync('nginx', ['-V'], { encoding: 'utf8' }).stderr.match(/--conf-path=(\S+)\/nginx\.conf/)?.[1] ?? '/etc/nginx'}/mime.types;
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  client_body_temp_path ${prefix}/tmp;
  server { listen 127.0.0.1:${port}; root ${resolve(root)}; }
}
`,
  );
  return runNginx(prefix, `http://127.0.0.1:${port}`);
}

/** nginx with the configuration `<prefix>/nginx.conf` (which keeps it in the foreground), once it answers at `base`. */
export async function runNginx(prefix: string, base: string): Promise<Running> {
  const child = spawn('nginx', ['-p', prefix, '-c', join(prefix, 'nginx.conf')], { stdio: 'inherit' });
  for (let i = 0; ; i++) {
    try {
      await fetch(base);
      break;
    } catch (error) {
      if (i > 100 || child.exitCode !== null) throw error;
      await new Promise((ok) => setTimeout(ok, 50));
    }
  }
  const children = (pid: number) => readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  return {
    base,
    pids: () => [child.pid!, ...children(child.pid!)],
    stop: async () => {
      child.kill('SIGQUIT');
      await once(child, 'exit');
    },
  };
}

/** CPU time a process has used, user and system, all its threads, in seconds, from /proc (0 once it is gone). */
export function cpuSeconds(pid: number): number {
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, counted after the command's closing parenthesis (the name may hold spaces).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** Linux's USER_HZ, which /proc reports times in: 100 on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** The resident set of a process in MB, from /proc (0 once it is gone). */
export function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}
