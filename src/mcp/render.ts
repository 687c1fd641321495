/**
 * The render tools: `taste.render_recommendations`, `places.render_map` and
 * `sports.render_events`. Each takes at most 24 canonical IDs and nothing else: the
 * records are read again here, server-side (record data a client sends is never
 * trusted), IDs that name no published record of the right kind are dropped and
 * reported, and the result links its `ui://` view (`_meta.ui.resourceUri`). The text
 * content says the same as the view, for clients without the UI extension.
 */
import { headline, linkOf } from '../collections/headline.ts';
import { LIMITS } from '../core/limits.ts';
import type { McpContext } from './context.ts';
import { basemap } from '../site/map.ts';
import { VIEW_URIS } from './resources.ts';
import { BY_CANONICAL_ID, canonicalIdSchema, envelope, listResultSchema } from './schemas.ts';
import type { ToolDefinition } from './tool.ts';
import type { ViewName } from './views.ts';

interface Shown {
  canonicalId: string;
  collection: string;
  title: string;
  subtitle: string;
  url: string;
  coordinates?: { latitude: number; longitude: number };
}

const idsSchema = {
  type: 'array',
  items: canonicalIdSchema,
  minItems: 1,
  maxItems: LIMITS.mcpRenderIdsMax,
  description: `1..${LIMITS.mcpRenderIdsMax} canonical IDs, in the order to show.`,
};

const shownSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['canonicalId', 'collection', 'title', 'subtitle', 'url'],
  properties: {
    canonicalId: canonicalIdSchema,
    collection: { type: 'string' },
    title: { type: 'string' },
    subtitle: { type: 'string' },
    url: { type: 'string', format: 'uri' },
    coordinates: {
      type: 'object',
      required: ['latitude', 'longitude'],
      additionalProperties: false,
      properties: { latitude: { type: 'number' }, longitude: { type: 'number' } },
    },
  },
};

/** The frame the map view draws in, in CSS pixels (the view scales it to its width). */
export const MAP_VIEW_WIDTH = 480;
export const MAP_VIEW_HEIGHT = 320;

const basemapSchema = {
  type: 'object',
  description:
    'The base map the view draws, computed on the server from Natural Earth land (self-hosted, nothing fetched): a Mercator frame fitted to the places, the land within it as one SVG path and each place’s position in the frame. Present when at least one place is shown.',
  additionalProperties: false,
  required: ['width', 'height', 'bounds', 'land', 'points'],
  properties: {
    width: { type: 'integer', description: 'Frame width, pixels.' },
    height: { type: 'integer', description: 'Frame height, pixels.' },
    bounds: {
      type: 'object',
      description: 'The frame in degrees; east may pass 180 when the frame crosses the antimeridian.',
      additionalProperties: false,
      required: ['west', 'south', 'east', 'north'],
      properties: { west: { type: 'number' }, south: { type: 'number' }, east: { type: 'number' }, north: { type: 'number' } },
    },
    land: {
      type: 'string',
      description: 'The land within the frame: the `d` of one SVG path in the frame’s pixels, to fill even-odd (empty when the frame is all water).',
    },
    points: {
      type: 'array',
      maxItems: LIMITS.mcpRenderIdsMax,
      description: 'Each record’s position in the frame, in the order of `records`.',
      items: { type: 'object', additionalProperties: false, required: ['x', 'y'], properties: { x: { type: 'number' }, y: { type: 'number' } } },
    },
  },
};

const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

function subtitleOf(collection: string, r: Record<string, unknown>): string {
  const parts =
    collection === 'places'
      ? [r.category, r.neighborhood, r.city]
      : collection === 'sporting-events'
        ? [str(r.date).slice(0, 10), r.venue, r.city, r.experienceStatus]
        : [collection, r.year ?? str(r.date).slice(0, 4), Array.isArray(r.genres) ? r.genres.slice(0, 3).join(', ') : undefined];
  return parts.map(str).filter(Boolean).join(' · ');
}

