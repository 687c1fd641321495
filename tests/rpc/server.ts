/**
 * An in-process server for the RPC tests: the built runtime behind the real dispatcher
 * and node:http adapter, on a free port, so the capnweb client talks HTTP and WebSocket
 * to exactly what `server.ts` serves. Routes may be swapped (tests lower limits).
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { paths } from '../../src/paths.ts';
import { createDispatcher } from '../../src/runtime/dispatch.ts';
import { createNodeServer } from '../../src/runtime/node.ts';
import { ROUTES, type Route } from '../../src/runtime/routes.ts';
import { Runtime } from '../../src/runtime/runtime.ts';

export interface RpcServer {
  base: string;
  rpcUrl: string;
  wsUrl: string;
  runtime: Runtime;
  close(): Promise<void>;
}

export async function startRpcServer(routes: readonly Route[] = ROUTES, runtime?: Runtime): Promise<RpcServer> {
  const rt = runtime ?? (await Runtime.open({ distDir: paths.dist }));
  const server = createNodeServer(createDispatcher(() => rt, routes));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    rpcUrl: `${base}/api/rpc`,
    wsUrl: `${base.replace('http', 'ws')}/api/rpc`,
    runtime: rt,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      if (!runtime) await rt.close();
    },
  };
}
