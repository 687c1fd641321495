/**
 * What the campaign attacks: the route table itself (`describeRoutes()` of
 * src/runtime/routes.ts: each route's name, the methods it takes, its pattern and concrete
 * paths that exist in the build), so every route added there joins the campaign; routes
 * without a generator of their own get the generic one (methods, targets, headers, query
 * strings and bodies).
 */
import { describeRoutes, type RouteDescription } from '../../src/runtime/routes.ts';

export type { RouteDescription };

export function describeTargets(): RouteDescription[] {
  return describeRoutes();
}
