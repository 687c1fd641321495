/**
 * The whole-collection exports (`/places.geojson`, `.kml`, `.gpx`) and calendar feeds:
 * static files, listed from `EXPORTS` and `CALENDARS` so a new one appears here without a
 * hand-written entry. A map export is 503 while any located record of its collection
 * lacks provenance.
 */
import { CALENDARS, EXPORTS } from '../urls.ts';
import { problemRef } from './problems.ts';
import { headerRefs, type HeaderName } from './response-headers.ts';
import { ref, type PathItem } from './types.ts';

const HEADERS: readonly HeaderName[] = ['ETag', 'CacheControl', 'LastModified', 'ApiVersion', 'ContentUsage', 'ContentSignal', 'AccessControlAllowOrigin'];

export function exportPaths(): Record<string, PathItem> {
  const paths: Record<string, PathItem> = {};
  for (const spec of EXPORTS) {
    const json = spec.mediaType === 'application/geo+json';
    const stem = spec.collection.charAt(0).toUpperCase() + spec.collection.slice(1);
    paths[spec.path] = {
      get: {
        operationId: `export${stem}${spec.path
          .split('.')
          .pop()!
          .replace(/^./, (c) => c.toUpperCase())}`,
        summary: `Every ${spec.collection} record as ${spec.mediaType}`,
        description: `The complete ${spec.collection} collection in its default order, rendered by the encoder that answers \`Accept: ${spec.mediaType}\` on \`/api/${spec.collection}.json\`.`,
        tags: [spec.collection],
        security: [],
        responses: {
          200: {
            description: 'The export.',
            headers: headerRefs(HEADERS),
            content: { [spec.mediaType]: { schema: json ? ref('schemas', `${stem}FeatureCollection`) : { type: 'string' } } },
          },
          304: { description: 'Not modified: the client’s copy is current. No body.', headers: headerRefs(['ETag', 'CacheControl', 'LastModified']) },
          503: problemRef(503),
        },
      },
    };
  }
  for (const spec of CALENDARS) {
    const stem = spec.path
      .slice(1)
      .split('.')[0]!
      .replace(/^./, (c) => c.toUpperCase());
    paths[spec.path] = {
      get: {
        operationId: `calendar${stem}`,
        summary: `${spec.name} (iCalendar)`,
        description: `${spec.description} A read-only iCalendar (RFC 5545) subscription: stable domain-qualified UIDs, SEQUENCE and LAST-MODIFIED derived from each record's \`updated\` and \`revision\`, cancelled events kept as STATUS:CANCELLED, venue time zones as VTIMEZONE, all-day events where no time is known, and a refresh interval hint.`,
        tags: [...spec.collections],
        security: [],
        responses: {
          200: { description: 'The calendar.', headers: headerRefs(HEADERS), content: { 'text/calendar': { schema: { type: 'string' } } } },
          304: { description: 'Not modified: the client’s copy is current. No body.', headers: headerRefs(['ETag', 'CacheControl', 'LastModified']) },
        },
      },
    };
  }
  return paths;
}
