/**
 * An in-process server for the RPC tests: the built runtime behind the real dispatcher
 * and node:http adapter, on a free port, so the capnweb client talks HTTP and WebSocket
 * to exactly what `server.ts` serves. Routes may be swapped (tests lower limits).
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createRpcHandler, upgradeFacts, type RpcOptions } from '../../functions/rpc.ts';
import { paths } from '../../src/paths.ts';
import { createDispatcher } from '../../src/runtime/dispatch.ts';
import { createNodeServer, endWithAnswer } from '../../src/runtime/node.ts';
import { TEST_KEEP_ALIVE_MS } from '../helpers/keep-alive.ts';
import type { Route } from '../../src/runtime/route.ts';
import { DISPATCH_TABLE, ROUTES } from '../../src/runtime/routes.ts';
import { ServingRuntime } from '../../src/runtime/serving.ts';

export interface RpcServer {
  base: string;
  rpcUrl: string;
  wsUrl: string;
  runtime: ServingRuntime;
  /** Destroys every upgraded socket at once, as a network failure would (no close frame). */
  dropSockets(): void;
  close(): Promise<void>;
}

/** The route table with the RPC route's handler made with `options` (its own session counters). */
export function routesWithRpc(runtime: ServingRuntime, options: RpcOptions): Route[] {
  const rpc = createRpcHandler(runtime.core, { search: runtime.search, taste: runtime.tasteSources, ...options });
  return ROUTES.map((route) =>
    route.name !== 'rpc' || route.kind !== 'fetch'
      ? route
      : {
          ...route,
          fetch: (rt, exchange) => rpc.batch(exchange, rt.clientOf(exchange.facts)),
          upgrade: (rt, req, socket, head) => {
            void Promise.resolve(rpc.upgrade(req, socket, head, rt.clientOf(upgradeFacts(req)))).then((refusal) => refusal && endWithAnswer(socket, refusal));
          },
        },
  );
}

/** A server on the built runtime; `rpc` options make the RPC route's handler afresh (tests lower or raise its limits). */
export async function startRpcServer(options: { rpc?: RpcOptions; runtime?: ServingRuntime } = {}): Promise<RpcServer> {
  const runtime = options.runtime;
  const rt = runtime ?? (await ServingRuntime.open({ distDir: paths.dist }));
  const routes = options.rpc ? routesWithRpc(rt, options.rpc) : ROUTES;
  const server = createNodeServer(
    createDispatcher(() => rt, { ...DISPATCH_TABLE, routes }),
    { keepAliveTimeoutMs: TEST_KEEP_ALIVE_MS },
  );
  const sockets = new Set<import('node:stream').Duplex>();
  server.on('upgrade', (_req, socket: import('node:stream').Duplex) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    rpcUrl: `${base}/api/rpc`,
    wsUrl: `${base.replace('http', 'ws')}/api/rpc`,
    runtime: rt,
    dropSockets: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      if (!runtime) await rt.close();
    },
  };
}
