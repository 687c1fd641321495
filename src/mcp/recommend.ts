/**
 * `taste.recommend`: recommendations from the owner's collections for a stated intent.
 * The intent is read for signal first — words that can match a named field of a record
 * (a genre, a director, a city, a category, an artist, a decade, a title) once request
 * words ("recommend", "something", "anything", "tonight"…) are set aside. A request with
 * none abstains before any record is read, saying what signal would help. Otherwise
 * each record of the candidate collections is kept only when an intent word matches one
 * of its named fields, and ranked by those matches and the owner's own marks
 * (recommended, rating, a loved stance); every reason is an `evidenceDetails` entry
 * naming the fields it reads. Deterministic: no clock, no randomness.
 */
import { fold } from '../core/fold.ts';
import { LIMITS } from '../core/limits.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { recordUrl } from '../urls.ts';
import { headline } from '../collections/headline.ts';
import { canonicalIdSchema, envelope, evidenceDetailSchema, listResultSchema, type EvidenceDetail } from './schemas.ts';
import type { ToolDefinition, ToolResult } from './tool.ts';

/** Per collection: the fields an intent word may match, and what the match means. */
const SIGNAL_FIELDS: Readonly<Record<string, readonly { field: string; code: string; label: string }[]>> = {
  movies: [
    { field: 'genres', code: 'genre-match', label: 'genre' },
    { field: 'director', code: 'director-match', label: 'director' },
    { field: 'cast', code: 'cast-match', label: 'cast' },
    { field: 'title', code: 'title-match', label: 'title' },
    { field: 'type', code: 'type-match', label: 'type' },
  ],
  books: [
    { field: 'genres', code: 'genre-match', label: 'genre' },
    { field: 'author', code: 'author-match', label: 'author' },
    { field: 'title', code: 'title-match', label: 'title' },
  ],
  places: [
    { field: 'category', code: 'category-match', label: 'category' },
    { field: 'city', code: 'city-match', label: 'city' },
    { field: 'neighborhood', code: 'neighborhood-match', label: 'neighborhood' },
    { field: 'country', code: 'country-match', label: 'country' },
    { field: 'name', code: 'name-match', label: 'name' },
  ],
  music: [
    { field: 'genres', code: 'genre-match', label: 'genre' },
    { field: 'artist', code: 'artist-match', label: 'artist' },
    { field: 'title', code: 'title-match', label: 'title' },
  ],
  concerts: [
    { field: 'artist', code: 'artist-match', label: 'artist' },
    { field: 'venue', code: 'venue-match', label: 'venue' },
    { field: 'city', code: 'city-match', label: 'city' },
  ],
};
const COLLECTIONS = Object.keys(SIGNAL_FIELDS);

/** Words that ask for a recommendation (or pick a collection) without saying anything about what. */
const REQUEST_WORDS = new Set(
  ('a an and any anything at be best can could do does for from give good great i im in is it just like me maybe mood my nice of on or please pick recommend recommendation ' +
    'recommendations should show so some something suggest suggestion surprise tell that the thing things to tonight today want what whatever which with would you your ' +
    'watch watching see film films movie movies series show shows tv read reading book books listen listening music song songs album albums track tracks go going eat place places visit ' +
    'concert concerts new fun cool random else other more').split(' '),
);

/** Words that say which collection the intent is about. */
const COLLECTION_WORDS: Readonly<Record<string, string>> = {
  watch: 'movies', film: 'movies', films: 'movies', movie: 'movies', movies: 'movies', series: 'movies', tv: 'movies', show: 'movies', shows: 'movies',
  read: 'books', reading: 'books', book: 'books', books: 'books', novel: 'books', novels: 'books',
  listen: 'music', music: 'music', song: 'music', songs: 'music', album: 'music', albums: 'music', track: 'music', tracks: 'music',
  eat: 'places', place: 'places', places: 'places', visit: 'places', restaurant: 'places', cafe: 'places', bar: 'places',
  concert: 'concerts', concerts: 'concerts', gig: 'concerts',
};

const words = (text: string): string[] => fold(text).split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
const DECADE = /^(?:19|20)?(\d)0s$/;

interface Signal {
  terms: string[];
  decades: number[];
  collections: string[];
}

