/**
 * What the MCP tests share: the built runtime served on a free loopback port (the real
 * dispatcher and route table), an SDK client connected to it over Streamable HTTP, and
 * an outside JSON Schema validator (@hyperjump/json-schema, 2020-12) for checking every
 * structuredContent against the outputSchema tools/list published.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { registerSchema, unregisterSchema, validate } from '@hyperjump/json-schema/draft-2020-12';
import { paths } from '../../src/paths.ts';
import { createDispatcher } from '../../src/runtime/dispatch.ts';
import { createNodeServer } from '../../src/runtime/node.ts';
import { TEST_KEEP_ALIVE_MS } from '../helpers/keep-alive.ts';
import { DISPATCH_TABLE } from '../../src/runtime/routes.ts';
import type { RuntimeOptions } from '../../src/runtime/runtime.ts';
import { ServingRuntime } from '../../src/runtime/serving.ts';

export interface Served {
  base: string;
  runtime: ServingRuntime;
  close: () => Promise<void>;
}

export async function serve(options: Partial<RuntimeOptions> = {}): Promise<Served> {
  const runtime = await ServingRuntime.open({ distDir: paths.dist, ...options });
  const server = createNodeServer(
    createDispatcher(() => runtime, DISPATCH_TABLE),
    { keepAliveTimeoutMs: TEST_KEEP_ALIVE_MS },
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    runtime,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await runtime.close();
    },
  };
}

export async function connect(base: string, capabilities: Record<string, unknown> = {}): Promise<Client> {
  const client = new Client({ name: 'collections-tests', version: '1.0.0' }, { capabilities });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', base)));
  return client;
}

/** A served runtime with quotas out of the way and an SDK client that has listed the tools: where the tool tests start. */
export async function serveWithTools(): Promise<{ served: Served; client: Client; tools: Map<string, Tool> }> {
  const served = await serve({ mcpQuota: 1_000_000, mcpWorkBudget: 1_000_000, restQuota: 1_000_000 });
  const client = await connect(served.base);
  return { served, client, tools: new Map((await client.listTools()).tools.map((t) => [t.name, t])) };
}

/** POSTs one raw JSON-RPC body to /mcp with the headers a Streamable HTTP client sends. */
export function post(base: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(new URL('/mcp', base), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

let schemaCount = 0;

/** Validates `value` against `schema` with an outside 2020-12 validator; returns the failing output or undefined. */
export async function schemaErrors(schema: object, value: unknown): Promise<unknown> {
  const id = `https://tests.invalid/schema-${schemaCount++}`;
  registerSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...schema }, id);
  try {
    const output = await validate(id, value as never, 'BASIC');
    return output.valid ? undefined : output.errors?.slice(0, 5);
  } finally {
    unregisterSchema(id);
  }
}
