/**
 * The taste surfaces in the description: the movie taste summary, the portable music
 * taste profile and its JSON Schema, and the two music POSTs (intersections, station),
 * whose request schemas are generated from the zod schemas the endpoints enforce.
 */
import { z } from 'zod';
import { LIMITS } from '../core/limits.ts';
import { intersectionRequestSchema, stationRequestSchema } from '../taste/music-request.ts';
import { TASTE_PROFILE_SCHEMA } from '../taste/profile-schema.ts';
import { TASTE_PROFILE_MEDIA_TYPE, TASTE_PROFILE_PATH } from '../taste/profile.ts';
import { TASTE_SUMMARY_CANONICAL_URL, TASTE_SUMMARY_SCHEMA } from '../taste/summary.ts';
import { problemRef } from './problems.ts';
import { headerRefs } from './response-headers.ts';
import { ref, type JsonSchema, type PathItem } from './types.ts';

/** A schema embedded in components: its own `$id`/`$schema` would re-base references, so they go. */
function embedded(schema: object): JsonSchema {
  const { $id: _id, $schema: _schema, ...rest } = schema as Record<string, unknown>;
  return rest as JsonSchema;
}

const requestSchema = (schema: z.ZodType) => embedded(z.toJSONSchema(schema, { io: 'input' }));

const MATCH = { type: 'object', properties: { canonicalId: { type: 'string' }, title: { type: 'string' }, artist: { type: 'string' }, reasons: { type: 'array', items: { type: 'string' } } }, required: ['canonicalId', 'reasons'] };

export function tasteSchemas(): Record<string, JsonSchema> {
  return {
    TasteSummary: embedded(TASTE_SUMMARY_SCHEMA),
    TasteProfile: embedded(TASTE_PROFILE_SCHEMA),
    MusicIntersectionRequest: requestSchema(intersectionRequestSchema),
    MusicStationRequest: requestSchema(stationRequestSchema),
    MusicIntersectionResult: {
      type: 'object',
      description: 'Canonical IDs of matching tracks with grounded reason codes, unmatched counts per kind, and an abstention flag; never a compatibility percentage.',
      properties: {
        schemaVersion: { const: '1' },
        matches: { type: 'array', maxItems: LIMITS.musicMatchesMax, items: MATCH },
        unmatched: { type: 'object', properties: { artists: { type: 'integer' }, recordings: { type: 'integer' }, albums: { type: 'integer' }, genres: { type: 'integer' } } },
        matchCount: { type: 'integer', minimum: 0 },
        truncated: { type: 'boolean' },
        abstained: { type: 'boolean' },
        abstainReason: { type: 'string' },
      },
      required: ['schemaVersion', 'matches', 'unmatched', 'abstained'],
      // Closed, so no score or percentage can slip in.
      additionalProperties: false,
    },
    MusicStationResult: {
      type: 'object',
      properties: {
        schemaVersion: { const: '1' },
        status: { enum: ['ok', 'degraded'] },
        tracks: { type: 'array', maxItems: LIMITS.musicStationTracksMax, items: MATCH },
        degradedReason: { type: 'string' },
      },
      required: ['schemaVersion', 'status', 'tracks'],
      additionalProperties: false,
    },
  };
}

const json = (schema: string) => ({ 'application/json': { schema: ref('schemas', schema) } });
const notModified = { description: 'Not modified: the client’s copy is current. No body.' };

function musicPost(operationId: string, summary: string, description: string, request: string, result: string, example: unknown): PathItem {
  return {
    post: {
      operationId,
      summary,
      description,
      tags: ['music'],
      security: [],
      requestBody: { required: true, content: { 'application/json': { schema: ref('schemas', request), example } } },
      responses: {
        200: { description: 'The answer; never cached, nothing is stored.', content: json(result) },
        400: problemRef(400),
        413: problemRef(413),
        415: problemRef(415),
        422: problemRef(422),
      },
    },
    options: { operationId: `${operationId}Preflight`, summary: 'CORS preflight', tags: ['music'], security: [], responses: { 204: { description: 'The preflight.' } } },
  };
}

