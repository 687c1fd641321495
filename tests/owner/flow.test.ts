/**
 * `/owner/mcp` with tokens from the real flow (oauth4webapi as the client, oidc-provider
 * as the owner's identity provider, tests/oauth/helpers.ts): the MCP SDK's client calls
 * it with the access token; a read-only grant is refused write calls with 403; a revoked
 * token is 401. This site has no generations (ServingRuntime.open), so write tools say they are
 * not available here; writes themselves are tests/owner/owner-mcp.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OAUTH_URLS } from '../../src/urls.ts';
import { Agent, startAgentSite } from '../oauth/agent.ts';
import type { Site } from '../oauth/helpers.ts';

let site: Site & { idp?: { issuer: string } };
let agent: Agent;

before(async () => ({ site, agent } = await startAgentSite()));
after(() => site.stop());

async function connectClient(token: string): Promise<Client> {
  const client = new Client({ name: 'owner-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(site.resource), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

test('the MCP SDK client with a token from the flow: initialize, list the read and write tools, read the public corpus', async () => {
  const { tokens } = await agent.connect();
  const client = await connectClient(tokens.access_token);
  try {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['taste.find', 'taste.log', 'taste.rate', 'music.set_stance']) assert.ok(names.includes(name), name);
    assert.equal(tools.find((t) => t.name === 'taste.rate')?.annotations?.readOnlyHint, false);
    const found = await client.callTool({ name: 'taste.find', arguments: { collection: 'books', limit: 1 } });
    assert.equal(found.isError, undefined);
    const write = await client.callTool({ name: 'music.set_stance', arguments: { canonicalId: 'itm_000000000000000000000000', stance: 'love' } });
    assert.equal(write.isError, true);
    assert.match((write.content as { text: string }[])[0]!.text, /not available/);
  } finally {
    await client.close();
  }
});

test('a taste:read grant: reads pass, a write call is 403 insufficient_scope; a revoked token is 401', async () => {
  const { client, tokens } = await agent.connect('taste:read');
  const post = (message: unknown) =>
    fetch(`${site.base}${OAUTH_URLS.ownerMcp}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${tokens.access_token}` },
      body: JSON.stringify(message),
    });
  assert.equal((await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).status, 200);
  const refused = await post({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'taste.rate', arguments: { collection: 'movies', canonicalId: 'x', rating: 4 } },
  });
  assert.equal(refused.status, 403);
  assert.match(
    refused.headers.get('www-authenticate')!,
    /^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/owner\/mcp", scope="taste:write", error="insufficient_scope"/,
  );
  await agent.revoke(client, tokens.refresh_token!);
  const revoked = await post({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
  assert.equal(revoked.status, 401);
  assert.match(revoked.headers.get('www-authenticate')!, /error="invalid_token"/);
});
