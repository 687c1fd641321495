/**
 * From the route table to what the campaign sends. Every route gets the generic
 * generator (its methods and others, its example paths with query strings, the shared
 * headers, Host variants, odd targets and versions, bodies for methods that carry one) and
 * a GET/HEAD pair (RFC 9110 §9.3.2: HEAD answers what GET answers, without the body).
 * Routes whose example is a surface with a language of its own also get that language:
 * SQL statements on `/api/sql`, GraphQL documents on `/graphql`, music JSON on the music
 * POSTs; list routes get their declared parameters through `queryPairs`. One more surface,
 * `paths`, sends requests to paths no route lists.
 */
import fc from 'fast-check';
import type { Context } from './context.ts';
import type { RawRequest } from './http.ts';
import type { RouteDescription } from './targets.ts';
import { bytes, canary, framing, hostileText, mutate, oneOf, type Framing } from './gen/common.ts';
import { graphqlGetQuery, graphqlPostBody } from './gen/graphql.ts';
import { finish, headers, host, method, queryString, target, unlistedPath, version, type Draft } from './gen/http.ts';
import { intersectionBody, stationBody } from './gen/music.ts';
import { queryPairs } from './gen/query.ts';
import { sqlBody } from './gen/sql.ts';

export interface Case {
  surface: string;
  requests: RawRequest[];
  /** The requests are the same GET and HEAD: their status and Content-Type must agree. */
  headOfGet?: boolean;
}

export interface Surface {
  name: string;
  weight: number;
  arbitrary: fc.Arbitrary<Case>;
}

const cuts = fc.array(fc.nat({ max: 100000 }), { minLength: 3, maxLength: 6 });
const body = (bytesArb: fc.Arbitrary<string>): fc.Arbitrary<Draft['body']> =>
  fc.tuple(bytesArb, framing, cuts).map(([text, kind, c]) => ({ bytes: Buffer.from(text, 'latin1'), framing: kind as Framing, cuts: c }));

/** Bodies for a route that has no language of its own. */
const anyBody = fc.oneof(
  oneOf('', '{}', '[]', 'null', '{"a":1}', 'a=1&b=2', `{"q":"${canary('v')}"}`, 'SELECT 1', '{ __typename }'),
  hostileText(64).map(bytes),
  fc.uint8Array({ maxLength: 256 }).map((b) => Buffer.from(b).toString('latin1')),
  oneOf(1024, 65537, 300000).map((n) => 'b'.repeat(n)),
);

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'QUERY', 'DELETE']);

function generic(route: RouteDescription, ctx: Context): fc.Arbitrary<Case> {
  return fc
    .tuple(
      method(route.methods),
      oneOf(...route.examples),
      version,
      host(),
      fc.oneof({ weight: 3, arbitrary: fc.constant<[string, string][]>([]) }, { weight: 2, arbitrary: headers() }),
      fc.boolean(),
    )
    .chain(([m, path, v, h, hs, withBody]) =>
      fc.tuple(queryPairs(path, ctx.cursors), BODY_METHODS.has(m.toUpperCase()) && withBody ? body(anyBody) : fc.constant(undefined)).chain(([pairs, b]) =>
        target(path, queryString(pairs)).map((t): Case => ({
          surface: route.name,
          requests: [finish({ method: m, target: t, version: v, host: h, headers: hs, body: b })],
        })),
      ),
    );
}

/** The same GET and HEAD, with well-formed framing, so any difference is the server's. */
function headOfGet(route: RouteDescription, ctx: Context): fc.Arbitrary<Case> {
  return fc
    .tuple(
      oneOf(...route.examples),
      headers().map((hs) => hs.filter(([name]) => /^(accept|api-version|if-none-match|if-modified-since|graphql-api-version|x-forwarded-for)$/i.test(name))),
    )
    .chain(([path, hs]) =>
      fc.tuple(
        fc.constant(path),
        fc.constant(hs),
        route.examples.includes('/graphql')
          ? graphqlGetQuery(ctx.graphql, ctx.canonicalIds, Object.values(ctx.cursors).flat())
          : queryPairs(path, ctx.cursors).map(queryString),
      ),
    )
    .map(([path, hs, query]): Case => {
      const draft = (m: string): Draft => ({ method: m, target: `${path}${query}`, version: 'HTTP/1.1', host: { kind: 'normal' }, headers: hs });
      return { surface: route.name, requests: [finish(draft('GET')), finish(draft('HEAD'))], headOfGet: true };
    });
}

/** A request with a body in the surface's own language. */
function withLanguage(
  route: RouteDescription,
  methods: fc.Arbitrary<string>,
  contentType: fc.Arbitrary<string | undefined>,
  accept: fc.Arbitrary<string | undefined>,
  language: fc.Arbitrary<string>,
): fc.Arbitrary<Case> {
  return fc
    .tuple(
      methods,
      oneOf(...route.examples),
      host(),
      contentType,
      accept,
      fc.oneof({ weight: 6, arbitrary: fc.constant<[string, string][]>([]) }, { weight: 1, arbitrary: headers() }),
      body(language),
    )
    .map(([m, path, h, type, acc, extra, b]): Case => {
      const hs: [string, string][] = [];
      if (type !== undefined) hs.push(['Content-Type', type]);
      if (acc !== undefined) hs.push(['Accept', acc]);
      return { surface: route.name, requests: [finish({ method: m, target: path, version: 'HTTP/1.1', host: h, headers: [...hs, ...extra], body: b })] };
    });
}

