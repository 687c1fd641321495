/**
 * The taste tools: `taste.summarize` (the movie taste summary, the same document as
 * `/api/taste/summary.json` plus the compatibility aliases), `taste.profile` (the
 * portable music taste profile, the same document as `/.well-known/taste-profile.json`)
 * and `music.intersect` (the music intersection of SPEC §4.4, the same contract and
 * answers as `POST /api/music/intersections.json`). Each calls the function REST calls,
 * with the schemas OpenAPI publishes, over the records and profile the generation holds
 * for REST, RPC and MCP alike (the generation's `tasteSources`, src/taste/sources.ts).
 */
import type { JsonObject } from '../collections/item-schema.ts';
import { LIMITS } from '../core/limits.ts';
import { tasteSchemas } from '../openapi/taste-paths.ts';
import { intersect, type IntersectReason } from '../taste/intersect.ts';
import { parseIntersectionRequest } from '../taste/music-request.ts';
import { tasteSummary } from '../taste/summary.ts';
import { embedded, envelope, ENVELOPE_FIELDS, evidenceText, RESULT_VERSION, withEnvelopeSchema, type EvidenceDetail } from './schemas.ts';
import type { ToolDefinition } from './tool.ts';

const schemas = tasteSchemas();

const summarySchema = embedded(schemas.TasteSummary!);

interface SummaryExample {
  title: string;
  evidence: string[];
  evidenceDetails: EvidenceDetail[];
}

/** What the summary rests on: its corpus, then each example's evidence. */
const CORPUS_EVIDENCE: EvidenceDetail = {
  code: 'corpus',
  text: 'The corpus is the public movie and TV records the owner marked recommended; the distributions count it.',
  fields: ['recommended'],
};

export const summarize: ToolDefinition = {
  name: 'taste.summarize',
  title: 'Summarize the owner’s movie taste',
  description:
    'The movie and TV taste summary: what the owner’s recommended titles say as coverage, genre/director/type/decade distributions (shares of the eligible corpus; multi-value dimensions may sum above 1) and a few deterministically ranked illustrative examples with evidence. Examples illustrate, they are not a sample: use the distributions for claims about the whole. Absence from the corpus establishes nothing.',
  inputSchema: {
    type: 'object',
    properties: {
      exampleLimit: {
        type: 'integer',
        minimum: 0,
        maximum: LIMITS.tasteExampleLimitMax,
        default: LIMITS.tasteExampleLimitDefault,
        description: 'Illustrative examples to include.',
      },
    },
    additionalProperties: false,
  },
  outputSchema: withEnvelopeSchema(
    summarySchema,
    'The document of /api/taste/summary.json (its own counts, generatedAt and selection), with evidenceDetails (the corpus, then every example’s evidence) and the compatibility aliases total (= counts.collectionCount), resultVersion and evidence (one string).',
  ),
  cost: 1,
  run: (args, context) => {
    const params = new URLSearchParams();
    if (args.exampleLimit !== undefined) params.set('exampleLimit', String(args.exampleLimit));
    const summary = tasteSummary(context.tasteSources.movies, params, context.image.asOf('movies'));
    const counts = summary.counts as { collectionCount: number };
    const examples = summary.examples as SummaryExample[];
    const evidence = examples.length ? examples.map((e) => `${e.title}: ${e.evidence.join(' ')}`).join(' | ') : String(summary.summary);
    const evidenceDetails = [CORPUS_EVIDENCE, ...examples.flatMap((e) => e.evidenceDetails)];
    return {
      structured: { ...summary, evidenceDetails, total: counts.collectionCount, resultVersion: RESULT_VERSION, evidence },
      text: [String(summary.summary), ...examples.map((e) => `- ${e.title}: ${e.evidence.join(' ')}`)].join('\n'),
    };
  },
};

const PROFILE_SELECTION = {
  task: 'profile',
  method: 'stance-aggregation',
  role: 'profile',
  supportsPopulationClaims: true,
  explanation:
    'Every public music record, as artists, recordings, albums and genres with the owner’s stance (bounded lists, in a fixed order); counts are of the profile’s entries.',
};
const PROFILE_EVIDENCE: EvidenceDetail[] = [
  {
    code: 'stance',
    text: 'Artists, recordings and albums carry the stance the owner gave their music records; the artists of loved tracks and albums are added as loved.',
    fields: ['type', 'title', 'artist', 'stance'],
  },
  { code: 'genre-stance', text: 'A genre takes the most frequent stance of the records that list it.', fields: ['genres', 'stance'] },
  { code: 'external-ids', text: 'External identifiers are copied from the records that give them.', fields: ['externalIds'] },
];

/** The intersection's evidence: one entry per reason code its matches carry, or why it abstained. */
function intersectionEvidence(result: ReturnType<typeof intersect>): EvidenceDetail[] {
  if (result.abstained)
    return [
      {
        code: `abstained-${result.abstainReason ?? 'too-few-signals'}`,
        text:
          result.abstainReason === 'no-overlap'
            ? 'No published track shares a recording, album, artist or genre with the profile.'
            : 'The profile has too few entries with a stance to match on.',
        fields: ['stance'],
      },
    ];
  const reasons = [...new Set(result.matches.flatMap((m) => m.reasons))];
  return reasons.map((code) => ({ code, text: REASON_TEXT[code], fields: REASON_FIELDS[code] }));
}

