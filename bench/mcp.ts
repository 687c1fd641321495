/**
 * `node bench/mcp.ts`: what the stateless MCP endpoint costs, on the demo build in
 * `dist/` (run `npm run build` first). Two figures:
 *
 * 1. In process, per request: a fresh `Server` + transport (what every POST /mcp makes),
 *    connected and closed, against the same answering a `tools/list` and a
 *    `tools/call taste.find`, so the fixed cost of statelessness shows beside the work.
 * 2. Over HTTP with autocannon against the real dispatcher, in the same run:
 *    `tools/call taste.find {collection: movies, limit: 20}` beside
 *    `GET /api/movies.json?limit=20` (the same query through REST, whose answer cache
 *    replays it) and beside REST with the answer cache off.
 *
 * Usage: node bench/mcp.ts [--seconds 8 --connections 16 --iterations 2000]
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createServer } from '../src/mcp/server.ts';
import { paths } from '../src/paths.ts';
import { createDispatcher } from '../src/runtime/dispatch.ts';
import { createNodeServer } from '../src/runtime/node.ts';
import { Runtime } from '../src/runtime/runtime.ts';

const { values: args } = parseArgs({ options: { seconds: { type: 'string', default: '8' }, connections: { type: 'string', default: '16' }, iterations: { type: 'string', default: '2000' } } });
const seconds = Number(args.seconds);
const connections = Number(args.connections);
const iterations = Number(args.iterations);
const big = { mcpQuota: 1e9, mcpWorkBudget: 1e9, restQuota: 1e9 };

const runtime = await Runtime.open({ distDir: paths.dist, ...big });
const HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-11-25', Host: 'localhost' };
const FIND = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'taste.find', arguments: { collection: 'movies', limit: 20 } } };
const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

async function perRequest(label: string, body: object | undefined): Promise<void> {
  const run = async () => {
    const server = createServer(runtime, { ui: false });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    if (body) {
      const request = new Request('http://localhost/mcp', { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });
      await (await transport.handleRequest(request, { parsedBody: body })).text();
    }
    await server.close();
  };
  for (let i = 0; i < 200; i++) await run();
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await run();
  const us = ((performance.now() - start) * 1000) / iterations;
  console.log(`${label.padEnd(48)} ${us.toFixed(0).padStart(6)} µs per request`);
}

console.log('In process (one core, sequential):');
await perRequest('fresh server + transport, connect, close', undefined);
await perRequest('… answering tools/list', LIST);
await perRequest('… answering tools/call taste.find (20 movies)', FIND);

async function served(options: object): Promise<{ base: string; close: () => Promise<void> }> {
  const rt = await Runtime.open({ distDir: paths.dist, ...big, ...options });
  const server = createNodeServer(createDispatcher(() => rt));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: async () => (server.closeAllConnections(), server.close(), await rt.close()) };
}

async function cannon(label: string, url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<void> {
  const result = await autocannon({ url, connections, duration: seconds, method: (init.method ?? 'GET') as 'GET', headers: init.headers, body: init.body });
  const ok = result['2xx'];
  console.log(`${label.padEnd(48)} ${Math.round(result.requests.average).toString().padStart(7)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  (${ok} 2xx, ${result.non2xx} other)`);
}

console.log(`\nOver HTTP (autocannon, ${connections} connections, ${seconds} s each, same run):`);
const warm = await served({});
const cold = await served({ answerCacheBytes: 0 });
try {
  await cannon('MCP tools/call taste.find (movies, limit 20)', `${warm.base}/mcp`, { method: 'POST', headers: HEADERS, body: JSON.stringify(FIND) });
  await cannon('REST GET /api/movies.json?limit=20', `${warm.base}/api/movies.json?limit=20`);
  await cannon('REST, answer cache off', `${cold.base}/api/movies.json?limit=20`);
  await cannon('MCP tools/list', `${warm.base}/mcp`, { method: 'POST', headers: HEADERS, body: JSON.stringify(LIST) });
} finally {
  await warm.close();
  await cold.close();
  await runtime.close();
}
