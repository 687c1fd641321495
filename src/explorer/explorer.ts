/**
 * The GraphQL explorer: GraphiQL 5 (React, Monaco) mounted on `#explorer`. Everything it
 * loads is bundled by src/compile/artifacts/explorer-bundle.ts under `/_astro/`: this script, its
 * stylesheet and Monaco's editor, JSON and GraphQL workers, whose URLs the bundler defines
 * as `EXPLORER_WORKERS`; so the explorer works offline and asks no other host for
 * anything. Operations go to the same origin's `POST /graphql` (SPEC §4.5).
 */
import 'graphiql/style.css';
import { GraphiQL } from 'graphiql';
import { createElement, type ComponentProps } from 'react';
import { createRoot } from 'react-dom/client';
import { URLS } from '../urls.ts';

type Fetcher = ComponentProps<typeof GraphiQL>['fetcher'];

const ENDPOINT = URLS.graphql;

/** Monaco's worker scripts by label, hashed file names given by the bundler. */
declare const EXPLORER_WORKERS: { editor: string; json: string; graphql: string };
(globalThis as { MonacoEnvironment?: unknown }).MonacoEnvironment = {
  getWorker: (_id: string, label: string) => new Worker(label === 'json' || label === 'graphql' ? EXPLORER_WORKERS[label] : EXPLORER_WORKERS.editor),
};

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
