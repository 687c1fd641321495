/**
 * The resource catalog (`/.well-known/resource-catalog.json`, beside the other discovery
 * documents; `/api/<name>.json` stays the collections' namespace): every resource an agent can read from the
 * service, in one static document made of declarations alone — each REST collection with
 * the media types it is served as and the MCP tool that reads it, the map exports, the
 * calendars, the feeds, the taste documents, the agent skills (over HTTP and as MCP
 * resources, with their digests) and the MCP views. An entry says where it is read over
 * HTTP (`href`, root-relative), its MCP resource URI (`uri`) when MCP serves it, or
 * both; so an agent that starts from the API catalog or `/api/meta.json` finds the rest
 * without speaking MCP first. Its closed schema is what the OpenAPI description publishes.
 */
import { restCollections } from '../../collections/index.ts';
import type { JsonSchema } from '../../collections/item-schema.ts';
import { ATOM_MEDIA_TYPE, JSON_FEED_MEDIA_TYPE } from '../../formats/feed.ts';
import { serializersFor } from '../../formats/index.ts';
import { RESOURCES } from '../../mcp/resources.ts';
import { SKILL_MIME_TYPE, SKILLS } from '../../mcp/skills.ts';
import { TASTE_PROFILE_MEDIA_TYPE } from '../../taste/profile.ts';
import { agentSkillUrl, CALENDARS, collectionUrl, EXPORTS, LINKS, URLS } from '../../urls.ts';
import { CALENDAR_MEDIA_TYPE } from '../../formats/ical.ts';

export type ResourceKind = 'collection' | 'export' | 'calendar' | 'feed' | 'document' | 'skill' | 'view';
const KINDS: readonly ResourceKind[] = ['collection', 'export', 'calendar', 'feed', 'document', 'skill', 'view'];

export interface CatalogEntry {
  /** Unique within the catalog: `<kind>:<name>`. */
  id: string;
  kind: ResourceKind;
  title: string;
  description: string;
  /** What it is served as: at `href` (negotiated by Accept when several), or through MCP. */
  mediaTypes: string[];
  /** Where it is read over HTTP, root-relative. */
  href?: string;
  /** Its MCP resource URI (`resources/read` on `/mcp`). */
  uri?: string;
  /** The MCP tool that reads it, with the arguments that select it. */
  tool?: { name: string; arguments: Record<string, string> };
  /** `sha256:` digest of the bytes served, where they are fixed by the build. */
  digest?: string;
}

const FORMAT_NAMES: Readonly<Record<string, string>> = {
  'application/geo+json': 'GeoJSON',
  'application/vnd.google-earth.kml+xml': 'KML',
  'application/gpx+xml': 'GPX',
};

/** sports.list takes sporting events' filters as named arguments; every other collection is read with taste.find. */
const toolFor = (name: string): CatalogEntry['tool'] =>
  name === 'sporting-events' ? { name: 'sports.list', arguments: {} } : { name: 'taste.find', arguments: { collection: name } };

function collectionEntries(): CatalogEntry[] {
  return restCollections.map((c): CatalogEntry => ({
    id: `collection:${c.name}`,
    kind: 'collection',
    title: c.title,
    description: `${c.description} Paged, filtered and sorted as the OpenAPI description says.`,
    mediaTypes: serializersFor(c).map((s) => s.mediaType),
    href: collectionUrl(c.name),
    tool: toolFor(c.name),
  }));
}

