/**
 * The MCP discovery documents, written by the build as static files: the server card
 * (`/.well-known/mcp/server-card.json`: name, version, description, the `/mcp` URL, its
 * transport and protocol version, the tools with their titles, no authentication for
 * `/mcp`, and the owner lane with its protected resource metadata URL) and
 * `/.well-known/mcp.json` (the same facts in the shape MCP client configurations use:
 * `mcpServers` / `servers` entries), with their closed JSON Schemas for the OpenAPI
 * description. Also the setup guide the setup page and its Markdown twin are made of.
 * Built from the tool registry, the site URL and the owner's name (the profile,
 * src/collections/profile.ts), so they cannot drift from the server.
 */
import type { JsonSchema } from '../collections/item-schema.ts';
import { LINKS, OAUTH_URLS, URLS } from '../urls.ts';
import { INSTRUCTIONS, SERVER_NAME, SERVER_TITLE, SERVER_VERSION } from './server.ts';
import { RESOURCES } from './resources.ts';
import { SKILLS, SKILLS_EXTENSION } from './skills.ts';
import { TOOLS } from './tools.ts';

export const MCP_PROTOCOL_VERSION = '2025-11-25';
/** What the server offers, said of its owner (`One person` when no name is known). */
const describe = (owner = 'One person') =>
  `${owner}'s curated collections (films and TV, places, concerts, sporting events, books, music and more) as read-only MCP tools: find, read, summarize taste, recommend, plan and render.`;

export function serverCard(siteUrl: string, owner?: string): Record<string, unknown> {
  return {
    name: SERVER_NAME,
    title: SERVER_TITLE,
    version: SERVER_VERSION,
    description: describe(owner),
    url: `${siteUrl}${LINKS.mcp}`,
    transport: { type: 'streamable-http', url: `${siteUrl}${LINKS.mcp}`, stateless: true },
    protocolVersion: MCP_PROTOCOL_VERSION,
    authentication: { required: false, schemes: [], note: 'Public and anonymous: send no credential; an Authorization header is ignored.' },
    capabilities: { tools: {}, resources: {}, extensions: [SKILLS_EXTENSION, 'io.modelcontextprotocol/ui'] },
    instructions: INSTRUCTIONS,
    tools: TOOLS.map((t) => ({ name: t.name, title: t.title, readOnly: true })),
    resources: RESOURCES.map((r) => ({ uri: r.uri, title: r.title, mimeType: r.mimeType })),
    skills: SKILLS.map((s) => ({ name: s.name, uri: s.uri, description: s.description })),
    ownerLane: {
      url: `${siteUrl}${OAUTH_URLS.ownerMcp}`,
      authentication: { required: true, schemes: ['oauth2'] },
      protectedResourceMetadata: `${siteUrl}${OAUTH_URLS.protectedResource}`,
    },
    links: { setup: `${siteUrl}${URLS.mcpSetup}`, discovery: `${siteUrl}${LINKS.mcpDiscovery}`, openapi: `${siteUrl}${LINKS.openapi}` },
  };
}

export function mcpDiscovery(siteUrl: string, owner?: string): Record<string, unknown> {
  const url = `${siteUrl}${LINKS.mcp}`;
  return {
    mcpServers: { [SERVER_NAME]: { type: 'http', url, description: describe(owner) } },
    servers: [
      {
        name: SERVER_NAME,
        title: SERVER_TITLE,
        version: SERVER_VERSION,
        url,
        transport: 'streamable-http',
        protocolVersion: MCP_PROTOCOL_VERSION,
        authentication: 'none',
        serverCard: `${siteUrl}${LINKS.mcpServerCard}`,
      },
    ],
  };
}

const str = { type: 'string', minLength: 1 } as const;
const uri = { type: 'string', format: 'uri' } as const;
const closed = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)): JsonSchema =>
  ({ type: 'object', properties, required, additionalProperties: false }) as JsonSchema;