const REASON_TEXT: Readonly<Record<IntersectReason, string>> = {
  'same-recording-isrc': 'The same recording, by ISRC.',
  'same-recording-musicbrainz': 'The same recording, by MusicBrainz ID.',
  'same-recording-spotify': 'The same recording, by Spotify ID.',
  'same-recording-name': 'The same recording, by title and artist.',
  'album-match': 'A track of an album the profile names.',
  'artist-match': 'A track by an artist the profile names.',
  'genre-match': 'A track of a genre the profile names.',
};
const REASON_FIELDS: Readonly<Record<IntersectReason, string[]>> = {
  'same-recording-isrc': ['externalIds'],
  'same-recording-musicbrainz': ['externalIds'],
  'same-recording-spotify': ['externalIds'],
  'same-recording-name': ['title', 'artist'],
  'album-match': ['album', 'artist'],
  'artist-match': ['artist'],
  'genre-match': ['genres'],
};

export const profile: ToolDefinition = {
  name: 'taste.profile',
  title: 'Get the owner’s portable music taste profile',
  description:
    'The owner’s music taste as a portable profile (artists, recordings, albums, genres, each with a stance: love, like, neutral, dislike; and a few notes): the same document as /.well-known/taste-profile.json. Its shape is what music.intersect accepts as `profile`.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  outputSchema: withEnvelopeSchema(
    schemas.TasteProfile!,
    'The document of /.well-known/taste-profile.json, with the result envelope beside it (counts of its entries, generatedAt, selection, evidenceDetails and the compatibility aliases). music.intersect takes this whole result as `profile`: it ignores the envelope fields.',
  ),
  cost: 1,
  run: (_args, context) => {
    const document = context.tasteSources.profile;
    const music = document.music;
    const loved = music.artists
      .filter((a) => a.stance === 'love')
      .map((a) => a.name)
      .slice(0, 8);
    const entries = music.artists.length + music.recordings.length + music.albums.length + music.genres.length;
    return {
      structured: { ...document, ...envelope(entries, entries, context.image.asOf('music'), PROFILE_SELECTION, PROFILE_EVIDENCE) },
      text: `Music taste profile: ${music.artists.length} artists, ${music.recordings.length} recordings, ${music.albums.length} albums, ${music.genres.length} genres.${loved.length ? ` Loved artists include ${loved.join(', ')}.` : ''}`,
    };
  },
};

export const intersectTool: ToolDefinition = {
  name: 'music.intersect',
  title: 'Intersect a listener’s music profile with the owner’s',
  description:
    'Which of the owner’s published tracks a listener’s music profile points at, with grounded reason codes (same recording by ISRC/MusicBrainz/Spotify/name, album, artist, genre), counts of unmatched entries, and an abstention when the signal is too weak; never a compatibility percentage. Confirm the listener’s profile with them before sending it. Same contract as POST /api/music/intersections.json; nothing is stored.',
  inputSchema: intersectInputSchema(),
  outputSchema: withEnvelopeSchema(
    schemas.MusicIntersectionResult!,
    'The answer of POST /api/music/intersections.json (still no score or percentage), with the result envelope beside it: counts (matches returned, matching in all), generatedAt, selection, evidenceDetails (one per reason code, or why it abstained) and the compatibility aliases.',
  ),
  cost: 5,
  run: (args, context) => {
    const result = intersect(context.tasteSources.music, parseIntersectionRequest(withoutEnvelope(args)).profile);
    const head = result.abstained
      ? `Abstained (${result.abstainReason ?? 'too little signal'}).`
      : `${result.matchCount} matching tracks${result.truncated ? ` (first ${result.matches.length} shown)` : ''}.`;
    const lines = result.matches.slice(0, 20).map((m) => `- ${m.artist} — ${m.title} (${m.reasons.join(', ')}; ${m.canonicalId})`);
    const details = intersectionEvidence(result);
    const structured = {
      ...result,
      ...envelope(
        result.matches.length,
        result.matchCount,
        context.image.asOf('music'),
        INTERSECT_SELECTION,
        details,
        result.abstained ? head : evidenceText(details),
      ),
    };
    return { structured, text: [head, ...lines].join('\n') };
  },
};

const INTERSECT_SELECTION = {
  task: 'intersect',
  method: 'profile-match',
  role: 'matches',
  supportsPopulationClaims: false,
  explanation:
    'The owner’s published tracks that a recording, album, artist or genre of the listener’s profile points at, strongest reason first; no score, and nothing about tracks that did not match.',
};

/**
 * The request of POST /api/music/intersections.json, except that `profile` may also carry
 * the envelope fields of a taste.profile result (ignored), so that result can be passed as is.
 */
function intersectInputSchema(): JsonObject {
  const request = schemas.MusicIntersectionRequest!;
  const properties = request.properties as JsonObject;
  const profileSchema = properties.profile as JsonObject;
  const envelopeFields = Object.fromEntries(
    [...ENVELOPE_FIELDS].map((name) => [name, { description: 'An envelope field of a taste.profile result: accepted and ignored.' }]),
  );
  return {
    ...request,
    properties: { ...properties, profile: { ...profileSchema, properties: { ...(profileSchema.properties as JsonObject), ...envelopeFields } } },
  };
}

/** The arguments with the envelope fields of a taste.profile result taken out of `profile`. */
function withoutEnvelope(args: Record<string, unknown>): Record<string, unknown> {
  const given = args.profile;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) return args;
  return { ...args, profile: Object.fromEntries(Object.entries(given).filter(([name]) => !ENVELOPE_FIELDS.has(name))) };
}