export function tastePaths(): Record<string, PathItem> {
  const profileExample = { schemaVersion: '1', music: { artists: [{ name: 'Radiohead', stance: 'love' }], recordings: [], albums: [], genres: [{ name: 'Fado', stance: 'like' }], notes: [] } };
  return {
    [TASTE_SUMMARY_CANONICAL_URL]: {
      get: {
        operationId: 'getTasteSummary',
        summary: 'Movie taste summary',
        description: 'Distributions over the public movies marked recommended, with coverage per dimension and deterministic illustrative examples (not a sample; see `selection`).',
        tags: ['movies'],
        security: [],
        parameters: [
          { name: 'collection', in: 'query', required: false, description: 'The collection summarized; only `movies` today.', schema: { type: 'string', enum: ['movies'] } },
          { name: 'exampleLimit', in: 'query', required: false, description: 'How many illustrative examples to return.', schema: { type: 'integer', minimum: 0, maximum: LIMITS.tasteExampleLimitMax, default: LIMITS.tasteExampleLimitDefault } },
        ],
        responses: { 200: { description: 'The summary.', headers: headerRefs(['ETag', 'CacheControl', 'LastModified']), content: json('TasteSummary') }, 304: notModified, 400: problemRef(400) },
      },
    },
    [TASTE_PROFILE_PATH]: {
      get: {
        operationId: 'getTasteProfile',
        summary: 'Portable music taste profile',
        description: `The owner's music taste in the input shape of \`POST /api/music/intersections.json\` (send it as \`{"profile": …}\`); media type \`${TASTE_PROFILE_MEDIA_TYPE}\`, schema at \`/schemas/taste-profile-1.json\`.`,
        tags: ['music'],
        security: [],
        responses: { 200: { description: 'The profile.', content: { 'application/taste-profile+json': { schema: ref('schemas', 'TasteProfile') } } }, 304: notModified },
      },
    },
    '/schemas/taste-profile-1.json': {
      get: { operationId: 'getTasteProfileSchema', summary: 'JSON Schema of the taste profile', tags: ['music'], security: [], responses: { 200: { description: 'The schema.', content: { 'application/schema+json': { schema: { type: 'object' } } } }, 304: notModified } },
    },
    '/schemas/taste-summary-1.json': {
      get: { operationId: 'getTasteSummarySchema', summary: 'JSON Schema of the taste summary', tags: ['movies'], security: [], responses: { 200: { description: 'The schema.', content: { 'application/schema+json': { schema: { type: 'object' } } } }, 304: notModified } },
    },
    '/api/music/intersections.json': musicPost(
      'intersectMusic',
      'Intersect a listener profile with this collection',
      `A structured query that changes nothing: body ≤ ${LIMITS.musicIntersectionBytesMax} bytes; unknown fields and bound overflows are 422 naming the path; unknown external-ID schemes are ignored. Confirm the listener's profile before sending it.`,
      'MusicIntersectionRequest',
      'MusicIntersectionResult',
      { profile: profileExample },
    ),
    '/api/music/station.json': musicPost(
      'musicStation',
      'A short, deterministic station',
      `Stateless: body ≤ ${LIMITS.musicStationBytesMax} bytes, at most ${LIMITS.musicStationTracksMax} tracks, the same input and seed give the same tracks, hard exclusions and recent IDs never return; if the similarity index fails the answer is \`degraded\` and still keeps every exclusion.`,
      'MusicStationRequest',
      'MusicStationResult',
      { schemaVersion: '1', stationSeed: 'monday', affinities: [{ kind: 'genre', value: 'Fado', weight: 1 }], votes: [], hardExclusions: [], recentCanonicalIds: [], limit: 3 },
    ),
  };
}
