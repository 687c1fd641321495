/**
 * `/mcp` at its edge, over the wire against the built runtime: initialize (server info,
 * instructions, capabilities and the extensions both sides share), Host and Origin
 * checks before any work, the body bound at its edge, batches by protocol version, the
 * browser redirect, stateless GET and DELETE, quotas with 429 + Retry-After and a
 * JSON-RPC error, and an Authorization header that changes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { LIMITS } from '../../src/core/limits.ts';
import { connect, post, serve, type Served } from './helpers.ts';

let served: Served;
before(async () => {
  served = await serve({ mcpQuota: 1_000_000, mcpWorkBudget: 1_000_000 });
});
after(() => served.close());

const initialize = (capabilities: Record<string, unknown> = {}, protocolVersion = '2025-11-25') => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities, clientInfo: { name: 'curl', version: '1' } },
});

test('initialize answers server info, instructions, tools, resources and the shared extensions at 2025-11-25', async () => {
  const response = await post(served.base, initialize());
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('mcp-session-id'), null, 'stateless: no session');
  assert.equal(response.headers.get('cache-control'), 'no-store');
  const { result } = (await response.json()) as {
    result: {
      protocolVersion: string;
      serverInfo: { name: string; version: string };
      instructions: string;
      capabilities: Record<string, unknown> & { extensions: Record<string, unknown> };
    };
  };
  assert.equal(result.protocolVersion, '2025-11-25');
  assert.equal(result.serverInfo.name, 'collections');
  assert.match(result.serverInfo.version, /^\d+\.\d+\.\d+$/);
  assert.match(result.instructions, /taste\.find/);
  assert.ok(result.capabilities.tools && result.capabilities.resources);
  assert.deepEqual(Object.keys(result.capabilities.extensions), ['io.modelcontextprotocol/skills'], 'no UI extension for a client without it');

  const ui = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
  const withUi = (await (await post(served.base, initialize(ui))).json()) as {
    result: { capabilities: { extensions: Record<string, { mimeTypes: string[] }> } };
  };
  assert.deepEqual(withUi.result.capabilities.extensions['io.modelcontextprotocol/ui'], { mimeTypes: ['text/html;profile=mcp-app'] });

  const older = (await (await post(served.base, initialize({}, '2025-03-26'))).json()) as { result: { protocolVersion: string } };
  assert.equal(older.result.protocolVersion, '2025-03-26', 'older versions the SDK supports are negotiated down');
});

test('the SDK client connects, and an Authorization header is ignored', async () => {
  const client = await connect(served.base);
  assert.equal(client.getServerVersion()?.name, 'collections');
  assert.ok((await client.listTools()).tools.length >= 6);
  await client.close();
  const response = await post(
    served.base,
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    { Authorization: 'Bearer not-a-token', 'MCP-Protocol-Version': '2025-11-25' },
  );
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('www-authenticate'), null);
});

test('a foreign Origin or Host is refused with 403 before any work', async () => {
  const foreign = await post(served.base, initialize(), { Origin: 'https://evil.example' });
  assert.equal(foreign.status, 403);
  assert.equal(((await foreign.json()) as { error: { code: number } }).error.code, -32000);
  assert.equal((await post(served.base, initialize(), { Origin: 'null' })).status, 403);
  assert.equal((await post(served.base, initialize(), { Origin: served.runtime.siteUrl })).status, 200, 'the site itself');
  assert.equal((await post(served.base, initialize(), { Origin: 'http://localhost:6274' })).status, 200, 'a local tool');
  const { request } = await import('node:http');
  const status = await new Promise<number>((resolve, reject) => {
    const url = new URL('/mcp', served.base);
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: '/mcp',
        method: 'POST',
        headers: { Host: 'rebound.example', 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(initialize()));
  });
  assert.equal(status, 403, 'DNS rebinding: a Host that is not the site');
});

test('the body is bounded at 64 KiB: 413 one byte over, answered at the bound', async () => {
  const message = initialize();
  // Padding inside params (the message schema is closed at the top): "pad":"…" adds 9 bytes and its text.
  const base = JSON.stringify({ ...message, params: { ...message.params, pad: '' } }).length;
  const padded = (size: number) => JSON.stringify({ ...message, params: { ...message.params, pad: 'x'.repeat(size - base) } });
  assert.equal(padded(LIMITS.mcpRequestBytesMax).length, LIMITS.mcpRequestBytesMax);
  assert.equal((await post(served.base, padded(LIMITS.mcpRequestBytesMax))).status, 200);
  const over = await post(served.base, padded(LIMITS.mcpRequestBytesMax + 1));
  assert.equal(over.status, 413);
  assert.equal(((await over.json()) as { error: { code: number } }).error.code, -32600);
  assert.equal((await post(served.base, '{"jsonrpc":')).status, 400);
});

test('batches only where the protocol version allows them', async () => {
  const list = { jsonrpc: '2.0', id: 3, method: 'tools/list' };
  const refused = await post(served.base, [list], { 'MCP-Protocol-Version': '2025-11-25' });
  assert.equal(refused.status, 400);
  const old = await post(served.base, [list, { ...list, id: 4 }], { 'MCP-Protocol-Version': '2025-03-26' });
  assert.equal(old.status, 200);
  assert.equal(((await old.json()) as unknown[]).length, 2);
  const tooMany = Array.from({ length: LIMITS.mcpBatchMessagesMax + 1 }, (_, i) => ({ ...list, id: i }));
  assert.equal((await post(served.base, tooMany, { 'MCP-Protocol-Version': '2025-03-26' })).status, 400);
});

test('a browser GET is sent to the setup page; other GETs and DELETE answer as a stateless server', async () => {
  const browser = await fetch(new URL('/mcp', served.base), { headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }, redirect: 'manual' });
  assert.equal(browser.status, 303);
  assert.equal(browser.headers.get('location'), '/mcp/setup/');
  const sse = await fetch(new URL('/mcp', served.base), { headers: { Accept: 'text/event-stream' } });
  assert.equal(sse.status, 405);
  assert.match(sse.headers.get('allow') ?? '', /POST/);
  const del = await fetch(new URL('/mcp', served.base), { method: 'DELETE' });
  assert.equal(del.status, 200);
  assert.equal((await fetch(new URL('/mcp', served.base), { method: 'PUT' })).status, 405);
  const preflight = await fetch(new URL('/mcp', served.base), {
    method: 'OPTIONS',
    headers: { Origin: 'http://localhost:6274', 'Access-Control-Request-Method': 'POST' },
  });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get('access-control-allow-origin'), 'http://localhost:6274');
});

test('quotas: requests and tool work per client, 429 with Retry-After and a JSON-RPC error', async () => {
  const tight = await serve({ mcpQuota: 3, mcpWorkBudget: 6 });
  try {
    const call = (name: string, id: number) =>
      post(
        tight.base,
        { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: name === 'taste.find' ? { collection: 'books', limit: 1 } : {} } },
        { 'MCP-Protocol-Version': '2025-11-25' },
      );
    assert.equal((await call('taste.find', 1)).status, 200);
    assert.equal((await call('taste.summarize', 2)).status, 200);
    const requests = await call('taste.find', 3);
    assert.equal(requests.status, 200);
    const refused = await call('taste.find', 4);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '60');
    const body = (await refused.json()) as { jsonrpc: string; error: { code: number; message: string } };
    assert.equal(body.jsonrpc, '2.0');
    assert.match(body.error.message, /retry after 60 seconds/);
  } finally {
    await tight.close();
  }
  const work = await serve({ mcpQuota: 100, mcpWorkBudget: 6 });
  try {
    const profile = { schemaVersion: '1', music: { artists: [], recordings: [], albums: [], genres: [], notes: [] } };
    const intersect = (id: number) =>
      post(
        work.base,
        { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'music.intersect', arguments: { profile } } },
        { 'MCP-Protocol-Version': '2025-11-25' },
      );
    assert.equal((await intersect(1)).status, 200, 'costs 5 of 6');
    assert.equal((await intersect(2)).status, 429, 'another 5 does not fit');
    assert.equal(
      (await post(work.base, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, { 'MCP-Protocol-Version': '2025-11-25' })).status,
      200,
      'listing is no tool work',
    );
  } finally {
    await work.close();
  }
});

test('a field sent twice reads the same whether the SDK or the direct path answers: the first Content-Type, as Node keeps it', async () => {
  const { rawRequest } = await import('../helpers/raw-http.ts');
  const { host } = new URL(served.base);
  const send = (contentTypes: string[], message: Record<string, unknown>) => {
    const body = JSON.stringify(message);
    const fields = contentTypes.map((type) => `Content-Type: ${type}\r\n`).join('');
    return rawRequest(
      served.base,
      `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nAccept: application/json, text/event-stream\r\n${fields}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  };
  const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'taste.find', arguments: { collection: 'movies', limit: 1 } } };
  const list = { jsonrpc: '2.0', id: 8, method: 'tools/list' };
  for (const [types, status] of [
    [['application/json', 'text/plain'], 200],
    [['text/plain', 'application/json'], 415],
  ] as const) {
    // A plain tools/call goes the direct way, tools/list through the SDK's transport: both read one Content-Type.
    for (const message of [call, call, list]) assert.equal((await send([...types], message)).status, status, `${types.join(' + ')}, ${message.method}`);
  }
});
