/**
 * The taste surfaces in the description: the movie taste summary, the portable music
 * taste profile and its JSON Schema, and the two music POSTs (intersections, station),
 * whose request schemas are generated from the zod schemas the endpoints enforce.
 */
import { z } from 'zod';
import { LIMITS } from '../core/limits.ts';
import { intersect } from '../taste/intersect.ts';
import { intersectionRequestSchema, parseIntersectionRequest, parseStationRequest, stationRequestSchema } from '../taste/music-request.ts';
import { station } from '../taste/station.ts';
import { TASTE_PROFILE_SCHEMA } from '../taste/profile-schema.ts';
import { tasteProfile, TASTE_PROFILE_MEDIA_TYPE } from '../taste/profile.ts';
import { tasteSummary, TASTE_SUMMARY_SCHEMA } from '../taste/summary.ts';
import { problemRef } from './problems.ts';
import { headerRefs } from './response-headers.ts';
import { ref, type JsonSchema, type PathItem } from './types.ts';
import { URLS } from '../urls.ts';

/** A schema embedded in components: its own `$id`/`$schema` would re-base references, so they go. */
function embedded(schema: object): JsonSchema {
  const { $id: _id, $schema: _schema, ...rest } = schema as Record<string, unknown>;
  return rest as JsonSchema;
}

const requestSchema = (schema: z.ZodType) => embedded(z.toJSONSchema(schema, { io: 'input' }));

const MATCH = {
  type: 'object',
  properties: { canonicalId: { type: 'string' }, title: { type: 'string' }, artist: { type: 'string' }, reasons: { type: 'array', items: { type: 'string' } } },
  required: ['canonicalId', 'reasons'],
};

