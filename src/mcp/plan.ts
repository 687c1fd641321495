/**
 * `places.plan`: an ordered visit over the owner's places — in a city (optionally of one
 * category), or a given set of place IDs — from a start place, as a greedy nearest-
 * neighbour walk. Distances are great-circle (haversine) distances between the recorded
 * coordinates and are stated as approximate straight lines: the plan knows no streets,
 * no travel times, no opening hours and no device location, and says so.
 */
import { collection } from '../collections/index.ts';
import { itemSchema } from '../collections/item-schema.ts';
import { LIMITS } from '../core/limits.ts';
import { parseQuery } from '../core/params.ts';
import type { McpContext } from './context.ts';
import { canonicalIdSchema, embedded, envelope, filterValueSchema, listResultSchema, type EvidenceDetail } from './schemas.ts';
import { ToolError, type ToolDefinition } from './tool.ts';

const places = collection('places')!;

/** The IUGG mean Earth radius: the sphere a great-circle distance is measured on. */
const EARTH_RADIUS_KM = 6371.0088;

interface Coordinates {
  latitude: number;
  longitude: number;
}

/** Great-circle distance in kilometres (haversine formula on the mean sphere). */
export function greatCircleKm(a: Coordinates, b: Coordinates): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

const round = (km: number) => Math.round(km * 100) / 100;
const NOTE =
  'Distances are approximate straight-line (great-circle) distances between the places’ recorded coordinates, not walking, transit or driving routes; there are no travel times or opening hours, and no device location is used.';

type Place = Record<string, unknown> & { canonicalId: string; name: string; coordinates?: Coordinates };

/** What a plan rests on: how its candidates were chosen, then how they were ranked and ordered. */
function planEvidence(args: Record<string, unknown>): EvidenceDetail[] {
  const chosen: EvidenceDetail[] = [];
  if (args.placeIds) chosen.push({ code: 'canonical-id', text: 'The candidates are the places given by canonical ID.', fields: ['canonicalId'] });
  if (args.city !== undefined) chosen.push({ code: 'filter-match', text: `city equals ${String(args.city)}, ignoring case and accents.`, fields: ['city'] });
  if (args.category !== undefined) chosen.push({ code: 'filter-match', text: `category is ${String(args.category)}.`, fields: ['category'] });
  return [
    ...chosen,
    {
      code: 'rating-rank',
      text: 'The best-rated places with coordinates are kept (and start the walk unless startId says otherwise).',
      fields: ['rating', 'coordinates'],
    },
    { code: 'straight-line-distance', text: NOTE, fields: ['coordinates'] },
  ];
}

const stopSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['order', 'canonicalId', 'name', 'place'],
  properties: {
    order: { type: 'integer', minimum: 1 },
    canonicalId: canonicalIdSchema,
    name: { type: 'string' },
    place: embedded(itemSchema(places)),
    distanceFromPreviousKm: { type: 'number', minimum: 0, description: 'Approximate straight-line distance from the previous stop.' },
  },
};