function renderTool(name: string, view: ViewName, title: string, description: string, accepts: readonly string[] | undefined, heading: string): ToolDefinition {
  return {
    name,
    title,
    description: `${description} Takes at most ${LIMITS.mcpRenderIdsMax} canonical IDs; the records are read again on the server, unknown IDs are dropped and reported. Clients without the UI extension get the same list as text.`,
    inputSchema: { type: 'object', properties: { ids: idsSchema }, required: ['ids'], additionalProperties: false },
    outputSchema: listResultSchema(
      {
        heading: { type: 'string' },
        view: { const: view },
        records: { type: 'array', maxItems: LIMITS.mcpRenderIdsMax, items: shownSchema },
        dropped: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['canonicalId', 'reason'],
            properties: { canonicalId: { type: 'string' }, reason: { type: 'string' } },
          },
        },
        ...(view === 'map' ? { basemap: basemapSchema } : {}),
      },
      ['heading', 'view', 'records', 'dropped'],
      'The records the view shows, rehydrated on the server, and the IDs dropped.',
    ),
    cost: 2,
    ui: VIEW_URIS[view],
    run: (args, context: McpContext) => {
      const records: Shown[] = [];
      const dropped: { canonicalId: string; reason: string }[] = [];
      for (const id of new Set(args.ids as string[])) {
        const found = context.core.lookup(id);
        if (!found) dropped.push({ canonicalId: id, reason: 'It names no published record.' });
        else if (accepts && !accepts.includes(found.collection.name))
          dropped.push({ canonicalId: id, reason: `It is a ${found.collection.name} record; this view shows ${accepts.join(', ')}.` });
        else {
          const r = JSON.parse(found.json) as Record<string, unknown>;
          const coordinates = r.coordinates as { latitude: number; longitude: number } | undefined;
          if (view === 'map' && !coordinates) {
            dropped.push({ canonicalId: id, reason: 'It has no coordinates.' });
            continue;
          }
          records.push({
            canonicalId: id,
            collection: found.collection.name,
            title: headline(found.collection.name, r),
            subtitle: subtitleOf(found.collection.name, r),
            url: linkOf(found.collection.name, r, context.siteUrl),
            ...(coordinates ? { coordinates: { latitude: coordinates.latitude, longitude: coordinates.longitude } } : {}),
          });
        }
      }
      const asOf =
        [...new Set(records.map((r) => r.collection))]
          .map((c) => context.image.asOf(c))
          .sort()
          .at(-1) ?? context.image.asOf('feed-items');
      const selection = {
        task: 'render',
        method: 'canonical-id-lookup',
        role: 'display',
        supportsPopulationClaims: false,
        explanation: 'Exactly the records asked for, read again on the server, in the order given.',
      };
      const lines = records.map((r, i) => `${i + 1}. ${r.title} — ${r.subtitle} (${r.url})`);
      const note = dropped.length ? `\nDropped: ${dropped.map((d) => `${d.canonicalId} (${d.reason})`).join('; ')}` : '';
      return {
        structured: {
          heading,
          view,
          records,
          dropped,
          ...(view === 'map' && records.length
            ? {
                basemap: basemap(
                  records.map((r) => r.coordinates!),
                  MAP_VIEW_WIDTH,
                  MAP_VIEW_HEIGHT,
                ),
              }
            : {}),
          ...envelope(
            records.length,
            records.length,
            asOf,
            selection,
            [BY_CANONICAL_ID],
            `Shown by canonical ID: ${records.length} of ${records.length + dropped.length}.`,
          ),
        },
        text: `${heading}:\n${lines.join('\n') || '(none)'}${note}`,
        meta: { ui: { resourceUri: VIEW_URIS[view] } },
      };
    },
  };
}

export const renderRecommendations = renderTool(
  'taste.render_recommendations',
  'recommendations',
  'Show recommendations',
  'Show records (from taste.recommend, taste.find or taste.summarize) as a list of recommendations in the client’s view.',
  undefined,
  'Recommendations',
);
export const renderMap = renderTool(
  'places.render_map',
  'map',
  'Show places on a map',
  'Show places (from places.plan or taste.find on places) on a self-contained map, in the order given: the result carries the base map (Natural Earth land in a Mercator frame fitted to the places, as an SVG path, and each place’s position in it).',
  ['places'],
  'Places',
);
export const renderEvents = renderTool(
  'sports.render_events',
  'events',
  'Show sporting events',
  'Show sporting events (from sports.list) as a dated list in the client’s view.',
  ['sporting-events'],
  'Sporting events',
);