const mostly = (usual: string, ...others: string[]) => fc.oneof({ weight: 12, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: oneOf(...others) });
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 8 });

function language(route: RouteDescription, ctx: Context): fc.Arbitrary<Case> | undefined {
  const cursors = Object.values(ctx.cursors).flat();
  if (route.examples.includes('/api/sql')) {
    return withLanguage(
      route,
      mostly('QUERY', 'POST', 'GET', 'query', 'OPTIONS'),
      maybe(
        mostly(
          'application/sql',
          'application/sql; charset=utf-8',
          'application/sql;charset=UTF-8',
          'application/sql; charset=latin1',
          'text/plain',
          'application/json',
          'application/SQL',
          'application/sql; x=' + canary('h'),
        ),
      ),
      maybe(oneOf('application/json', 'text/csv', '*/*', 'text/csv;q=0, application/json', 'image/png')),
      sqlBody(ctx.sqlRelations),
    );
  }
  if (route.examples.includes('/graphql')) {
    const post = withLanguage(
      route,
      mostly('POST', 'PUT', 'QUERY', 'post'),
      maybe(
        mostly(
          'application/json',
          'application/json; charset=utf-8',
          'application/graphql',
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/json; charset=latin1',
        ),
      ),
      maybe(
        oneOf(
          'application/graphql-response+json',
          'application/json',
          '*/*',
          'text/html',
          'application/graphql-response+json;q=0, application/json',
          'image/png',
        ),
      ),
      graphqlPostBody(ctx.graphql, ctx.canonicalIds, cursors),
    );
    const get = fc
      .tuple(
        mostly('GET', 'HEAD', 'DELETE'),
        graphqlGetQuery(ctx.graphql, ctx.canonicalIds, cursors),
        maybe(oneOf('application/graphql-response+json', 'application/json', '*/*', 'text/html', 'image/png')),
        host(),
      )
      .map(([m, query, acc, h]): Case => ({
        surface: route.name,
        requests: [finish({ method: m, target: `/graphql${query}`, version: 'HTTP/1.1', host: h, headers: acc === undefined ? [] : [['Accept', acc]] })],
      }));
    return fc.oneof({ weight: 3, arbitrary: post }, { weight: 2, arbitrary: get });
  }
  const json = maybe(mostly('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/json-patch+json', 'application/JSON'));
  if (route.examples.includes('/api/music/intersections.json'))
    return withLanguage(
      route,
      mostly('POST', 'PUT', 'QUERY', 'GET'),
      json,
      maybe(oneOf('application/json', '*/*', 'text/csv')),
      intersectionBody(ctx.tasteProfile),
    );
  if (route.examples.includes('/api/music/station.json'))
    return withLanguage(route, mostly('POST', 'PUT', 'QUERY', 'GET'), json, maybe(oneOf('application/json', '*/*', 'text/csv')), stationBody(ctx.canonicalIds));
  return undefined;
}

function unlisted(ctx: Context): fc.Arbitrary<Case> {
  const known = ctx.routes.flatMap((r) => r.examples);
  return fc
    .tuple(
      method(['GET', 'HEAD']),
      unlistedPath(known),
      host(),
      fc.oneof({ weight: 4, arbitrary: fc.constant<[string, string][]>([]) }, { weight: 1, arbitrary: headers() }),
    )
    .chain(([m, path, h, hs]) =>
      fc.oneof({ weight: 6, arbitrary: fc.constant(path) }, { weight: 1, arbitrary: mutate(path, ['%', '/', '..', '%00', '\\', '?', '#']) }).map((p): Case => ({
        surface: 'paths',
        requests: [finish({ method: m, target: p.startsWith('/') ? p : `/${p}`, version: 'HTTP/1.1', host: h, headers: hs })],
      })),
    );
}

/** The campaign's case generator over the surfaces named in `only` (all when empty). */
export function casesOf(ctx: Context, only: readonly string[] = []): fc.Arbitrary<Case> {
  let list = surfaces(ctx);
  const unknown = only.filter((name) => !list.some((s) => s.name === name));
  if (unknown.length > 0) throw new Error(`unknown surface ${unknown.join(', ')}; the surfaces are ${list.map((s) => s.name).join(', ')}`);
  if (only.length > 0) list = list.filter((s) => only.includes(s.name));
  return fc.oneof(...list.map((s) => ({ weight: s.weight, arbitrary: s.arbitrary })));
}

/** Every surface of the campaign: one per route (weighted by how many paths it serves), and `paths`. */
export function surfaces(ctx: Context): Surface[] {
  const list: Surface[] = ctx.routes.map((route) => {
    const special = language(route, ctx);
    const takesGet = route.methods.includes('GET');
    const parts = [
      { weight: special ? 3 : 8, arbitrary: generic(route, ctx) },
      ...(special ? [{ weight: 8, arbitrary: special }] : []),
      ...(takesGet ? [{ weight: 1, arbitrary: headOfGet(route, ctx) }] : []),
    ];
    return { name: route.name, weight: Math.min(3, Math.max(1, Math.round(Math.sqrt(route.examples.length)))), arbitrary: fc.oneof(...parts) };
  });
  list.push({ name: 'paths', weight: 1, arbitrary: unlisted(ctx) });
  return list;
}
