/**
 * The OpenAPI 3.1 description of the REST API, the canonical contract (SPEC §1.3). It is
 * a pure function of code — the collection declarations, the serializer registry, the
 * problem catalog, the limits and the HTTP layer's header values — and reads no content,
 * so the same code always gives the same document, key order included. This module only
 * assembles: paths and schemas come from the modules beside it.
 */
import { MCP_DISCOVERY_SCHEMA, SERVER_CARD_SCHEMA } from '../mcp/discovery.ts';
import { AGENT_SKILLS_INDEX_SCHEMA } from '../mcp/skills.ts';
import { RESOURCE_CATALOG_SCHEMA } from '../compile/artifacts/resource-catalog.ts';
import { restCollections } from '../collections/index.ts';
import { LIMIT_DEFINITIONS } from '../core/limits.ts';
import { API_VERSION } from '../http/headers.ts';
import { MICROPUB_URLS, OAUTH_URLS } from '../urls.ts';
import { collectionPathItem, isGeographic } from './collection-paths.ts';
import { itemSchema } from '../collections/item-schema.ts';
import { exportPaths } from './export-paths.ts';
import { metaPaths } from './meta-paths.ts';
import { searchPaths, SEARCH_SCHEMAS } from './search-paths.ts';
import { MICROPUB_SCHEMAS, micropubPaths } from './micropub-paths.ts';
import { OAUTH_SCHEMAS, oauthPaths, OWNER_SECURITY_SCHEMES } from './oauth-paths.ts';
import { rpcPaths } from './rpc-paths.ts';
import { sqlPaths } from './sql-paths.ts';
import { tastePaths, tasteSchemas } from './taste-paths.ts';
import {
  API_CATALOG_SCHEMA,
  OPENAPI_DOCUMENT_SCHEMA,
  PROBLEM_TYPE_LIST_SCHEMA,
  PROBLEM_TYPE_SCHEMA,
  SERVICE_META_SCHEMA,
  STATUS_SCHEMA,
} from './meta-schemas.ts';
import { collectionSchemas, SHARED_PAGE_SCHEMAS } from './page-schemas.ts';
import { COMMON_PARAMETERS } from './parameters.ts';
import { PROBLEM_SCHEMA, problemResponses } from './problems.ts';
import { RESPONSE_HEADERS } from './response-headers.ts';
import type { JsonSchema, OpenApiDocument, PathItem, Tag } from './types.ts';

export type { OpenApiDocument } from './types.ts';

/** Tags of operations that are not a collection list (SPEC §1). */
const OTHER_TAGS: readonly Tag[] = [
  { name: 'search', description: 'Search across every collection at once: ranked hits that say which collection and which field matched.' },
  { name: 'rpc', description: "Object-capability RPC over Cap'n Web: HTTP batches and WebSocket sessions, typed by a generated declaration." },
  { name: 'meta', description: 'Service metadata and discovery: this description, metadata, status, the API catalog and the problem registry.' },
  {
    name: 'oauth',
    description: `The owner lane: an OAuth 2.1 authorization server that only the site’s owner can complete, and \`${OAUTH_URLS.ownerMcp}\`, the MCP endpoint where the owner’s agents read and change the collections. Everything else in this API is anonymous.`,
    'x-displayName': 'Owner lane (OAuth)',
  },
  {
    name: 'micropub',
    description: `The owner lane's Micropub endpoint (\`${MICROPUB_URLS.micropub}\`) and media endpoint (\`${MICROPUB_URLS.media}\`): apps post films, books, check-ins, listens and events, and upload images, under the owner's IndieAuth token.`,
    'x-displayName': 'Owner lane (Micropub)',
  },
];

function limitsTable(): string {
  const rows = Object.entries(LIMIT_DEFINITIONS).map(([name, limit]) => `| \`${name}\` | ${limit.value} ${limit.unit} | ${limit.why} |`);
  return ['| Limit | Value | Why |', '| --- | --- | --- |', ...rows].join('\n');
}

function description(): string {
  return [
    'A public, anonymous, read-only API over one person’s curated collections. Every collection is a list at `/api/<name>.json` with filters, search, sorting, keyset pagination (`cursor`) and optional facets, served as JSON, CSV and, for located collections, map formats.',
    '',
    'Errors are RFC 9457 problem details whose `type` is a registered slug under `/problems/`. Every response carries `API-Version`; request quotas are reported with the IETF RateLimit fields. Any request may also be refused before it reaches an operation: a malformed target or `Host` is a 400 `bad-request`, a target over 8 KiB a 414 `target-too-long`, an oversized header section a 431 `headers-too-large`, a request that does not arrive in time a 408 `request-timeout` and an `Expect` other than `100-continue` a 417 `expectation-failed` (both documented on the operations that take a body), and a method the path does not take a 405 with `Allow`.',
    '',
    'Content is all rights reserved unless a record states its own licence (photos carry `license`, third-party coordinates `coordinatesLicense`); the owner’s AI-use preferences are in the `Content-Usage` and `Content-Signal` headers.',
    '',
    '## Limits',
    '',
    limitsTable(),
  ].join('\n');
}

export function openApiDocument(): OpenApiDocument {
  const paths: Record<string, PathItem> = {};
  const schemas: Record<string, JsonSchema> = { Problem: PROBLEM_SCHEMA, ...SHARED_PAGE_SCHEMAS };
  for (const c of restCollections) {
    const item = itemSchema(c);
    const [path, pathItem] = collectionPathItem(c, item);
    paths[path] = pathItem;
    Object.assign(schemas, collectionSchemas(c, item, isGeographic(c)));
  }
  Object.assign(paths, searchPaths(), metaPaths(), exportPaths(), sqlPaths(), tastePaths(), rpcPaths(), oauthPaths(), micropubPaths());
  Object.assign(schemas, SEARCH_SCHEMAS, tasteSchemas(), OAUTH_SCHEMAS, MICROPUB_SCHEMAS);
  Object.assign(schemas, {
    ServiceMeta: SERVICE_META_SCHEMA,
    ServiceStatus: STATUS_SCHEMA,
    ApiCatalog: API_CATALOG_SCHEMA,
    ProblemType: PROBLEM_TYPE_SCHEMA,
    ProblemTypeList: PROBLEM_TYPE_LIST_SCHEMA,
    OpenApiDocument: OPENAPI_DOCUMENT_SCHEMA,
    McpServerCard: SERVER_CARD_SCHEMA,
    McpDiscovery: MCP_DISCOVERY_SCHEMA,
    AgentSkillsIndex: AGENT_SKILLS_INDEX_SCHEMA,
    ResourceCatalog: RESOURCE_CATALOG_SCHEMA,
  });
  const collectionTags: Tag[] = restCollections.map((c) => ({ name: c.name, description: c.description, 'x-displayName': c.title }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Collections API',
      version: API_VERSION,
      summary: 'Read-only lists of one person’s curated collections.',
      description: description(),
      license: { name: 'All rights reserved, except where a record states its own licence', identifier: 'LicenseRef-All-Rights-Reserved' },
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '/', description: 'The host serving this description.' }],
    security: [],
    tags: [...collectionTags, ...OTHER_TAGS],
    paths,
    components: {
      schemas,
      parameters: { ...COMMON_PARAMETERS },
      headers: { ...RESPONSE_HEADERS },
      responses: problemResponses(),
      securitySchemes: OWNER_SECURITY_SCHEMES,
    },
  };
}
