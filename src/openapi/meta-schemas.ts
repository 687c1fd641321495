/**
 * The bodies of the service's meta and discovery endpoints, as exported JSON Schemas:
 * the OpenAPI document describes them with these, and the implementation (and its tests)
 * can be checked against the same objects. Small and closed (`additionalProperties:
 * false`) on purpose: a field added to an endpoint must be added here, so the published
 * description never lags behind. `LINKS` names where each is served.
 */
import { restCollections } from '../collections/index.ts';
import { PROBLEMS } from '../core/problems.ts';
import { API_VERSION } from '../http/headers.ts';
import type { JsonSchema } from './types.ts';
import { LINKS } from '../urls.ts';

const REST_NAMES = restCollections.map((c) => c.name);
const SLUGS = Object.keys(PROBLEMS);
const uriReference = { type: 'string', format: 'uri-reference' };
const dateTime = { type: 'string', format: 'date-time' };

/** The `links` object of the metadata and the problem registry: every service document, root-relative. */
const LINKS_SCHEMA: JsonSchema = {
  type: 'object',
  description:
    'Root-relative links to the home page, the OpenAPI description (JSON and YAML), metadata, status, API catalog, problem registry, public SQL, search, the feeds, the MCP endpoint with its server card and discovery document, the RPC endpoint with its declaration and contract, the Agent Skills index and the resource catalog.',
  properties: Object.fromEntries(Object.entries(LINKS).map(([name, path]) => [name, { type: 'string', const: path }])),
  required: Object.keys(LINKS),
  additionalProperties: false,
};

/** `GET /api/meta.json`: what the service is and where everything about it lives. */
export const SERVICE_META_SCHEMA: JsonSchema = {
  title: 'Service metadata',
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1 },
    description: { type: 'string' },
    version: { type: 'string', const: API_VERSION, description: 'The REST contract version.' },
    links: LINKS_SCHEMA,
    collections: {
      type: 'array',
      description: 'Every REST collection, in the service’s order.',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', enum: REST_NAMES },
          title: { type: 'string' },
          description: { type: 'string' },
          path: { type: 'string', pattern: '^/api/[a-z][a-z-]*\\.json$' },
          count: { type: 'integer', minimum: 0, description: 'Published items.' },
          asOf: { ...dateTime, description: 'When the collection’s data last changed.' },
        },
        required: ['name', 'title', 'description', 'path', 'count', 'asOf'],
        additionalProperties: false,
      },
      minItems: REST_NAMES.length,
      maxItems: REST_NAMES.length,
    },
  },
  required: ['name', 'description', 'version', 'links', 'collections'],
  additionalProperties: false,
};

/** `GET /api/status.json`: liveness and how fresh the data is. */
export const STATUS_SCHEMA: JsonSchema = {
  title: 'Service status',
  type: 'object',
  properties: {
    status: {
      type: 'string',
      enum: ['ok', 'degraded', 'draining'],
      description:
        '`degraded` while something works in a lesser mode (quotas counted in process because Redis is away; `reason` says what); `draining`: the process is stopping (answered with 503).',
    },
    reason: { type: 'string', description: 'Present when quotas are degraded: what is degraded and why.' },
    version: { type: 'string', const: API_VERSION },
    dataAsOf: { ...dateTime, description: 'The latest as-of time of any collection.' },
    release: { type: 'string', description: 'The release this replica serves, when it follows `RELEASES_DIR`.' },
    quotas: {
      type: 'object',
      description: 'Where quotas count: `memory` (this process) or `redis` (shared by replicas, `REDIS_URL`), and whether that works.',
      properties: { store: { type: 'string', enum: ['memory', 'redis'] }, state: { type: 'string', enum: ['ok', 'degraded'] }, reason: { type: 'string' } },
      required: ['store', 'state'],
      additionalProperties: false,
    },
    links: LINKS_SCHEMA,
    collections: {
      type: 'object',
      properties: Object.fromEntries(
        REST_NAMES.map((name) => [
          name,
          {
            type: 'object',
            properties: { count: { type: 'integer', minimum: 0 }, asOf: dateTime },
            required: ['count', 'asOf'],
            additionalProperties: false,
          },
        ]),
      ),
      required: REST_NAMES,
      additionalProperties: false,
    },
  },
  required: ['status', 'version', 'dataAsOf', 'links', 'collections'],
  additionalProperties: false,
};

const LINK_TARGET: JsonSchema = {
  type: 'object',
  properties: { href: uriReference, type: { type: 'string' }, title: { type: 'string' } },
  required: ['href'],
  additionalProperties: false,
};

/** `GET /.well-known/api-catalog`: an RFC 9727 API catalog, an RFC 9264 linkset. */
export const API_CATALOG_SCHEMA: JsonSchema = {
  title: 'API catalog (RFC 9727 linkset)',
  description:
    'One link context per API, anchored at the API’s root, with `service-desc` (the OpenAPI description, JSON and YAML; the GraphQL schema; the MCP server card), `service-doc` (the site; the Agent Skills index), `service-meta` (/api/meta.json; the MCP discovery document; the resource catalog) and `status` (/api/status.json).',
  type: 'object',
  properties: {
    linkset: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          anchor: uriReference,
          'service-desc': { type: 'array', minItems: 1, items: LINK_TARGET },
          'service-doc': { type: 'array', items: LINK_TARGET },
          'service-meta': { type: 'array', minItems: 1, items: LINK_TARGET },
          status: { type: 'array', minItems: 1, items: LINK_TARGET },
          item: { type: 'array', items: LINK_TARGET },
        },
        required: ['anchor', 'service-desc', 'service-meta', 'status'],
        additionalProperties: false,
      },
    },
  },
  required: ['linkset'],
  additionalProperties: false,
};

/** One registered problem type (`GET /problems/{slug}`, JSON). */
export const PROBLEM_TYPE_SCHEMA: JsonSchema = {
  title: 'Problem type',
  type: 'object',
  properties: {
    type: { type: 'string', pattern: `^/problems/(${SLUGS.join('|')})$`, description: 'The `type` of problems of this kind.' },
    slug: { type: 'string', enum: SLUGS },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    title: { type: 'string' },
    description: { type: 'string', description: 'When it happens and what to do.' },
    registry: { type: 'string', const: LINKS.problems, description: 'The registry of every problem type.' },
  },
  required: ['type', 'slug', 'status', 'title', 'description', 'registry'],
  additionalProperties: false,
};

/** The registry (`GET /problems/`, JSON). */
export const PROBLEM_TYPE_LIST_SCHEMA: JsonSchema = {
  title: 'Problem types',
  type: 'object',
  properties: {
    problems: { type: 'array', items: PROBLEM_TYPE_SCHEMA, minItems: SLUGS.length, maxItems: SLUGS.length },
    links: LINKS_SCHEMA,
  },
  required: ['problems', 'links'],
  additionalProperties: false,
};

/** `GET /openapi.json`: only its frame is checked here; the lint test checks the rest. */
export const OPENAPI_DOCUMENT_SCHEMA: JsonSchema = {
  title: 'OpenAPI description',
  type: 'object',
  properties: {
    openapi: { type: 'string', const: '3.1.0' },
    info: { type: 'object', properties: { version: { type: 'string', const: API_VERSION } }, required: ['version'] },
    paths: { type: 'object' },
  },
  required: ['openapi', 'info', 'paths'],
};
