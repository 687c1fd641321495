/**
 * The MCP discovery documents and the setup page over the wire: the server card and
 * mcp.json, each checked against the OpenAPI description by the contract helper (an
 * outside validator), name the same tools with the same titles as tools/list, an
 * absolute /mcp URL, no authentication and the owner lane; the API catalog and
 * /api/meta.json link them; the setup page (HTML and its Markdown twin) shows the
 * configuration to copy.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { z } from 'zod';
import { contractFetch } from '../helpers/contract.ts';
import { connect, serve, type Served } from './helpers.ts';

let served: Served;
before(async () => {
  served = await serve();
});
after(() => served.close());

const get = (path: string, headers: Record<string, string> = {}) => contractFetch(served.base + path, { headers });

test('the server card and mcp.json describe the server tools/list shows', async () => {
  const card = (await (await get('/.well-known/mcp/server-card.json')).json()) as {
    name: string;
    version: string;
    url: string;
    protocolVersion: string;
    transport: { type: string };
    authentication: { required: boolean };
    tools: { name: string; title: string }[];
    ownerLane: { protectedResourceMetadata: string };
  };
  const client = await connect(served.base);
  const { tools } = await client.listTools();
  assert.deepEqual(
    card.tools.map((t) => [t.name, t.title]),
    tools.map((t) => [t.name, t.title]),
  );
  assert.equal(card.name, client.getServerVersion()?.name);
  assert.equal(card.version, client.getServerVersion()?.version);
  await client.close();
  assert.equal(card.url, `${served.runtime.siteUrl}/mcp`);
  assert.equal(card.protocolVersion, '2025-11-25');
  assert.equal(card.transport.type, 'streamable-http');
  assert.equal(card.authentication.required, false);
  assert.match(card.ownerLane.protectedResourceMetadata, /\/\.well-known\/oauth-protected-resource\/owner\/mcp$/);
  const discovery = (await (await get('/.well-known/mcp.json')).json()) as { mcpServers: Record<string, { url: string }> };
  assert.equal(discovery.mcpServers.collections!.url, card.url);
});

test('the API catalog and the service metadata link the MCP documents', async () => {
  const { linkset } = (await (await get('/.well-known/api-catalog')).json()) as {
    linkset: { anchor: string; 'service-desc': { href: string }[]; 'service-meta': { href: string }[]; 'service-doc': { href: string }[] }[];
  };
  const mcp = linkset.find((l) => l.anchor === '/mcp')!;
  assert.equal(mcp['service-desc'][0]!.href, '/.well-known/mcp/server-card.json');
  assert.equal(mcp['service-meta'][0]!.href, '/.well-known/mcp.json');
  assert.equal((await fetch(served.base + mcp['service-doc'][0]!.href)).status, 200);
  const meta = (await (await get('/api/meta.json')).json()) as { links: Record<string, string> };
  assert.equal(meta.links.mcp, '/mcp');
  assert.equal(meta.links.mcpServerCard, '/.well-known/mcp/server-card.json');
  assert.equal(meta.links.mcpDiscovery, '/.well-known/mcp.json');
});

test('the setup page and its Markdown twin show configuration to copy', async () => {
  const page = await fetch(`${served.base}/mcp/setup/`);
  assert.equal(page.status, 200);
  const html = await page.text();
  const endpoint = `${served.runtime.siteUrl}/mcp`;
  for (const client of ['Claude Code', 'VS Code', 'Cursor', 'MCP Inspector', 'curl']) assert.ok(html.includes(client), client);
  assert.ok(html.includes(`claude mcp add --transport http collections ${endpoint}`));
  assert.ok(html.includes('&quot;type&quot;: &quot;http&quot;') || html.includes('"type": "http"'));
  const markdown = await fetch(`${served.base}/mcp/setup/index.md`);
  assert.equal(markdown.headers.get('content-type'), 'text/markdown; charset=utf-8');
  const text = await markdown.text();
  assert.match(text, /^# Use the collections from an AI agent \(MCP\)/);
  assert.ok(text.includes(endpoint));
});

test('over HTTP, the skills and resources are the ones MCP serves: same skills, same SKILL.md bytes and digests, same resource URIs', async () => {
  const client = await connect(served.base);
  const Skills = z.object({
    skills: z.array(z.object({ uri: z.string(), name: z.string(), description: z.string(), resources: z.array(z.object({ digest: z.string() })) })),
  });
  const { skills } = await client.request({ method: 'skills/list', params: {} }, Skills);
  const index = (await (await get('/.well-known/agent-skills/index.json')).json()) as {
    skills: { name: string; description: string; url: string; digest: string }[];
  };
  assert.deepEqual(
    index.skills.map((s) => [s.name, s.description, s.digest]),
    skills.map((s) => [s.name, s.description, s.resources[0]!.digest]),
  );
  for (const skill of skills) {
    const overMcp = ((await client.readResource({ uri: skill.uri })).contents[0] as { text: string }).text;
    const overHttp = await (await get(index.skills.find((s) => s.name === skill.name)!.url)).text();
    assert.equal(overHttp, overMcp, skill.name);
  }
  const catalog = (await (await get('/.well-known/resource-catalog.json')).json()) as { resources: { uri?: string }[] };
  const listed = (await client.listResources()).resources.map((r) => r.uri).sort();
  assert.deepEqual(catalog.resources.flatMap((r) => (r.uri ? [r.uri] : [])).sort(), listed);
  await client.close();
});
