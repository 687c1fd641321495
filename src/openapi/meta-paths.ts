/**
 * The service's meta and discovery operations (tag `meta`): this description itself,
 * service metadata and status, the RFC 9727 API catalog, the problem type registry, and
 * agent discovery (the Agent Skills index with each SKILL.md, and the resource catalog).
 * Their bodies are the schemas of `meta-schemas.ts`; these are static build documents
 * (except the status, which the running process computes), so they carry strong ETags
 * and answer preconditions with 304.
 */
import { PROBLEMS } from '../core/problems.ts';
import { problemRef } from './problems.ts';
import { headerRefs, COMMON, type HeaderName } from './response-headers.ts';
import { ref, type MediaType, type Operation, type PathItem, type Response } from './types.ts';
import { agentSkillUrl, LINKS } from '../urls.ts';
import { SKILLS } from '../mcp/skills.ts';

/** Static files: tagged and cacheable. */
const STATIC: readonly HeaderName[] = ['ETag', 'CacheControl'];
/** Documents under /api/ are REST responses and carry the API's common headers too. */
const API_STATIC: readonly HeaderName[] = [...COMMON, ...STATIC];

const html: MediaType = { schema: { type: 'string', description: 'An HTML page for people.' } };

function notModified(headers: readonly HeaderName[]): Response {
  return { description: 'Not modified: the client’s copy is current. No body.', headers: headerRefs(headers) };
}

function operation(operationId: string, summary: string, description: string, ok: Response, extra: Operation['responses'] = {}): Operation {
  return { operationId, summary, description, tags: ['meta'], responses: { 200: ok, ...extra }, security: [] };
}

const schemaOf = (name: string): MediaType => ({ schema: ref('schemas', name) });

