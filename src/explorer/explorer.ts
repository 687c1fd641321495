/**
 * The GraphQL explorer: GraphiQL 5 (React, Monaco) mounted on `#explorer`. Everything it
 * loads is bundled with the page: Monaco's editor, JSON and GraphQL workers come from
 * GraphiQL's Vite worker setup (`?worker` imports, emitted under `/_astro/`), and its
 * styles are the page's stylesheet, so the explorer works offline and asks no other host
 * for anything. Operations go to the same origin's `POST /graphql` (SPEC §4.5).
 */
import 'graphiql/setup-workers/vite';
import { GraphiQL } from 'graphiql';
import { createElement, type ComponentProps } from 'react';
import { createRoot } from 'react-dom/client';
import { URLS } from '../urls.ts';

type Fetcher = ComponentProps<typeof GraphiQL>['fetcher'];

const ENDPOINT = URLS.graphql;

const DEFAULT_QUERY = `# The first five films and series; run with Ctrl+Enter.
# Pass pageInfo.endCursor as \`after\` for the next page.
query FirstMovies {
  movies(first: 5) {
    nodes {
      title
      year
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
`;

/** One JSON operation per POST, asking for the GraphQL-over-HTTP response type first. */
const fetcher: Fetcher = async (params, options) => {
  const response = await fetch(ENDPOINT, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/graphql-response+json, application/json',
      ...options?.headers,
    },
    body: JSON.stringify(params),
  });
  const type = response.headers.get('Content-Type') ?? '';
  if (!/json/i.test(type)) throw new Error(`${ENDPOINT} answered ${response.status} ${type || 'without a body type'}`);
  return response.json();
};

const root = document.getElementById('explorer');
if (root) createRoot(root).render(createElement(GraphiQL, { fetcher, defaultQuery: DEFAULT_QUERY }));
