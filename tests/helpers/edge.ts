/**
 * Cloudflare's own engine serving the build, for the edge tests: `wrangler pages dev
 * dist/client` (workerd from npm), with `ORIGIN_URL` pointing at a counting proxy in front
 * of the real runtime, so a test can tell which requests reached the origin. No account,
 * no network: metrics, the update check (it runs with the banner), the `Request.cf` fetch
 * and interactive prompts are off, every port
 * (the edge's, its inspector's, the proxy's, the runtime's) is a free one the OS gave,
 * and wrangler's state goes to a temporary folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { paths } from '../../src/paths.ts';
import { startServer, type RunningServer } from './server.ts';

export interface OriginHit {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export interface RunningEdge {
  /** The edge (wrangler pages dev). */
  edge: string;
  /** The runtime itself, bypassing the edge. */
  origin: string;
  /** Every request that reached the origin through the edge. */
  hits: OriginHit[];
  stop: () => Promise<void>;
}

/** A port the OS says is free. */
export async function freePort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

/** Forwards HTTP and WebSocket upgrades to `target`, recording each request. */
async function countingProxy(target: URL, hits: OriginHit[]) {
  const server = createServer((req, res) => {
    hits.push({ method: req.method!, url: req.url!, headers: req.headers });
    const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.statusMessage, answer.rawHeaders);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('upgrade', (req, socket, head) => {
    hits.push({ method: req.method!, url: req.url!, headers: req.headers });
    const upstream = connect(Number(target.port), target.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((done) => server.close(() => done())) };
}

/** The environment that keeps wrangler offline and non-interactive. */
export const WRANGLER_ENV = { CI: 'true', WRANGLER_SEND_METRICS: 'false', WRANGLER_HIDE_BANNER: 'true', CLOUDFLARE_CF_FETCH_ENABLED: 'false' };

/** A compatibility date the bundled workerd supports, fixed so the test never reads the clock. */
const COMPATIBILITY_DATE = '2026-04-01';

/** Starts the runtime (with `originEnv`, which may depend on the edge's own URL, as `SITE_URL` does), the counting proxy and the edge. */
export async function startEdge(originEnv: (edge: string) => Record<string, string> | Promise<Record<string, string>> = () => ({})): Promise<RunningEdge> {
  const [port, inspector] = [await freePort(), await freePort()];
  const edge = `http://127.0.0.1:${port}`;
  const runtime: RunningServer = await startServer({ TRUSTED_PROXIES: '127.0.0.1', ...(await originEnv(edge)) });
  const hits: OriginHit[] = [];
  const proxy = await countingProxy(new URL(runtime.base), hits);
  const state = mkdtempSync(join(tmpdir(), 'collections-edge-'));
  const wrangler = resolve('node_modules/wrangler/bin/wrangler.js');
  const args = [
    wrangler,
    'pages',
    'dev',
    paths.client,
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--inspector-port',
    String(inspector),
    '--compatibility-date',
    COMPATIBILITY_DATE,
    '--binding',
    `ORIGIN_URL=${proxy.url}`,
    '--persist-to',
    state,
    '--log-level',
    'warn',
  ];
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...process.env, ...WRANGLER_ENV, WRANGLER_LOG_PATH: state, XDG_CONFIG_HOME: state },
    cwd: state,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((done, fail) => {
    const exited = (code: number | null) => fail(new Error(`wrangler exited early (${code}): ${output}`));
    child.once('exit', exited);
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    // Ready once the edge answers (its log level hides the "Ready" line).
    const poll = async () => {
      try {
        await (await fetch(`${edge}/robots.txt`)).arrayBuffer();
        child.off('exit', exited);
        done();
      } catch {
        setTimeout(poll, 200);
      }
    };
    void poll();
  });
  hits.length = 0;
  return {
    edge,
    origin: runtime.base,
    hits,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      await proxy.close();
      await runtime.stop();
      rmSync(state, { recursive: true, force: true });
    },
  };
}