export function metaPaths(): Record<string, PathItem> {
  const slugParameter = {
    name: 'slug',
    in: 'path' as const,
    required: true,
    description: 'A problem type slug, the last segment of a problem’s `type`.',
    schema: { type: 'string', enum: Object.keys(PROBLEMS) },
  };
  const skillParameter = {
    name: 'name',
    in: 'path' as const,
    required: true,
    description: 'A skill’s name, as the Agent Skills index lists it.',
    schema: { type: 'string', enum: SKILLS.map((s) => s.name) },
  };
  const negotiated: readonly HeaderName[] = [...STATIC, 'Vary'];
  return {
    [LINKS.openapi]: {
      get: operation(
        'getOpenApiJson',
        'This OpenAPI description (JSON)',
        'The canonical, language-neutral contract of the REST API, generated from the collection declarations.',
        { description: 'The OpenAPI 3.1 description.', headers: headerRefs(STATIC), content: { 'application/openapi+json': schemaOf('OpenApiDocument') } },
        { 304: notModified(STATIC) },
      ),
    },
    [LINKS.openapiYaml]: {
      get: operation(
        'getOpenApiYaml',
        'This OpenAPI description (YAML)',
        'The same description as `/openapi.json`, in YAML.',
        { description: 'The OpenAPI 3.1 description.', headers: headerRefs(STATIC), content: { 'application/openapi+yaml': { schema: { type: 'string' } } } },
        { 304: notModified(STATIC) },
      ),
    },
    [LINKS.meta]: {
      get: operation(
        'getServiceMetadata',
        'Service metadata',
        'What the service is, its contract version, every collection with its path and item count, and links to the other service documents.',
        { description: 'Service metadata.', headers: headerRefs(API_STATIC), content: { 'application/json': schemaOf('ServiceMeta') } },
        { 304: notModified(API_STATIC) },
      ),
    },
    [LINKS.status]: {
      get: operation(
        'getServiceStatus',
        'Service status',
        'Whether this process is serving, the API version, and how fresh its data is. Computed by the running process and never cached.',
        {
          description: 'The process is serving.',
          headers: headerRefs([...COMMON, 'CacheControl']),
          content: { 'application/json': schemaOf('ServiceStatus') },
        },
        {
          503: {
            description: 'The process is stopping (`status: draining`): it finishes what it has and takes nothing new; a load balancer takes it out.',
            headers: headerRefs([...COMMON, 'CacheControl']),
            content: { 'application/json': schemaOf('ServiceStatus') },
          },
        },
      ),
    },
    [LINKS.apiCatalog]: {
      get: operation(
        'getApiCatalog',
        'API catalog (RFC 9727)',
        'The well-known API catalog: a linkset pointing at this description, the documentation, the metadata and the status.',
        {
          description: 'The API catalog (sent with `profile="https://www.rfc-editor.org/info/rfc9727"`).',
          headers: headerRefs(STATIC),
          content: { 'application/linkset+json': schemaOf('ApiCatalog') },
        },
        { 304: notModified(STATIC) },
      ),
    },
    [LINKS.mcpServerCard]: {
      get: operation(
        'getMcpServerCard',
        'MCP server card',
        `The public MCP server (\`${LINKS.mcp}\`): name, version, description, URL, transport and protocol version, its tools with their titles, no authentication, and the owner lane with its protected resource metadata URL.`,
        { description: 'The server card.', headers: headerRefs(STATIC), content: { 'application/json': schemaOf('McpServerCard') } },
        { 304: notModified(STATIC) },
      ),
    },
    [LINKS.mcpDiscovery]: {
      get: operation(
        'getMcpDiscovery',
        'MCP discovery',
        'The public MCP server in the shapes MCP client configurations use (`mcpServers`, `servers`).',
        { description: 'The discovery document.', headers: headerRefs(STATIC), content: { 'application/json': schemaOf('McpDiscovery') } },
        { 304: notModified(STATIC) },
      ),
    },
    [LINKS.agentSkills]: {
      get: operation(
        'getAgentSkillsIndex',
        'Agent Skills index',
        'The Agent Skills discovery index (v0.2.0): each skill’s name, what it is for, where its SKILL.md is served and the SHA-256 digest of those bytes. The same skills the MCP server lists with `skills/list`.',
        { description: 'The skills index.', headers: headerRefs(STATIC), content: { 'application/json': schemaOf('AgentSkillsIndex') } },
        { 304: notModified(STATIC) },
      ),
    },
    [agentSkillUrl('{name}')]: {
      parameters: [skillParameter],
      get: operation(
        'getAgentSkill',
        'One agent skill (SKILL.md)',
        'A skill’s SKILL.md: front matter with its name and description, then how to combine the tools for its task. Its SHA-256 digest is the one the index gives.',
        { description: 'The SKILL.md.', headers: headerRefs(STATIC), content: { 'text/markdown': { schema: { type: 'string' } } } },
        { 304: notModified(STATIC), 404: problemRef(404) },
      ),
    },
    [LINKS.resourceCatalog]: {
      get: operation(
        'getResourceCatalog',
        'Resource catalog',
        'Every resource an agent can read: each collection with its media types and the MCP tool that reads it, the exports, calendars, feeds and taste documents, the agent skills and the MCP views — where over HTTP, and the MCP resource URI.',
        { description: 'The resource catalog.', headers: headerRefs(STATIC), content: { 'application/json': schemaOf('ResourceCatalog') } },
        { 304: notModified(STATIC) },
      ),
    },
    [LINKS.problems]: {
      get: operation(
        'listProblemTypes',
        'Problem type registry',
        'Every problem type the API answers with: slug, status, title and when it happens. JSON by default; HTML when `Accept` prefers it.',
        { description: 'The registry.', headers: headerRefs(negotiated), content: { 'application/json': schemaOf('ProblemTypeList'), 'text/html': html } },
        { 304: notModified(negotiated) },
      ),
    },
    [`${LINKS.problems}{slug}`]: {
      parameters: [slugParameter],
      get: operation(
        'getProblemType',
        'One problem type',
        'What a problem type means and what to do about it. JSON by default; HTML when `Accept` prefers it.',
        { description: 'The problem type.', headers: headerRefs(negotiated), content: { 'application/json': schemaOf('ProblemType'), 'text/html': html } },
        { 304: notModified(negotiated), 404: problemRef(404) },
      ),
    },
  };
}
