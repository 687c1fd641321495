/**
 * The service's own documents, built from the declarations and the image: the OpenAPI
 * description (`/openapi.json`, `/openapi.yaml`), service
 * metadata (`/api/meta.json`), the RFC 9727 API catalog (`/.well-known/api-catalog`, a
 * linkset), the problem registry in JSON (`/problems/index.json`, and
 * `/problems/<slug>.json` for each type; the HTML pages are Astro's), and agent discovery
 * over HTTP: the Agent Skills index with each SKILL.md, and the resource catalog
 * (`src/compile/artifacts/resource-catalog.ts`). They link to each
 * other, so any one of them leads to the rest. Links are root-relative: the documents do
 * not depend on the host serving them.
 */
import { restCollections } from '../../collections/index.ts';
import { PROBLEMS, type ProblemSlug } from '../../core/problems.ts';
import type { Image } from '../../core/image.ts';
import { API_VERSION } from '../../http/headers.ts';
import { openApiDocument } from '../../openapi/document.ts';
import { openApiYaml } from '../../openapi/yaml.ts';
import { graphqlSdl } from '../../graphql/schema.ts';
import { contract } from '../../rpc/contract.ts';
import { sqlProfile } from '../../sql/profile.ts';
import { TASTE_PROFILE_MEDIA_TYPE, type TasteProfile } from '../../taste/profile.ts';
import { TASTE_PROFILE_SCHEMA } from '../../taste/profile-schema.ts';
import { TASTE_SUMMARY_SCHEMA } from '../../taste/summary.ts';
import { agentSkillUrl, collectionUrl, LINKS, problemJsonUrl, problemUrl, URLS } from '../../urls.ts';
import { mcpDiscovery, serverCard, setupMarkdown } from '../../mcp/discovery.ts';
import { agentSkillsIndex, SKILL_MIME_TYPE, SKILLS } from '../../mcp/skills.ts';
import type { Document } from './document.ts';
import { resourceCatalog } from './resource-catalog.ts';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export function problemDocument(slug: ProblemSlug): Record<string, unknown> {
  const { status, title, when } = PROBLEMS[slug];
  return { type: problemUrl(slug), slug, status, title, description: when, registry: LINKS.problems };
}

export function serviceMetadata(image: Image): Record<string, unknown> {
  return {
    name: 'Collections',
    description: "One person's collections, published as read-only lists with open APIs.",
    version: API_VERSION,
    links: LINKS,
    collections: restCollections.map((c) => ({
      name: c.name,
      title: c.title,
      description: c.description,
      path: collectionUrl(c.name),
      count: image.count(c.name),
      asOf: image.asOf(c.name),
    })),
  };
}

/** RFC 9727 §4: a linkset (RFC 9264) with one context per API (REST, RPC, GraphQL): its description, docs, status and metadata. */
export function apiCatalog(): Record<string, unknown> {
  return {
    linkset: [
      {
        anchor: '/api/',
        'service-desc': [
          { href: LINKS.openapi, type: 'application/openapi+json' },
          { href: LINKS.openapiYaml, type: 'application/openapi+yaml' },
        ],
        'service-doc': [
          { href: LINKS.home, type: 'text/html' },
          { href: LINKS.agentSkills, type: 'application/json', title: 'Agent Skills index' },
        ],
        'service-meta': [
          { href: LINKS.meta, type: 'application/json' },
          { href: LINKS.resourceCatalog, type: 'application/json', title: 'Resource catalog' },
        ],
        status: [{ href: LINKS.status, type: 'application/json' }],
      },
      {
        anchor: LINKS.rpc,
        'service-desc': [
          { href: LINKS.rpcTypes, type: 'text/plain' },
          { href: LINKS.rpcContract, type: 'application/json' },
        ],
        'service-doc': [{ href: LINKS.home, type: 'text/html' }],
        'service-meta': [{ href: LINKS.meta, type: 'application/json' }],
        status: [{ href: LINKS.status, type: 'application/json' }],
      },
      {
        anchor: LINKS.graphql,
        'service-desc': [{ href: LINKS.graphqlSchema, type: 'text/plain' }],
        'service-doc': [{ href: LINKS.graphql, type: 'text/html' }],
        'service-meta': [{ href: LINKS.meta, type: 'application/json' }],
        status: [{ href: LINKS.status, type: 'application/json' }],
      },
      {
        anchor: LINKS.mcp,
        'service-desc': [{ href: LINKS.mcpServerCard, type: 'application/json' }],
        'service-doc': [
          { href: URLS.mcpSetup, type: 'text/html' },
          { href: LINKS.agentSkills, type: 'application/json', title: 'Agent Skills index' },
        ],
        'service-meta': [
          { href: LINKS.mcpDiscovery, type: 'application/json' },
          { href: LINKS.resourceCatalog, type: 'application/json', title: 'Resource catalog' },
        ],
        status: [{ href: LINKS.status, type: 'application/json' }],
      },
    ],
  };
}