export function tasteSchemas(): Record<string, JsonSchema> {
  return {
    TasteSummary: embedded(TASTE_SUMMARY_SCHEMA),
    TasteProfile: embedded(TASTE_PROFILE_SCHEMA),
    MusicIntersectionRequest: requestSchema(intersectionRequestSchema),
    MusicStationRequest: requestSchema(stationRequestSchema),
    MusicIntersectionResult: {
      type: 'object',
      description:
        'Canonical IDs of matching tracks with grounded reason codes, unmatched counts per kind, and an abstention flag; never a compatibility percentage.',
      properties: {
        schemaVersion: { const: '1' },
        matches: { type: 'array', maxItems: LIMITS.musicMatchesMax, items: MATCH },
        unmatched: {
          type: 'object',
          properties: { artists: { type: 'integer' }, recordings: { type: 'integer' }, albums: { type: 'integer' }, genres: { type: 'integer' } },
        },
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

const notModified = { description: 'Not modified: the client’s copy is current. No body.' };

function musicPost(operationId: string, summary: string, description: string, request: string, result: string, example: unknown, answer: unknown): PathItem {
  return {
    post: {
      operationId,
      summary,
      description,
      tags: ['music'],
      security: [],
      requestBody: { required: true, content: { 'application/json': { schema: ref('schemas', request), example } } },
      responses: {
        200: {
          description: 'The answer; never cached, nothing is stored.',
          content: { 'application/json': { schema: ref('schemas', result), example: answer } },
        },
        400: problemRef(400),
        408: problemRef(408),
        417: problemRef(417),
        413: problemRef(413),
        415: problemRef(415),
        422: problemRef(422),
        431: problemRef(431),
      },
    },
    options: {
      operationId: `${operationId}Preflight`,
      summary: 'CORS preflight',
      tags: ['music'],
      security: [],
      responses: { 204: { description: 'The preflight.' } },
    },
  };
}

/** Examples made by the real functions from two small records, so they cannot drift from the code. */
const EXAMPLE_MOVIES = [
  {
    canonicalId: 'itm_0000000000000000000000a1',
    title: 'Heat',
    type: 'movie',
    year: 1995,
    addedAt: '2024-01-03',
    genres: ['Crime', 'Thriller'],
    director: ['Michael Mann'],
    cast: [],
    recommended: true,
    rating: 5,
  },
  {
    canonicalId: 'itm_0000000000000000000000a2',
    title: 'Fargo',
    type: 'movie',
    year: 1996,
    addedAt: '2024-02-01',
    genres: ['Crime'],
    director: ['Joel Coen', 'Ethan Coen'],
    cast: [],
    recommended: true,
  },
];
const EXAMPLE_MUSIC = [
  {
    canonicalId: 'itm_0000000000000000000000b1',
    type: 'track',
    title: 'Gente da Minha Terra',
    artist: 'Mariza',
    genres: ['Fado'],
    stance: 'love',
    addedAt: '2024-01-01',
  },
];

export function tastePaths(): Record<string, PathItem> {
  const profileExample = tasteProfile(EXAMPLE_MUSIC, '2024-01-01T00:00:00Z');
  const stationExample = {
    schemaVersion: '1',
    stationSeed: 'monday',
    affinities: [{ kind: 'genre', value: 'Fado', weight: 1 }],
    votes: [],
    hardExclusions: [],
    recentCanonicalIds: [],
    limit: 3,
  };
  const summaryExample = tasteSummary(EXAMPLE_MOVIES, new URLSearchParams('exampleLimit=1'), '2024-02-01T00:00:00Z');
  return {
    [URLS.tasteSummary]: {
      get: {
        operationId: 'getTasteSummary',
        summary: 'Movie taste summary',
        description:
          'Distributions over the public movies marked recommended, with coverage per dimension and deterministic illustrative examples (not a sample; see `selection`).',
        tags: ['movies'],
        security: [],
        parameters: [
          {
            name: 'collection',
            in: 'query',
            required: false,
            description: 'The collection summarized; only `movies` today.',
            schema: { type: 'string', enum: ['movies'] },
          },
          {
            name: 'exampleLimit',
            in: 'query',
            required: false,
            description: 'How many illustrative examples to return.',
            schema: { type: 'integer', minimum: 0, maximum: LIMITS.tasteExampleLimitMax, default: LIMITS.tasteExampleLimitDefault },
          },
        ],
        responses: {
          200: {
            description: 'The summary.',
            headers: headerRefs(['ETag', 'CacheControl', 'LastModified']),
            content: { 'application/json': { schema: ref('schemas', 'TasteSummary'), example: summaryExample } },
          },
          304: notModified,
          400: problemRef(400),
        },
      },
    },
    [URLS.tasteProfile]: {
      get: {
        operationId: 'getTasteProfile',
        summary: 'Portable music taste profile',
        description: `The owner's music taste in the input shape of \`POST ${URLS.musicIntersections}\` (send it as \`{"profile": …}\`); media type \`${TASTE_PROFILE_MEDIA_TYPE}\`, schema at \`${URLS.tasteProfileSchema}\`.`,
        tags: ['music'],
        security: [],
        responses: {
          200: {
            description: 'The profile.',
            content: { 'application/taste-profile+json': { schema: ref('schemas', 'TasteProfile'), example: profileExample } },
          },
          304: notModified,
        },
      },
    },
    [URLS.tasteProfileSchema]: {
      get: {
        operationId: 'getTasteProfileSchema',
        summary: 'JSON Schema of the taste profile',
        tags: ['music'],
        security: [],
        responses: { 200: { description: 'The schema.', content: { 'application/schema+json': { schema: { type: 'object' } } } }, 304: notModified },
      },
    },
    [URLS.tasteSummarySchema]: {
      get: {
        operationId: 'getTasteSummarySchema',
        summary: 'JSON Schema of the taste summary',
        tags: ['movies'],
        security: [],
        responses: { 200: { description: 'The schema.', content: { 'application/schema+json': { schema: { type: 'object' } } } }, 304: notModified },
      },
    },
    [URLS.musicIntersections]: musicPost(
      'intersectMusic',
      'Intersect a listener profile with this collection',
      `A structured query that changes nothing: body ≤ ${LIMITS.musicIntersectionBytesMax} bytes; unknown fields and bound overflows are 422 naming the path; unknown external-ID schemes are ignored. Confirm the listener's profile before sending it.`,
      'MusicIntersectionRequest',
      'MusicIntersectionResult',
      { profile: profileExample },
      intersect(EXAMPLE_MUSIC, parseIntersectionRequest({ profile: profileExample }).profile),
    ),
    [URLS.musicStation]: musicPost(
      'musicStation',
      'A short, deterministic station',
      `Stateless: body ≤ ${LIMITS.musicStationBytesMax} bytes, at most ${LIMITS.musicStationTracksMax} tracks, the same input and seed give the same tracks, hard exclusions and recent IDs never return; if the similarity index fails the answer is \`degraded\` and still keeps every exclusion.`,
      'MusicStationRequest',
      'MusicStationResult',
      stationExample,
      station(EXAMPLE_MUSIC, parseStationRequest(stationExample)),
    ),
  };
}
