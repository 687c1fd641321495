/**
 * The MCP server of one request. The transport is stateless (no session: any replica
 * answers any request), so a `Server` is made per request; what does not depend on the
 * request — the tool list with its schemas, the resources, the instructions, the
 * compiled input validators — is built once per process, and a per-request server only
 * binds handlers to them (the cost is measured in tests/mcp/cost.test.ts). Capabilities:
 * tools, resources, the skills extension (declared by servers), and the UI extension
 * when the client declares it with our mime type (the extensions both sides share).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { API_VERSION } from '../http/headers.ts';
import type { McpContext } from './context.ts';
import { RESOURCES, UI_EXTENSION, UI_LEGACY_META_KEY, UI_MIME_TYPE } from './resources.ts';
import { SKILLS, SKILLS_EXTENSION, skillEntry } from './skills.ts';
import { callTool, READ_ONLY_ANNOTATIONS, validate, validator } from './tool.ts';
import { TOOLS, toolNamed } from './tools.ts';
import { callOwnerTool, OWNER_TOOL_LIST, ownerToolNamed } from './owner-tools.ts';
import type { OwnerWrites, WriteCaller } from '../owner/writes.ts';
import { SCOPE } from '../oauth/scopes.ts';

export const SERVER_NAME = 'collections';
export const SERVER_TITLE = 'Collections';
export const SERVER_VERSION = API_VERSION;

export const INSTRUCTIONS = `Read-only access to one person's curated collections (films and TV, places, concerts, sporting events, books, music, runs, code, photos, reading…). Everything here is public and nothing changes anything.
- To look something up: taste.find (one collection, its REST filters, q, sort; nextCursor continues), then taste.get to reread records by canonicalId. sports.list for sporting events by team, sport, league, year, city, venue, experience and status.
- For taste: taste.summarize (movie taste as distributions with illustrative examples), taste.profile (the music taste profile), music.intersect (a listener's profile against the owner's music; confirm the profile with the listener first), taste.recommend (needs a stated intent with some signal: it abstains on "anything").
- places.plan orders places in a city with approximate straight-line distances; it has no travel times and never uses a device location.
- The render tools (taste.render_recommendations, places.render_map, sports.render_events) take canonical IDs and show the records in a view; without a view their text says the same.
Quote records by title and cite canonicalId. Absence from a collection proves nothing about the owner.`;

/** The tool list, built once: names, titles, descriptions, schemas, annotations and UI links. */
const TOOL_LIST = TOOLS.map((tool) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: tool.inputSchema,
  outputSchema: tool.outputSchema,
  annotations: { title: tool.title, ...READ_ONLY_ANNOTATIONS },
  ...(tool.ui ? { _meta: { ui: { resourceUri: tool.ui }, [UI_LEGACY_META_KEY]: tool.ui } } : {}),
}));

const RESOURCE_LIST = [
  ...RESOURCES.map((r) => ({
    uri: r.uri,
    name: r.name,
    title: r.title,
    description: r.description,
    mimeType: r.mimeType,
    ...(r.meta ? { _meta: r.meta } : {}),
  })),
  ...SKILLS.map((s) => ({ uri: s.uri, name: s.name, description: s.description, mimeType: 'text/markdown', size: s.size })),
];

const SkillsListRequestSchema = z.object({ method: z.literal('skills/list'), params: z.optional(z.object({ cursor: z.optional(z.string()) }).loose()) });
const SkillsGetRequestSchema = z.object({ method: z.literal('skills/get'), params: z.object({ uri: z.string() }).loose() });

/** Whether the client's initialize, among a request's messages, declares the UI extension with the mime type this server renders. */
export function sharesUi(messages: readonly unknown[]): boolean {
  return messages.some((message) => {
    const { method, params } = (message ?? {}) as { method?: unknown; params?: { capabilities?: { extensions?: Record<string, { mimeTypes?: unknown }> } } };
    const mimeTypes = method === 'initialize' ? params?.capabilities?.extensions?.[UI_EXTENSION]?.mimeTypes : undefined;
    return Array.isArray(mimeTypes) && mimeTypes.includes(UI_MIME_TYPE);
  });
}

export interface ServerOptions {
  /** The client declared the UI extension in this request's initialize. */
  ui: boolean;
  log?: (error: unknown) => void;
  /**
   * The owner lane (`/owner/mcp`): its write tools are listed and callable, for the
   * verified token's client. The caller has checked the `taste:write` scope of a write call.
   */
  owner?: { writes: OwnerWrites | undefined; client: WriteCaller };
}

/** The owner lane's tool list: the public tools, then the owner's. */
const OWNER_LIST = [...TOOL_LIST, ...OWNER_TOOL_LIST];

export const OWNER_INSTRUCTIONS = `${INSTRUCTIONS}
On this owner lane, with the ${SCOPE.write} scope, three tools change the owner's collections: taste.log adds a record, taste.rate sets rating/recommended, music.set_stance sets a music stance. Read a record with taste.get_for_edit first (its content file as it is now, and its revision); give each change a requestId (a retry applies once) and pass the revision you read or a write returned (a record edited since is refused, not overwritten).`;

/** A server for one request of one generation. */
export function createServer(context: McpContext, options: ServerOptions): Server {
  const extensions: Record<string, object> = { [SKILLS_EXTENSION]: {} };
  if (options.ui) extensions[UI_EXTENSION] = { mimeTypes: [UI_MIME_TYPE] };
  const server = new Server(
    { name: SERVER_NAME, title: SERVER_TITLE, version: SERVER_VERSION },
    {
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false, subscribe: false }, extensions },
      instructions: options.owner ? OWNER_INSTRUCTIONS : INSTRUCTIONS,
      jsonSchemaValidator: validator,
    },
  );
  const owner = options.owner;
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: owner ? OWNER_LIST : TOOL_LIST }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const write = owner && ownerToolNamed(request.params.name);
    if (owner && write) return callOwnerTool(write, owner.writes, owner.client, request.params.arguments ?? {}, (args) => validate(write, args), options.log);
    const tool = toolNamed(request.params.name);
    // An unknown tool is a protocol mistake (the client did not read tools/list), not a tool failure.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name.slice(0, 64)}; tools/list names the tools.`);
    return callTool(tool, request.params.arguments, context, options.log);
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: RESOURCE_LIST }));
  // Every resource is listed by its URI: there are no templates (clients with the resources capability ask anyway).
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const uri = request.params.uri;
    const resource = RESOURCES.find((r) => r.uri === uri);
    if (resource) return { contents: [{ uri, mimeType: resource.mimeType, text: resource.text, ...(resource.meta ? { _meta: resource.meta } : {}) }] };
    const skill = SKILLS.find((s) => s.uri === uri);
    if (skill) return { contents: [{ uri, mimeType: 'text/markdown', text: skill.text }] };
    throw new McpError(ErrorCode.InvalidParams, 'Resource not found; resources/list names the resources.', { uri: uri.slice(0, 200) });
  });
  server.setRequestHandler(SkillsListRequestSchema, () => ({ skills: SKILLS.map(skillEntry) }));
  server.setRequestHandler(SkillsGetRequestSchema, (request) => {
    const skill = SKILLS.find((s) => s.uri === request.params.uri || s.name === request.params.uri);
    if (!skill) throw new McpError(ErrorCode.InvalidParams, 'Skill not found; skills/list names the skills.');
    return { ...skillEntry(skill), content: skill.text };
  });
  return server;
}