/** `/api/meta.json`: reads every REST collection's count and as-of time. */
export function metaDocument(image: Image): Document {
  return { path: LINKS.meta, file: 'api/meta.json', contentType: 'application/json', body: json(serviceMetadata(image)) };
}

/** The portable music taste profile: reads the music collection. */
export function tasteProfileDocument(profile: TasteProfile, lastModified: string | undefined): Document {
  return { path: URLS.tasteProfile, file: URLS.tasteProfile.slice(1), contentType: TASTE_PROFILE_MEDIA_TYPE, body: json(profile), lastModified };
}

/** The MCP discovery documents and the setup page's Markdown twin: declarations, the site URL (absolute, as MCP clients need it) and the owner's name. */
export function mcpDocuments(siteUrl: string, owner?: string): Document[] {
  return [
    { path: LINKS.mcpServerCard, file: LINKS.mcpServerCard.slice(1), contentType: 'application/json', body: json(serverCard(siteUrl, owner)) },
    { path: LINKS.mcpDiscovery, file: LINKS.mcpDiscovery.slice(1), contentType: 'application/json', body: json(mcpDiscovery(siteUrl, owner)) },
    { path: URLS.mcpSetupMarkdown, file: URLS.mcpSetupMarkdown.slice(1), contentType: 'text/markdown; charset=utf-8', body: setupMarkdown(siteUrl) },
  ];
}

/** Agent discovery over HTTP: the skills index, each SKILL.md (the bytes its digest names, and MCP serves) and the resource catalog. */
export function agentDocuments(): Document[] {
  return [
    { path: LINKS.agentSkills, file: LINKS.agentSkills.slice(1), contentType: 'application/json', body: json(agentSkillsIndex()) },
    ...SKILLS.map((s) => ({
      path: agentSkillUrl(s.name),
      file: agentSkillUrl(s.name).slice(1),
      contentType: `${SKILL_MIME_TYPE}; charset=utf-8`,
      body: s.text,
    })),
    { path: LINKS.resourceCatalog, file: LINKS.resourceCatalog.slice(1), contentType: 'application/json', body: json(resourceCatalog()) },
  ];
}

/** The documents made of declarations alone (no record): the same for any content. */
export function serviceDocuments(): Document[] {
  const slugs = Object.keys(PROBLEMS) as ProblemSlug[];
  return [
    { path: LINKS.openapi, file: 'openapi.json', contentType: 'application/openapi+json', body: json(openApiDocument()) },
    { path: LINKS.openapiYaml, file: 'openapi.yaml', contentType: 'application/openapi+yaml', body: openApiYaml() },
    { path: LINKS.graphqlSchema, file: LINKS.graphqlSchema.slice(1), contentType: 'text/plain; charset=utf-8', body: graphqlSdl() },
    { path: LINKS.rpcTypes, file: LINKS.rpcTypes.slice(1), contentType: 'text/plain; charset=utf-8', body: contract().declaration },
    { path: LINKS.rpcContract, file: LINKS.rpcContract.slice(1), contentType: 'application/json', body: json(contract().document) },
    { path: LINKS.sqlProfile, file: 'api/sql/profile.json', contentType: 'application/json', body: json(sqlProfile()) },
    { path: URLS.tasteProfileSchema, file: URLS.tasteProfileSchema.slice(1), contentType: 'application/schema+json', body: json(TASTE_PROFILE_SCHEMA) },
    { path: URLS.tasteSummarySchema, file: URLS.tasteSummarySchema.slice(1), contentType: 'application/schema+json', body: json(TASTE_SUMMARY_SCHEMA) },
    {
      path: LINKS.apiCatalog,
      file: '.well-known/api-catalog',
      contentType: 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
      body: json(apiCatalog()),
    },
    {
      path: URLS.problemsIndex,
      file: URLS.problemsIndex.slice(1),
      contentType: 'application/json',
      body: json({ problems: slugs.map(problemDocument), links: LINKS }),
    },
    ...agentDocuments(),
    ...slugs.map((slug) => ({
      path: problemJsonUrl(slug),
      file: problemJsonUrl(slug).slice(1),
      contentType: 'application/json',
      body: json(problemDocument(slug)),
    })),
  ];
}
