/**
 * Every public path of the site and its APIs, spelled once. The route table, the OpenAPI
 * description, the discovery documents, the feeds and the pages import their paths from
 * here, so a path cannot drift between the place that serves it and the places that
 * announce it. Paths are root-relative; `SITE_URL` makes them absolute where a format
 * needs that. Only data lives here: no module of the project is imported.
 */

/** The service documents, as the `links` object of the metadata and the problem registry names them. */
export const LINKS = {
  home: '/',
  openapi: '/openapi.json',
  openapiYaml: '/openapi.yaml',
  meta: '/api/meta.json',
  status: '/api/status.json',
  apiCatalog: '/.well-known/api-catalog',
  problems: '/problems/',
  sql: '/api/sql',
  sqlProfile: '/api/sql/profile.json',
  graphql: '/graphql',
  graphqlSchema: '/graphql/schema.graphql',
  search: '/api/search.json',
  jsonFeed: '/feed.json',
  atomFeed: '/feed.xml',
  mcp: '/mcp',
  mcpServerCard: '/.well-known/mcp/server-card.json',
  mcpDiscovery: '/.well-known/mcp.json',
  rpc: '/api/rpc',
  rpcTypes: '/api/rpc/types.d.ts',
  rpcContract: '/api/rpc/contract.json',
  /** The Agent Skills discovery index (the well-known path its convention fixes). */
  agentSkills: '/.well-known/agent-skills/index.json',
  /** Every resource an agent can read here: where, as what, and through which tool. */
  resourceCatalog: '/.well-known/resource-catalog.json',
} as const;

/** Every fixed public path: the service documents and the endpoints and pages beside them. */
export const URLS = {
  ...LINKS,
  problemsIndex: '/problems/index.json',
  tasteSummary: '/api/taste/summary.json',
  tasteProfile: '/.well-known/taste-profile.json',
  musicIntersections: '/api/music/intersections.json',
  musicStation: '/api/music/station.json',
  /** The JSON Schemas of the taste documents, versioned by name. */
  tasteProfileSchema: '/schemas/taste-profile-1.json',
  tasteSummarySchema: '/schemas/taste-summary-1.json',
  blog: '/blog/',
  subscribe: '/subscribe/',
  mcpSetup: '/mcp/setup/',
  mcpSetupMarkdown: '/mcp/setup/index.md',
} as const;

/** The REST list of a collection (and, for its static page one, the file a CDN serves). */
export const collectionUrl = (name: string) => `/api/${name}.json`;

/** A record's page on the site. */
export const recordUrl = (collection: string, canonicalId: string) => `/${collection}/${canonicalId}`;

/** A problem type's URI (and its page): the `type` member of a problem. */
export const problemUrl = (slug: string) => `${LINKS.problems}${slug}`;

/** A skill's SKILL.md beside the Agent Skills index: `/.well-known/agent-skills/<name>/SKILL.md`. */
export const agentSkillUrl = (name: string) => `${LINKS.agentSkills.replace(/index\.json$/, '')}${name}/SKILL.md`;

/** A problem type's registry entry as JSON. */
export const problemJsonUrl = (slug: string) => `${LINKS.problems}${slug}.json`;

/** A whole-collection map export: where it is served, from which collection, as what. */
export interface ExportSpec {
  path: string;
  collection: string;
  mediaType: string;
}

export const EXPORTS: readonly ExportSpec[] = [
  { path: '/places.geojson', collection: 'places', mediaType: 'application/geo+json' },
  { path: '/places.kml', collection: 'places', mediaType: 'application/vnd.google-earth.kml+xml' },
  { path: '/places.gpx', collection: 'places', mediaType: 'application/gpx+xml' },
];

export const exportAt = (path: string) => EXPORTS.find((e) => e.path === path);

/** A calendar feed: where it is served, its name and description, and the collections whose events it holds. */
export interface CalendarSpec {
  path: string;
  name: string;
  description: string;
  collections: readonly string[];
}

