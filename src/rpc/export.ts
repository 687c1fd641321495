/**
 * `Selection.export({format, limit})`: a selection's records in one file format, rendered
 * by the encoders REST negotiation and the export files use (src/formats), so the bytes
 * are theirs for the same records. In order: the format is one the contract names
 * (INVALID_ARGUMENT) and one the collection can produce (UNSUPPORTED_FORMAT: KML of
 * movies); a map format needs complete location provenance (UNAVAILABLE, as REST's 503);
 * the records — the whole selection, every page, from its first, or its first `limit` —
 * are charged to the session before they are read; the body must fit the transport's
 * bound (131,072 bytes over HTTP batch, naming WebSocket or `limit` as the way out) or
 * the call fails with RESOURCE_LIMIT. Never a silently partial export.
 */
import { LIMITS } from '../core/limits.ts';
import type { Query } from '../core/params.ts';
import type { Page } from '../core/query.ts';
import { CALENDAR_MEDIA_TYPE, calendarDocument, calendarEvent } from '../formats/ical.ts';
import { serializersFor } from '../formats/index.ts';
import { pageLinks } from '../formats/json.ts';
import { CALENDARS } from '../urls.ts';
import type { RpcContext } from './context.ts';
import { invalidArgument, RpcError } from './errors.ts';

export const EXPORT_FORMATS = {
  json: 'application/json',
  csv: 'text/csv',
  geojson: 'application/geo+json',
  kml: 'application/vnd.google-earth.kml+xml',
  gpx: 'application/gpx+xml',
  ics: 'text/calendar',
} as const;
export type ExportFormat = keyof typeof EXPORT_FORMATS;

export interface ExportOptions {
  format: ExportFormat;
  limit?: number;
}

export interface ExportResult {
  /** The Content-Type REST sends for the same bytes. */
  mediaType: string;
  count: number;
  body: string;
}

const GEOGRAPHIC = new Set<string>([EXPORT_FORMATS.geojson, EXPORT_FORMATS.kml, EXPORT_FORMATS.gpx]);
const CALENDAR_COLLECTIONS = new Set(['concerts', 'sporting-events']);

function checkOptions(options: ExportOptions): { format: ExportFormat; limit: number | undefined } {
  const format = options.format;
  if (typeof format !== 'string' || !Object.hasOwn(EXPORT_FORMATS, format)) {
    throw invalidArgument('export.format', `format is one of ${Object.keys(EXPORT_FORMATS).join(', ')}.`);
  }
  const limit = options.limit;
  if (limit !== undefined && (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1)) {
    throw invalidArgument('export.limit', 'limit is a positive integer: the number of records, from the first.');
  }
  return { format, limit };
}

/** The selection's records from its first, all of them or the first `limit`, page after page through the core. */
function recordsOf(context: RpcContext, query: Query, limit: number | undefined): { texts: string[]; page: Page } {
  const texts: string[] = [];
  let page = context.core.run({ ...query, cursor: undefined, limit: Math.min(LIMITS.pageSizeMax, limit ?? LIMITS.pageSizeMax) });
  const first = page;
  for (;;) {
    texts.push(...page.items.slice(0, limit === undefined ? undefined : limit - texts.length));
    if (page.next === undefined || (limit !== undefined && texts.length >= limit)) break;
    page = context.core.run({ ...query, cursor: page.next, limit: LIMITS.pageSizeMax });
  }
  return { texts, page: first };
}

export function exportSelection(context: RpcContext, query: Query, options: ExportOptions): ExportResult {
  const { format, limit } = checkOptions(options);
  const c = query.collection;
  const mediaType = EXPORT_FORMATS[format];
  const serializer = serializersFor(c).find((s) => s.mediaType === mediaType);
  if (format === 'ics' ? !CALENDAR_COLLECTIONS.has(c.name) : serializer === undefined) {
    const offered = [
      ...serializersFor(c).map((s) => Object.entries(EXPORT_FORMATS).find(([, m]) => m === s.mediaType)?.[0]),
      CALENDAR_COLLECTIONS.has(c.name) ? 'ics' : undefined,
    ].filter(Boolean);
    throw new RpcError('UNSUPPORTED_FORMAT', `export(): ${c.name} is not available as ${format}; it is available as ${offered.join(', ')}.`);
  }
  if (GEOGRAPHIC.has(mediaType) && !context.core.image.provenanceComplete(c.name)) {
    throw new RpcError(
      'UNAVAILABLE',
      `export(): some ${c.name} records do not say where their coordinates came from, so map formats are off until the owner completes them; json and csv still work.`,
    );
  }
  // Charged before reading: the rows the export will read, so a refused export reads nothing.
  const total = context.core.run({ ...query, cursor: undefined, limit: 1 }).totalCount;
  const count = limit === undefined ? total : Math.min(limit, total);
  context.session.spend('export', count + 1);
  const bytesMax = context.session.exportBytesMax;
  const { texts, page } = recordsOf(context, query, limit);
  let body: string;
  let contentType: string;
  if (format === 'ics') {
    const spec = CALENDARS.find((cal) => cal.collections.length === 1 && cal.collections[0] === c.name)!;
    const siteUrl = context.core.image.siteUrl;
    const events = texts.map((text) =>
      calendarEvent({ collection: c.name as 'concerts' | 'sporting-events', fields: JSON.parse(text) as Record<string, unknown> }, siteUrl),
    );
    body = calendarDocument({ name: spec.name, description: spec.description, siteUrl }, events);
    contentType = CALENDAR_MEDIA_TYPE;
  } else {
    // Rendered as REST renders one page holding every record: `?limit=100` and the filters, when they fit one page.
    const whole: Query = { ...query, cursor: undefined, limit: LIMITS.pageSizeMax };
    const all: Page = { ...page, items: texts, canonicalIds: [], next: undefined, facets: undefined };
    body = serializer!.render(whole, all, pageLinks(whole, all), { url: context.core.image.siteUrl });
    contentType = serializer!.contentType;
  }
  const bytes = Buffer.byteLength(body);
  context.session.spend('export', Math.ceil(bytes / 1024));
  if (bytes > bytesMax) {
    const way =
      context.session.transport === 'batch' ? 'use a WebSocket session, or pass a smaller `limit`' : 'pass a smaller `limit`, or narrow the selection';
    throw new RpcError('RESOURCE_LIMIT', `export(): the ${format} body is ${bytes} bytes, over the ${bytesMax}-byte bound of this transport; ${way}.`);
  }
  return { mediaType: contentType, count: texts.length, body };
}
