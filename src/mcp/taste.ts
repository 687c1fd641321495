/**
 * The taste tools: `taste.summarize` (the movie taste summary, the same document as
 * `/api/taste/summary.json` plus the compatibility aliases), `taste.profile` (the
 * portable music taste profile, the same document as `/.well-known/taste-profile.json`)
 * and `music.intersect` (the music intersection of SPEC §4.4, the same contract and
 * answers as `POST /api/music/intersections.json`). Each calls the function REST calls,
 * with the schemas OpenAPI publishes; the records they read are taken once per
 * generation (the image never changes under a running runtime).
 */
import { collection } from '../collections/index.ts';
import type { JsonObject } from '../collections/item-schema.ts';
import { LIMITS } from '../core/limits.ts';
import { tasteSchemas } from '../openapi/taste-paths.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { intersect } from '../taste/intersect.ts';
import { parseIntersectionRequest } from '../taste/music-request.ts';
import { tasteProfile } from '../taste/profile.ts';
import { tasteSummary } from '../taste/summary.ts';
import { embedded, envelopeProperties, RESULT_VERSION } from './schemas.ts';
import type { ToolDefinition } from './tool.ts';

/** Records of a collection, parsed once per generation. */
const recordsByRuntime = new WeakMap<Runtime, Map<string, Record<string, unknown>[]>>();
export function recordsOf(runtime: Runtime, name: string): Record<string, unknown>[] {
  let byName = recordsByRuntime.get(runtime);
  if (!byName) recordsByRuntime.set(runtime, (byName = new Map()));
  let records = byName.get(name);
  if (!records) byName.set(name, (records = runtime.core.records(collection(name)!)));
  return records;
}

const schemas = tasteSchemas();

const summarySchema = embedded(schemas.TasteSummary!);
const summaryProperties = summarySchema.properties as JsonObject;

interface SummaryExample {
  title: string;
  evidence: string[];
}

export const summarize: ToolDefinition = {
  name: 'taste.summarize',
  title: 'Summarize the owner’s movie taste',
  description:
    'The movie and TV taste summary: what the owner’s recommended titles say as coverage, genre/director/type/decade distributions (shares of the eligible corpus; multi-value dimensions may sum above 1) and a few deterministically ranked illustrative examples with evidence. Examples illustrate, they are not a sample: use the distributions for claims about the whole. Absence from the corpus establishes nothing.',
  inputSchema: {
    type: 'object',
    properties: { exampleLimit: { type: 'integer', minimum: 0, maximum: LIMITS.tasteExampleLimitMax, default: LIMITS.tasteExampleLimitDefault, description: 'Illustrative examples to include.' } },
    additionalProperties: false,
  },
  outputSchema: {
    ...summarySchema,
    description: 'The document of /api/taste/summary.json, with the compatibility aliases total (= counts.collectionCount), resultVersion and evidence (one string).',
    properties: { ...summaryProperties, total: envelopeProperties.total!, resultVersion: envelopeProperties.resultVersion!, evidence: envelopeProperties.evidence! },
    required: [...(summarySchema.required as string[]), 'total', 'resultVersion', 'evidence'],
  },
  cost: 1,
  run: (args, runtime) => {
    const params = new URLSearchParams();
    if (args.exampleLimit !== undefined) params.set('exampleLimit', String(args.exampleLimit));
    const summary = tasteSummary(recordsOf(runtime, 'movies'), params, runtime.image.asOf('movies'));
    const counts = summary.counts as { collectionCount: number };
    const examples = summary.examples as SummaryExample[];
    const evidence = examples.length ? examples.map((e) => `${e.title}: ${e.evidence.join(' ')}`).join(' | ') : String(summary.summary);
    return {
      structured: { ...summary, total: counts.collectionCount, resultVersion: RESULT_VERSION, evidence },
      text: [String(summary.summary), ...examples.map((e) => `- ${e.title}: ${e.evidence.join(' ')}`)].join('\n'),
    };
  },
};

const profiles = new WeakMap<Runtime, ReturnType<typeof tasteProfile>>();

export const profile: ToolDefinition = {
  name: 'taste.profile',
  title: 'Get the owner’s portable music taste profile',
  description:
    'The owner’s music taste as a portable profile (artists, recordings, albums, genres, each with a stance: love, like, neutral, dislike; and a few notes): the same document as /.well-known/taste-profile.json. Its shape is what music.intersect accepts as `profile`.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  outputSchema: schemas.TasteProfile!,
  cost: 1,
  run: (_args, runtime) => {
    let document = profiles.get(runtime);
    if (!document) profiles.set(runtime, (document = tasteProfile(recordsOf(runtime, 'music'), runtime.image.asOf('music'))));
    const music = document.music;
    const loved = music.artists.filter((a) => a.stance === 'love').map((a) => a.name).slice(0, 8);
    return {
      structured: document as unknown as Record<string, unknown>,
      text: `Music taste profile: ${music.artists.length} artists, ${music.recordings.length} recordings, ${music.albums.length} albums, ${music.genres.length} genres.${loved.length ? ` Loved artists include ${loved.join(', ')}.` : ''}`,
    };
  },
};

export const intersectTool: ToolDefinition = {
  name: 'music.intersect',
  title: 'Intersect a listener’s music profile with the owner’s',
  description:
    'Which of the owner’s published tracks a listener’s music profile points at, with grounded reason codes (same recording by ISRC/MusicBrainz/Spotify/name, album, artist, genre), counts of unmatched entries, and an abstention when the signal is too weak; never a compatibility percentage. Confirm the listener’s profile with them before sending it. Same contract as POST /api/music/intersections.json; nothing is stored.',
  inputSchema: schemas.MusicIntersectionRequest!,
  outputSchema: schemas.MusicIntersectionResult!,
  cost: 5,
  run: (args, runtime) => {
    const result = intersect(recordsOf(runtime, 'music'), parseIntersectionRequest(args).profile);
    const head = result.abstained ? `Abstained (${result.abstainReason ?? 'too little signal'}).` : `${result.matchCount} matching tracks${result.truncated ? ` (first ${result.matches.length} shown)` : ''}.`;
    const lines = result.matches.slice(0, 20).map((m) => `- ${m.artist} — ${m.title} (${m.reasons.join(', ')}; ${m.canonicalId})`);
    return { structured: result as unknown as Record<string, unknown>, text: [head, ...lines].join('\n') };
  },
};