export const SERVER_CARD_SCHEMA: JsonSchema = {
  title: 'MCP server card',
  description:
    'What the public MCP server is, where and how to reach it (no authentication), its tools, and the owner lane with its protected resource metadata.',
  ...closed({
    name: { const: SERVER_NAME },
    title: str,
    version: str,
    description: str,
    url: uri,
    transport: closed({ type: { const: 'streamable-http' }, url: uri, stateless: { const: true } }),
    protocolVersion: { const: MCP_PROTOCOL_VERSION },
    authentication: closed({ required: { const: false }, schemes: { type: 'array', maxItems: 0 }, note: str }),
    capabilities: closed({ tools: { type: 'object' }, resources: { type: 'object' }, extensions: { type: 'array', items: str } }),
    instructions: str,
    tools: { type: 'array', minItems: 1, items: closed({ name: str, title: str, readOnly: { const: true } }) },
    resources: { type: 'array', items: closed({ uri: str, title: str, mimeType: str }) },
    skills: { type: 'array', items: closed({ name: str, uri: str, description: str }) },
    ownerLane: closed({
      url: uri,
      authentication: closed({ required: { const: true }, schemes: { type: 'array', items: str } }),
      protectedResourceMetadata: uri,
    }),
    links: closed({ setup: uri, discovery: uri, openapi: uri }),
  }),
} as JsonSchema;

export const MCP_DISCOVERY_SCHEMA: JsonSchema = {
  title: 'MCP discovery',
  description: 'The public MCP server in the shapes MCP client configurations use.',
  ...closed({
    mcpServers: { type: 'object', additionalProperties: closed({ type: { const: 'http' }, url: uri, description: str }) },
    servers: {
      type: 'array',
      minItems: 1,
      items: closed({
        name: str,
        title: str,
        version: str,
        url: uri,
        transport: { const: 'streamable-http' },
        protocolVersion: str,
        authentication: { const: 'none' },
        serverCard: uri,
      }),
    },
  }),
} as JsonSchema;

/** One way to add the server to a client: where it goes, and the text to copy. */
export interface ClientSetup {
  client: string;
  where: string;
  language: 'json' | 'shell' | 'text';
  config: string;
}

export function setupGuide(siteUrl: string): ClientSetup[] {
  const url = `${siteUrl}${LINKS.mcp}`;
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  return [
    { client: 'Claude Code', where: 'Run in a terminal:', language: 'shell', config: `claude mcp add --transport http ${SERVER_NAME} ${url}` },
    {
      client: 'Claude (desktop and web)',
      where: 'Settings → Connectors → Add custom connector, with this URL (no authentication):',
      language: 'text',
      config: url,
    },
    {
      client: 'VS Code',
      where: 'In .vscode/mcp.json (or the user mcp.json):',
      language: 'json',
      config: json({ servers: { [SERVER_NAME]: { type: 'http', url } } }),
    },
    { client: 'Cursor', where: 'In ~/.cursor/mcp.json or .cursor/mcp.json:', language: 'json', config: json({ mcpServers: { [SERVER_NAME]: { url } } }) },
    {
      client: 'MCP Inspector',
      where: 'List the tools from a terminal:',
      language: 'shell',
      config: `npx @modelcontextprotocol/inspector --cli ${url} --transport http --method tools/list`,
    },
    {
      client: 'curl',
      where: 'Any HTTP client: one JSON-RPC message per POST, no session, no credential:',
      language: 'shell',
      config: `curl -s ${url} -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' -H 'MCP-Protocol-Version: ${MCP_PROTOCOL_VERSION}' \\\n  -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"taste.find","arguments":{"collection":"books","limit":3}}}'`,
    },
  ];
}

/** The setup page's Markdown twin. */
export function setupMarkdown(siteUrl: string): string {
  const fence = (s: ClientSetup) => `\`\`\`${s.language === 'text' ? '' : s.language}\n${s.config}\n\`\`\``;
  return [
    '# Use the collections from an AI agent (MCP)',
    '',
    `The public MCP server is at \`${siteUrl}${LINKS.mcp}\` (Streamable HTTP, protocol ${MCP_PROTOCOL_VERSION}). It is read-only and anonymous: add it without any credential or sign-in.`,
    '',
    ...setupGuide(siteUrl).flatMap((s) => [`## ${s.client}`, '', s.where, '', fence(s), '']),
    '## Tools',
    '',
    ...TOOLS.map((t) => `- \`${t.name}\` — ${t.title}`),
    '',
    `Discovery: [server card](${LINKS.mcpServerCard}), [mcp.json](${LINKS.mcpDiscovery}).`,
    '',
  ].join('\n');
}