export const CALENDARS: readonly CalendarSpec[] = [
  {
    path: '/calendar.ics',
    name: 'Concerts and sporting events',
    description: 'Every concert and sporting event in the collections.',
    collections: ['concerts', 'sporting-events'],
  },
  { path: '/concerts.ics', name: 'Concerts', description: 'Every concert in the collections.', collections: ['concerts'] },
  { path: '/sports.ics', name: 'Sporting events', description: 'Every sporting event in the collections.', collections: ['sporting-events'] },
];

/** The site's pages beside the APIs: search, the API guide, the files for crawlers and agents. */
export const PAGES = {
  search: '/search/',
  map: '/map/',
  api: '/api/',
  apiReference: '/api/reference/',
  llms: '/llms.txt',
  robots: '/robots.txt',
  sitemap: '/sitemap.xml',
} as const;

/** One tag's page of the API reference (its operations and schemas). */
export const apiReferenceTagUrl = (tag: string) => `${PAGES.apiReference}${tag}/`;

/** A collection's page on the site (the blog's is its index of posts). */
export const collectionPageUrl = (name: string) => `/${name}/`;

/**
 * A sized WebP variant of a published image (src/compile/content/media.ts): under `/media/`, the
 * original's path without its extension, a hash of the original's bytes (so a changed
 * file gets new names, and every name can be cached forever), and the width.
 * `/photos/2024/x.jpg` → `/media/photos/2024/x.3f2a9c0d1e4b.800w.webp`.
 */
export const mediaVariantUrl = (src: string, hash: string, width: number) => `${MEDIA_VARIANTS}${src.slice(1).replace(/\.[^./]*$/, '')}.${hash}.${width}w.webp`;

/** Where the image variants live; their names change with their bytes, so they are cached as immutable. */
export const MEDIA_VARIANTS = '/media/';

/** The Markdown twin prerendered beside a page that ends in `/`: `/movies/` → `/movies/index.md`. */
export const markdownTwinUrl = (pagePath: string) => `${pagePath.endsWith('/') ? pagePath : `${pagePath}/`}index.md`;
/**
 * The owner lane (SPEC §4.8, §5): the protected MCP endpoint, its metadata documents and
 * the authorization server's endpoints. The resource identifier of `ownerMcp` is its full
 * URL under `SITE_URL`.
 */
export const OAUTH_URLS = {
  ownerMcp: '/owner/mcp',
  protectedResource: '/.well-known/oauth-protected-resource/owner/mcp',
  authorizationServer: '/.well-known/oauth-authorization-server',
  register: '/oauth/register',
  authorize: '/oauth/authorize',
  callback: '/oauth/callback',
  token: '/oauth/token',
  revoke: '/oauth/revoke',
  clients: '/oauth/clients',
} as const;

/**
 * The path prefixes of the owner lane, every `OAUTH_URLS` path among them: the paths only
 * the writer replica answers (src/release/replica.ts), which a load balancer routes to it.
 */
export const OWNER_LANE_PREFIXES = ['/owner/', '/oauth/', '/.well-known/oauth-', '/micropub'] as const;

/**
 * Micropub (W3C Recommendation 2017-05-23) on the owner lane: the endpoint the home page
 * names with `rel="micropub"`, and its media endpoint, which `q=config` names. Both are
 * the writer's paths (under `OWNER_LANE_PREFIXES`): every Micropub request writes or
 * reads the owner's content files.
 */
export const MICROPUB_URLS = {
  micropub: '/micropub',
  media: '/micropub/media',
} as const;

/**
 * Where the media endpoint keeps an uploaded image, under the content's media folder
 * (src/compile/content/media.ts publishes `content/media/<path>` at `/<path>`):
 * `/uploads/2026/<hash>.jpg`. Outside `/micropub`, so the published file is a static one
 * every replica and a CDN serve.
 */
export const uploadedMediaUrl = (year: number, name: string) => `/uploads/${year}/${name}`;
