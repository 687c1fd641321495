/**
 * The whole-collection exports (`/places.geojson`, `.kml`, `.gpx`): static files with
 * the same encoders as the negotiated list formats, listed from `EXPORTS` so a new
 * export appears here without a hand-written entry. Each is 503 while any located record
 * of its collection lacks provenance.
 */
import { EXPORTS } from '../compile/exports.ts';
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
        operationId: `export${stem}${spec.path.split('.').pop()!.replace(/^./, (c) => c.toUpperCase())}`,
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
  return paths;
}
