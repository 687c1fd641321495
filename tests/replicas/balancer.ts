/**
 * A small round-robin load balancer for the replica tests, in node:http: what nginx does
 * in docs/deploy/nginx.conf, reduced to what a rolling restart exercises. A request goes
 * to the next replica; when the connection to it fails before any answer arrives
 * (refused: the replica stopped listening; reset: it closed a kept-alive connection as
 * the request left) an idempotent request is sent to the next one, as nginx's
 * `proxy_next_upstream error` does. A WebSocket handshake is passed through as bytes
 * (close frames included), tried on the next replica when the connection fails before
 * any byte comes back.
 * Our own rather than an npm proxy, because the retry rule is the behaviour under test
 * and http-proxy (the usual package) has no such retry and is unmaintained.
 *
 * With `health`, it is the stricter balancer of issue 38 instead: it retries nothing, and
 * sends requests only to the replicas whose `GET <path>` answered 200 at its last check,
 * one check per replica every `everyMs` (as nginx Plus's `health_check`, HAProxy's
 * `check inter` and a Kubernetes readiness probe do). A replica starts out of rotation
 * until its first check passes. So any request a stopping replica resets or refuses is a
 * failure the client sees.
 */
import { createServer, request as httpRequest, Agent, type IncomingMessage, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';

export interface HealthChecks {
  path: string;
  everyMs: number;
}

export interface Balancer {
  base: string;
  /** The replicas' `host:port`, replaced as replicas restart. */
  upstreams: string[];
  /** Requests retried on another replica, by error code. */
  retries: Record<string, number>;
  /** With health checks: the replicas in rotation now. */
  healthy: Set<string>;
  close(): Promise<void>;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);

function split(upstream: string): { host: string; port: number } {
  const at = upstream.lastIndexOf(':');
  return { host: upstream.slice(0, at), port: Number(upstream.slice(at + 1)) };
}

export async function startBalancer(upstreams: string[], health?: HealthChecks): Promise<Balancer> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let next = 0;
  const retries: Record<string, number> = {};
  const healthy = new Set<string>(health ? [] : upstreams);
  /** The replicas a request may go to: all of them, or with health checks those whose last check passed. */
  const rotation = () => (health ? state.upstreams.filter((u) => healthy.has(u)) : state.upstreams);
  /** The replica for a request's try: round robin for the first, then the ones after it in turn. */
  const pick = (first: number, tries: number) => {
    const live = rotation();
    return live[(first + tries) % live.length] ?? state.upstreams[0]!;
  };
  const retry = (code: string) => (retries[code] = (retries[code] ?? 0) + 1);

  const forward = (
    req: IncomingMessage,
    body: Buffer,
    first: number,
    tries: number,
    reply: (upstream: IncomingMessage) => void,
    fail: (error: Error) => void,
  ) => {
    const { host, port } = split(pick(first, tries));
    let answered = false;
    const out = httpRequest({ host, port, method: req.method, path: req.url, headers: req.headers, agent }, (upstream) => {
      answered = true;
      reply(upstream);
    });
    out.once('error', (error: NodeJS.ErrnoException) => {
      const before = !answered;
      const retriable = !health && (error.code === 'ECONNREFUSED' || (IDEMPOTENT.has(req.method ?? '') && ['ECONNRESET', 'EPIPE'].includes(error.code ?? '')));
      if (before && retriable && tries < state.upstreams.length * 2) {
        retry(error.code ?? 'error');
        forward(req, body, first, tries + 1, reply, fail);
      } else fail(Object.assign(error, { upstream: `${host}:${port}` }));
    });
    out.end(body);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () =>
      forward(
        req,
        Buffer.concat(chunks),
        next++,
        0,
        (upstream) => {
          res.writeHead(upstream.statusCode ?? 502, upstream.headers);
          upstream.once('aborted', () => res.destroy());
          upstream.pipe(res);
        },
        (error: NodeJS.ErrnoException) => {
          res.writeHead(502, { 'Content-Type': 'text/plain' });
          res.end(`bad gateway: ${error.code ?? error.message} from ${(error as { upstream?: string }).upstream ?? '?'}`);
        },
      ),
    );
  });

  server.on('upgrade', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    const handshake = `${req.method} ${req.url} HTTP/1.1\r\n${Object.entries(req.headers)
      .map(([name, value]) => `${name}: ${String(value)}`)
      .join('\r\n')}\r\n\r\n`;
    const first = next++;
    const attempt = (tries: number) => {
      const { host, port } = split(pick(first, tries));
      const upstream: Socket = connect(port, host, () => {
        upstream.write(handshake);
        if (head.length) upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      upstream.once('error', (error: NodeJS.ErrnoException) => {
        // Nothing came back: the replica refused the connection, or closed it unanswered as it stopped; the handshake is a GET.
        if (!health && ['ECONNREFUSED', 'ECONNRESET', 'EPIPE'].includes(error.code ?? '') && tries < state.upstreams.length * 2 && upstream.bytesRead === 0) {
          retry(`upgrade ${error.code}`);
          attempt(tries + 1);
        } else client.destroy();
      });
      client.once('error', () => upstream.destroy());
      client.once('close', () => upstream.end());
      upstream.once('close', () => upstream.bytesRead > 0 && client.end());
    };
    attempt(0);
  });

  // One check per replica per interval, each on a connection of its own (as a health checker's), bounded by the interval.
  const check = (upstream: string) => {
    const { host, port } = split(upstream);
    const probe = httpRequest({ host, port, path: health!.path, agent: false, timeout: health!.everyMs }, (answer) => {
      answer.resume();
      if (answer.statusCode === 200) healthy.add(upstream);
      else healthy.delete(upstream);
    });
    probe.once('timeout', () => probe.destroy(new Error('timeout')));
    probe.once('error', () => healthy.delete(upstream));
    probe.end();
  };
  const checks = health
    ? setInterval(() => {
        for (const upstream of state.upstreams) check(upstream);
        for (const upstream of healthy) if (!state.upstreams.includes(upstream)) healthy.delete(upstream);
      }, health.everyMs)
    : undefined;

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const state: Balancer = {
    base: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    upstreams,
    retries,
    healthy,
    close: async () => {
      clearInterval(checks);
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return state;
}