export const plan: ToolDefinition = {
  name: 'places.plan',
  title: 'Plan a visit among the owner’s places',
  description: `Order up to ${LIMITS.mcpPlanStopsMax} of the owner's places into a walk: those in a city (optionally of one category) or a given list of place IDs, from a start place, nearest next. Distances are approximate straight-line (great-circle) distances, stated as such: no travel times, no routing, no device location. Places without coordinates are reported as skipped.`,
  inputSchema: {
    type: 'object',
    properties: {
      city: filterValueSchema(places.filters.city!),
      category: filterValueSchema(places.filters.category!),
      placeIds: {
        type: 'array',
        items: canonicalIdSchema,
        minItems: 1,
        maxItems: LIMITS.mcpPlanStopsMax,
        description: 'Places to order (from taste.find on places); instead of or within the city.',
      },
      startId: { ...canonicalIdSchema, description: 'The place to start from; otherwise the best-rated.' },
      limit: { type: 'integer', minimum: 2, maximum: LIMITS.mcpPlanStopsMax, default: 6, description: 'Stops in the plan.' },
    },
    additionalProperties: false,
  },
  outputSchema: listResultSchema(
    {
      stops: { type: 'array', items: stopSchema },
      totalDistanceKm: { type: 'number', minimum: 0 },
      approximate: { const: true },
      distanceMethod: { type: 'string' },
      note: { type: 'string' },
      skipped: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['canonicalId', 'reason'],
          properties: { canonicalId: { type: 'string' }, reason: { type: 'string' } },
        },
      },
    },
    ['stops', 'totalDistanceKm', 'approximate', 'distanceMethod', 'note', 'skipped'],
    'An ordered list of stops with approximate straight-line distances.',
  ),
  cost: 2,
  run: (args, context) => {
    const limit = Number(args.limit ?? 6);
    const skipped: { canonicalId: string; reason: string }[] = [];
    const candidates = candidatesOf(context, args, skipped);
    const located = candidates.filter((p) => {
      if (p.coordinates) return true;
      skipped.push({ canonicalId: p.canonicalId, reason: 'It has no coordinates.' });
      return false;
    });
    const byRating = [...located].sort((a, b) => Number(b.rating ?? -1) - Number(a.rating ?? -1) || (a.canonicalId < b.canonicalId ? -1 : 1));
    const start = args.startId === undefined ? byRating[0] : located.find((p) => p.canonicalId === args.startId);
    if (args.startId !== undefined && !start) throw new ToolError('startId names no located place among the candidates; pick one of them, or leave it out.');
    if (!start) throw new ToolError('No place with coordinates matches; try another city or category, or give placeIds from taste.find.');
    const chosen = [start, ...byRating.filter((p) => p !== start)].slice(0, limit);
    // Greedy nearest neighbour from the start: quadratic in stops, which are at most mcpPlanStopsMax.
    const ordered = [start];
    const left = new Set(chosen.slice(1));
    while (left.size) {
      const last = ordered.at(-1)!;
      let next: Place | undefined;
      for (const p of left) if (!next || greatCircleKm(last.coordinates!, p.coordinates!) < greatCircleKm(last.coordinates!, next.coordinates!)) next = p;
      ordered.push(next!);
      left.delete(next!);
    }
    let total = 0;
    const stops = ordered.map((place, i) => {
      const leg = i === 0 ? undefined : greatCircleKm(ordered[i - 1]!.coordinates!, place.coordinates!);
      total += leg ?? 0;
      return { order: i + 1, canonicalId: place.canonicalId, name: place.name, place, ...(leg === undefined ? {} : { distanceFromPreviousKm: round(leg) }) };
    });
    const selection = {
      task: 'plan',
      method: 'greedy-nearest-neighbour',
      role: 'itinerary',
      supportsPopulationClaims: false,
      explanation:
        'The best-rated located candidates (the start first), ordered by always going to the nearest place not yet visited; a short walk, not an optimal tour.',
    };
    const lines = stops.map(
      (s) => `${s.order}. ${s.name}${s.distanceFromPreviousKm === undefined ? '' : ` (~${s.distanceFromPreviousKm} km straight-line from the previous stop)`}`,
    );
    return {
      structured: {
        stops,
        totalDistanceKm: round(total),
        approximate: true,
        distanceMethod: `great-circle (haversine) on a sphere of radius ${EARTH_RADIUS_KM} km`,
        note: NOTE,
        skipped,
        ...envelope(stops.length, candidates.length, context.image.asOf('places'), selection, planEvidence(args), NOTE),
      },
      text: `${lines.join('\n')}\nTotal ~${round(total)} km. ${NOTE}`,
    };
  },
};

/** The places a plan chooses from: the given IDs (within the city and category when given), or the city's. */
function candidatesOf(context: McpContext, args: Record<string, unknown>, skipped: { canonicalId: string; reason: string }[]): Place[] {
  const ids = args.placeIds as string[] | undefined;
  if (ids) {
    const found: Place[] = [];
    for (const id of new Set(ids)) {
      const record = context.core.lookup(id);
      if (record?.collection.name !== 'places') skipped.push({ canonicalId: id, reason: 'It names no published place.' });
      else found.push(JSON.parse(record.json) as Place);
    }
    return found.filter(
      (p) =>
        (args.city === undefined || String(p.city).toLowerCase() === String(args.city).toLowerCase()) &&
        (args.category === undefined || p.category === args.category),
    );
  }
  if (args.city === undefined) throw new ToolError('Give a city (with an optional category) or placeIds: the plan never uses a device location.');
  // The best-rated page of the city (a bounded read however many places it holds), through the REST parser and core.
  const params = new URLSearchParams({ city: String(args.city), sort: 'rating:desc', limit: String(LIMITS.pageSizeMax) });
  if (args.category !== undefined) params.set('category', String(args.category));
  return context.core.run(parseQuery(places, params)).items.map((json) => JSON.parse(json) as Place);
}
