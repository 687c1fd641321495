/** The API guide's sections, for the `/api/` page and its Markdown twin. */
import { LINKS, PAGES } from '../urls.ts';

export interface GuideSection {
  title: string;
  links: { label: string; href: string; about: string }[];
}

export const apiGuide = (): GuideSection[] => [
  {
    title: 'REST',
    links: [
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
    title: 'Errors, feeds and agents',
    links: [
      { label: 'Problem types', href: LINKS.problems, about: 'every error the APIs answer, with what to do' },
      { label: 'Atom feed', href: LINKS.atomFeed, about: 'what happened across the collections' },
      { label: 'JSON Feed', href: LINKS.jsonFeed, about: 'the same as JSON' },
      { label: 'llms.txt', href: PAGES.llms, about: 'the site for language models' },
    ],
  },
];