/** The intent's signal: its terms (request words set aside), decades ("90s", "1990s"), and the collections it names. */
export function signalOf(intent: string): Signal {
  const all = words(intent);
  const decades: number[] = [];
  const terms: string[] = [];
  for (const word of all) {
    const decade = DECADE.exec(word);
    if (decade) decades.push(word.length === 5 ? Number(word.slice(0, 4)) : Number(decade[1]) >= 3 ? 1900 + Number(decade[1]) * 10 : 2000 + Number(decade[1]) * 10);
    else if (!REQUEST_WORDS.has(word) && word.length > 1) terms.push(word);
  }
  const collections = [...new Set(all.map((w) => COLLECTION_WORDS[w]).filter((c): c is string => c !== undefined))];
  return { terms: [...new Set(terms)], decades, collections };
}

const valuesOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : typeof value === 'string' ? [value] : []);

interface Recommendation {
  canonicalId: string;
  collection: string;
  title: string;
  canonicalUrl: string;
  score: number;
  evidence: string[];
  evidenceDetails: EvidenceDetail[];
}

function assess(collection: string, record: Record<string, unknown>, signal: Signal): Recommendation | undefined {
  const details: EvidenceDetail[] = [];
  let matches = 0;
  for (const { field, code, label } of SIGNAL_FIELDS[collection]!) {
    const values = valuesOf(record[field]);
    const hit = values.filter((v) => words(v).some((w) => signal.terms.includes(w)));
    if (hit.length) {
      matches += hit.length;
      details.push({ code, text: `Its ${label} ${hit.slice(0, 3).join(', ')} matches the request.`, fields: [field] });
    }
  }
  const year = typeof record.year === 'number' ? record.year : undefined;
  const decade = year === undefined ? undefined : signal.decades.find((d) => year >= d && year < d + 10);
  if (decade !== undefined) {
    matches += 1;
    details.push({ code: 'decade-match', text: `From ${year}, in the ${decade}s the request names.`, fields: ['year'] });
  }
  if (matches === 0) return undefined;
  let score = matches * 10;
  if (record.recommended === true) {
    score += 5;
    details.push({ code: 'recommended', text: 'The owner explicitly marked it recommended.', fields: ['recommended'] });
  }
  if (typeof record.rating === 'number') {
    score += record.rating;
    details.push({ code: 'rated', text: `Rated ${record.rating} out of 5 by the owner.`, fields: ['rating'] });
  }
  if (record.stance === 'love' || record.stance === 'like') {
    score += record.stance === 'love' ? 5 : 2;
    details.push({ code: `stance-${record.stance}`, text: `The owner's stance on it is ${record.stance}.`, fields: ['stance'] });
  }
  if (record.stance === 'dislike') return undefined;
  const canonicalId = String(record.canonicalId);
  return { canonicalId, collection, title: headline(collection, record), canonicalUrl: recordUrl(collection, canonicalId), score, evidence: details.map((d) => d.text), evidenceDetails: details };
}

const NEEDS = 'Say what you are in the mood for with something a record can match: a genre (drama, jazz, coffee), a director, author or artist, a city or neighbourhood, a decade (the 90s), or a title you liked.';

