/** The API guide's sections, for the `/api/` page and its Markdown twin. */
import { LINKS, OAUTH_URLS, PAGES, URLS } from '../urls.ts';

export interface GuideSection {
  title: string;
  links: { label: string; href: string; about: string }[];
}

export const apiGuide = (): GuideSection[] => [
  {
    title: 'REST',
    links: [
      {
        label: 'API reference',
        href: PAGES.apiReference,
        about: 'the OpenAPI description for people: every operation, its parameters, responses and problem types, and the schemas',
      },
      { label: 'OpenAPI description (JSON)', href: LINKS.openapi, about: 'every list, its filters, sort fields, cursors and problems' },
      { label: 'OpenAPI description (YAML)', href: LINKS.openapiYaml, about: 'the same document as YAML' },
      { label: 'Search', href: `${LINKS.search}?q=jazz`, about: 'one query across every collection' },
      { label: 'Service metadata', href: LINKS.meta, about: 'collections, counts, versions' },
      { label: 'Status', href: LINKS.status, about: 'the build being served' },
      { label: 'API catalog', href: LINKS.apiCatalog, about: 'RFC 9727 linkset of the APIs' },
    ],
  },
  {
    title: 'GraphQL and SQL',
    links: [
      { label: 'GraphQL explorer', href: LINKS.graphql, about: 'the same lists as typed connections' },
      { label: 'GraphQL schema', href: LINKS.graphqlSchema, about: 'SDL' },
      { label: 'SQL profile', href: LINKS.sqlProfile, about: `the relations \`QUERY ${LINKS.sql}\` can read` },
    ],
  },
  {
    title: 'Agents and programs',
    links: [
      { label: 'MCP server', href: URLS.mcpSetup, about: `\`POST ${LINKS.mcp}\`: the collections as read-only tools for AI agents; how to add it to a client` },
      { label: 'MCP server card', href: LINKS.mcpServerCard, about: 'the tools, the transport and the protocol version' },
      { label: 'Cap\u2019n Web RPC', href: LINKS.rpcContract, about: `\`${LINKS.rpc}\`: the same reads as object capabilities, HTTP batch or WebSocket` },
      { label: 'RPC types', href: LINKS.rpcTypes, about: 'the TypeScript declaration of the RPC root' },
      { label: 'Owner lane', href: OAUTH_URLS.protectedResource, about: `\`${OAUTH_URLS.ownerMcp}\`, for the owner's agents only (OAuth 2.1)` },
    ],
  },
  {
    title: 'Errors and feeds',
    links: [
      { label: 'Problem types', href: LINKS.problems, about: 'every error the APIs answer, with what to do' },
      { label: 'Atom feed', href: LINKS.atomFeed, about: 'what happened across the collections' },
      { label: 'JSON Feed', href: LINKS.jsonFeed, about: 'the same as JSON' },
      { label: 'llms.txt', href: PAGES.llms, about: 'the site for language models' },
    ],
  },
];
