/**
 * What the generators start from, read once from the server before the campaign: real
 * cursors of every list (to mutate), canonical IDs, the GraphQL schema (to write valid
 * documents from), the SQL profile's relations and columns (the SQL grammar's names) and
 * the published taste profile (a valid music body to mutate). The same build gives the
 * same context, so a seed gives the same requests.
 */
import { buildSchema, type GraphQLSchema } from 'graphql';
import { describeTargets, type RouteDescription } from './targets.ts';

export interface Context {
  routes: RouteDescription[];
  /** The authority a well-formed request names in Host. */
  authority: string;
  /** Real `cursor` values per list path (page two and three of a small page). */
  cursors: Record<string, string[]>;
  canonicalIds: string[];
  graphql: GraphQLSchema | undefined;
  /** SQL relation name → its columns. */
  sqlRelations: Record<string, { name: string; type: string }[]>;
  /** The owner's music profile (`/.well-known/taste-profile.json`). */
  tasteProfile: unknown;
}

/** The lists whose cursors are collected: every example of a route that answers a list envelope. */
const isList = (path: string) => /^\/api\/[a-z-]+\.json$/.test(path) && !['/api/meta.json', '/api/status.json'].includes(path);

export async function readContext(base: string): Promise<Context> {
  const routes = describeTargets();
  const get = async (path: string) => {
    const response = await fetch(new URL(path, base), { headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`context: GET ${path} answered ${response.status}`);
    return response;
  };
  const cursors: Record<string, string[]> = {};
  const ids = new Set<string>();
  const lists = [...new Set(routes.flatMap((r) => r.examples).filter(isList))].sort();
  for (const path of lists) {
    const query = path === '/api/search.json' ? '?q=the&limit=2' : '?limit=2';
    let next: string | undefined = `${path}${query}`;
    for (let page = 0; page < 3 && next; page++) {
      const body = (await (await get(next)).json()) as { data: { canonicalId?: string }[]; links: { next?: string } };
      for (const item of body.data) if (item.canonicalId) ids.add(item.canonicalId);
      next = body.links.next;
      const cursor = next ? new URL(next, base).searchParams.get('cursor') : null;
      if (cursor) (cursors[path] ??= []).push(cursor);
    }
  }
  let graphql: GraphQLSchema | undefined;
  try {
    graphql = buildSchema(await (await get('/graphql/schema.graphql')).text());
  } catch {
    graphql = undefined;
  }
  const profile = (await (await get('/api/sql/profile.json')).json()) as { relations: { name: string; columns: { name: string; type: string }[] }[] };
  const sqlRelations = Object.fromEntries(profile.relations.map((r) => [r.name, r.columns.map(({ name, type }) => ({ name, type }))]));
  const tasteProfile = await (await get('/.well-known/taste-profile.json')).json();
  return { routes, authority: new URL(base).host, cursors, canonicalIds: [...ids].sort(), graphql, sqlRelations, tasteProfile };
}
