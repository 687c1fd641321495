/**
 * What the campaign attacks: the route table, as `describeRoutes()` of
 * `src/runtime/routes.ts` will describe it (same shape: a name, the methods it takes, a
 * display pattern and concrete paths that exist). Until that module lands, the list is
 * kept here from the collection declarations and the paths `server.ts` serves; when it
 * lands, this function's body becomes `return describeRoutes();` and every route added
 * there joins the campaign (routes without a generator of their own get the generic one:
 * methods, targets, headers, query strings and bodies).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { restCollections } from '../../src/collections/index.ts';
import { EXPORTS } from '../../src/compile/exports.ts';
import { META_PATHS } from '../../src/openapi/meta-schemas.ts';
import { paths } from '../../src/paths.ts';

export interface RouteDescription {
  name: string;
  methods: readonly string[];
  path: string;
  examples: readonly string[];
}

/** A canonicalId that exists: the first movie of the built page one (a record page example). */
function someRecordId(): string {
  const page = JSON.parse(readFileSync(join(paths.client, 'api/movies.json'), 'utf8')) as { data: { canonicalId: string }[] };
  return page.data[0]!.canonicalId;
}

export function describeTargets(): RouteDescription[] {
  const lists = ['GET', 'HEAD', 'OPTIONS'];
  const files = ['GET', 'HEAD'];
  return [
    { name: 'collections', methods: lists, path: '/api/{collection}.json', examples: restCollections.map((c) => `/api/${c.name}.json`) },
    { name: 'search', methods: lists, path: META_PATHS.search, examples: [META_PATHS.search] },
    { name: 'sql', methods: ['QUERY', 'OPTIONS'], path: META_PATHS.sql, examples: [META_PATHS.sql] },
    { name: 'graphql', methods: ['GET', 'POST', 'OPTIONS'], path: META_PATHS.graphql, examples: [META_PATHS.graphql] },
    { name: 'music-intersections', methods: ['POST', 'OPTIONS'], path: '/api/music/intersections.json', examples: ['/api/music/intersections.json'] },
    { name: 'music-station', methods: ['POST', 'OPTIONS'], path: '/api/music/station.json', examples: ['/api/music/station.json'] },
    { name: 'taste-summary', methods: files, path: '/api/taste/summary.json', examples: ['/api/taste/summary.json'] },
    { name: 'status', methods: files, path: META_PATHS.status, examples: [META_PATHS.status] },
    { name: 'record-page', methods: files, path: '/{collection}/{canonicalId}', examples: [`/movies/${someRecordId()}`] },
    {
      name: 'static',
      methods: files,
      path: '/{file}',
      examples: [
        ...Object.values(META_PATHS).filter((p) => p !== META_PATHS.sql && p !== META_PATHS.graphql && p !== META_PATHS.search && p !== META_PATHS.status),
        '/.well-known/taste-profile.json',
        '/problems/invalid-cursor',
        '/graphql/',
        '/subscribe/',
        '/blog/',
        ...EXPORTS.map((e) => e.path),
        '/calendar.ics',
        '/concerts.ics',
        '/sports.ics',
      ],
    },
  ];
}