function fileEntries(): CatalogEntry[] {
  const exports: CatalogEntry[] = EXPORTS.map((e) => ({
    id: `export:${e.path.slice(1)}`,
    kind: 'export',
    title: `${e.collection} as ${FORMAT_NAMES[e.mediaType] ?? e.mediaType}`,
    description: `The whole ${e.collection} collection in one file.`,
    mediaTypes: [e.mediaType],
    href: e.path,
  }));
  const calendars: CatalogEntry[] = CALENDARS.map((c) => ({
    id: `calendar:${c.path.slice(1)}`,
    kind: 'calendar',
    title: c.name,
    description: `${c.description} An iCalendar subscription.`,
    mediaTypes: [CALENDAR_MEDIA_TYPE],
    href: c.path,
  }));
  const feeds: CatalogEntry[] = [
    {
      id: 'feed:json',
      kind: 'feed',
      title: 'Newest items (JSON Feed)',
      description: 'The newest items of every collection, as JSON Feed 1.1.',
      mediaTypes: [JSON_FEED_MEDIA_TYPE],
      href: URLS.jsonFeed,
    },
    {
      id: 'feed:atom',
      kind: 'feed',
      title: 'Newest items (Atom)',
      description: 'The newest items of every collection, as an Atom feed.',
      mediaTypes: [ATOM_MEDIA_TYPE],
      href: URLS.atomFeed,
    },
  ];
  const documents: CatalogEntry[] = [
    {
      id: 'document:taste-profile',
      kind: 'document',
      title: 'Music taste profile',
      description: 'The owner’s portable music taste profile (version 1).',
      mediaTypes: [TASTE_PROFILE_MEDIA_TYPE],
      href: URLS.tasteProfile,
      tool: { name: 'taste.profile', arguments: {} },
    },
    {
      id: 'document:taste-summary',
      kind: 'document',
      title: 'Movie taste summary',
      description: 'Distributions over the owner’s recommended films and series, with coverage and illustrative examples.',
      mediaTypes: ['application/json'],
      href: URLS.tasteSummary,
      tool: { name: 'taste.summarize', arguments: {} },
    },
  ];
  return [...exports, ...calendars, ...feeds, ...documents];
}

function agentEntries(): CatalogEntry[] {
  const skills: CatalogEntry[] = SKILLS.map((s) => ({
    id: `skill:${s.name}`,
    kind: 'skill',
    title: s.name,
    description: `${s.description} Uses ${s.tools.join(', ')}.`,
    mediaTypes: [SKILL_MIME_TYPE],
    href: agentSkillUrl(s.name),
    uri: s.uri,
    digest: s.sha256,
  }));
  const views: CatalogEntry[] = RESOURCES.map((r) => ({
    id: `view:${r.name}`,
    kind: 'view',
    title: r.title,
    description: r.description,
    mediaTypes: [r.mimeType],
    uri: r.uri,
  }));
  return [...skills, ...views];
}

export function resourceCatalog(): Record<string, unknown> {
  return {
    description:
      'Every resource an agent can read from this service: where over HTTP (href, root-relative), its MCP resource URI on the public MCP server, and the MCP tool that reads it.',
    links: {
      apiCatalog: LINKS.apiCatalog,
      meta: LINKS.meta,
      openapi: LINKS.openapi,
      agentSkills: LINKS.agentSkills,
      mcp: LINKS.mcp,
      mcpServerCard: LINKS.mcpServerCard,
    },
    resources: [...collectionEntries(), ...fileEntries(), ...agentEntries()],
  };
}

const str = { type: 'string', minLength: 1 } as const;
const path = { type: 'string', pattern: '^/' } as const;

export const RESOURCE_CATALOG_SCHEMA: JsonSchema = {
  title: 'Resource catalog',
  description: 'Every resource an agent can read: collections, exports, calendars, feeds, taste documents, agent skills and MCP views.',
  type: 'object',
  properties: {
    description: str,
    links: {
      type: 'object',
      properties: Object.fromEntries(['apiCatalog', 'meta', 'openapi', 'agentSkills', 'mcp', 'mcpServerCard'].map((k) => [k, path])),
      required: ['apiCatalog', 'meta', 'openapi', 'agentSkills', 'mcp', 'mcpServerCard'],
      additionalProperties: false,
    },
    resources: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', pattern: '^[a-z]+:[A-Za-z0-9._-]+$' },
          kind: { enum: [...KINDS] },
          title: str,
          description: str,
          mediaTypes: { type: 'array', minItems: 1, items: str },
          href: path,
          uri: { type: 'string', format: 'uri' },
          tool: {
            type: 'object',
            properties: { name: str, arguments: { type: 'object', additionalProperties: { type: 'string' } } },
            required: ['name', 'arguments'],
            additionalProperties: false,
          },
          digest: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' },
        },
        required: ['id', 'kind', 'title', 'description', 'mediaTypes'],
        anyOf: [{ required: ['href'] }, { required: ['uri'] }],
        additionalProperties: false,
      },
    },
  },
  required: ['description', 'links', 'resources'],
  additionalProperties: false,
} as JsonSchema;