export const recommend: ToolDefinition = {
  name: 'taste.recommend',
  title: 'Recommend from the owner’s collections',
  description: `Recommendations from the owner's collections (${COLLECTIONS.join(', ')}) for a stated intent, each grounded in named record fields (evidenceDetails) and the owner's own marks (recommended, rating, stance). A broad or signal-free request ("anything", "recommend something") abstains before any retrieval and says what signal would help: ask the person for one. At most ${LIMITS.mcpRecommendationsMax} per call.`,
  inputSchema: {
    type: 'object',
    properties: {
      intent: { type: 'string', minLength: 1, maxLength: LIMITS.mcpIntentCharsMax, description: 'What the person wants, in their words: "a slow 90s crime film", "coffee in Lisbon".' },
      collection: { type: 'string', enum: COLLECTIONS, description: 'Restrict to one collection; otherwise the intent’s words choose (watch → movies, read → books…), or all.' },
      limit: { type: 'integer', minimum: 1, maximum: LIMITS.mcpRecommendationsMax, default: 5 },
    },
    required: ['intent'],
    additionalProperties: false,
  },
  outputSchema: listResultSchema(
    {
      intent: { type: 'string' },
      abstained: { type: 'boolean' },
      abstainReason: { enum: ['no-signal', 'no-match'] },
      needs: { type: 'string', description: 'When abstaining: what signal would help.' },
      signal: { type: 'object', additionalProperties: false, required: ['terms', 'decades'], properties: { terms: { type: 'array', items: { type: 'string' } }, decades: { type: 'array', items: { type: 'integer' } } } },
      collections: { type: 'array', items: { enum: COLLECTIONS } },
      recommendations: {
        type: 'array',
        maxItems: LIMITS.mcpRecommendationsMax,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['canonicalId', 'collection', 'title', 'canonicalUrl', 'score', 'evidence', 'evidenceDetails'],
          properties: { canonicalId: canonicalIdSchema, collection: { enum: COLLECTIONS }, title: { type: 'string' }, canonicalUrl: { type: 'string' }, score: { type: 'number' }, evidence: { type: 'array', items: { type: 'string' } }, evidenceDetails: { type: 'array', minItems: 1, items: evidenceDetailSchema } },
        },
      },
      evidenceDetails: { type: 'array', items: evidenceDetailSchema, description: 'The evidence of every recommendation, in order.' },
    },
    ['intent', 'abstained', 'signal', 'collections', 'recommendations', 'evidenceDetails'],
    'Grounded recommendations, or an abstention saying what would help.',
  ),
  cost: 3,
  run: (args, runtime) => recommendFor(runtime, String(args.intent), args.collection as string | undefined, Number(args.limit ?? 5)),
};

function recommendFor(runtime: Runtime, intent: string, only: string | undefined, limit: number): ToolResult {
  const signal = signalOf(intent);
  const collections = only ? [only] : signal.collections.filter((c) => c in SIGNAL_FIELDS).length ? signal.collections.filter((c) => c in SIGNAL_FIELDS) : COLLECTIONS;
  const asOf = collections.map((c) => runtime.image.asOf(c)).sort().at(-1)!;
  const selection = (method: string, explanation: string) => ({ task: 'recommend', method, role: 'suggestion', supportsPopulationClaims: false, explanation });
  const base = { intent, signal: { terms: signal.terms, decades: signal.decades }, collections };
  if (signal.terms.length === 0 && signal.decades.length === 0) {
    // Abstain before any retrieval: no record is read for a request that says nothing about what.
    return {
      structured: { ...base, abstained: true, abstainReason: 'no-signal', needs: NEEDS, recommendations: [], ...envelope(0, 0, asOf, selection('abstention', 'The request names nothing a record can match, so no record was read.'), [], 'No signal in the request.') },
      text: `No recommendation: the request names nothing to go on. ${NEEDS}`,
    };
  }
  const found = collections
    .flatMap((c) => runtime.tasteSources.records(c).map((r) => assess(c, r, signal)))
    .filter((r): r is Recommendation => r !== undefined)
    .sort((a, b) => b.score - a.score || (a.canonicalId < b.canonicalId ? -1 : 1));
  const picks = found.slice(0, limit);
  const method = selection('field-match-ranking', 'Records whose named fields match a word of the intent, ranked by the number of matches, then the owner’s marks (recommended, rating, stance), then canonical ID. Suggestions, not a sample: they support no claim about the collections as a whole.');
  if (picks.length === 0) {
    return {
      structured: { ...base, abstained: true, abstainReason: 'no-match', needs: NEEDS, recommendations: [], ...envelope(0, 0, asOf, method, [], 'No record matches the request.') },
      text: `Nothing in ${collections.join(', ')} matches "${signal.terms.join(' ')}". ${NEEDS}`,
    };
  }
  return {
    structured: { ...base, abstained: false, recommendations: picks, ...envelope(picks.length, found.length, asOf, method, picks.flatMap((p) => p.evidenceDetails), picks.map((p) => `${p.title}: ${p.evidence.join(' ')}`).join(' | ')) },
    text: picks.map((p) => `- ${p.title} (${p.collection}, ${p.canonicalId}): ${p.evidence.join(' ')}`).join('\n'),
  };
}
