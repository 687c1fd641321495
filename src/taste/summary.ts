/**
 * The movie taste summary (SPEC §2.3, `/api/taste/summary.json`): what the public,
 * recommended movie and TV records say about the owner's taste, as coverage, value
 * distributions and a few deterministically ranked illustrative examples.
 *
 * A pure function of the published records, the query and the data's as-of time: no
 * clock, no randomness, and the same answer whatever order the records arrive in.
 */
import { PublicError } from '../core/errors.ts';
import { LIMITS } from '../core/limits.ts';
import { refuseControlCharacters } from '../core/params.ts';
import { URLS } from '../urls.ts';

type MovieRecord = Readonly<Record<string, unknown>>;

export const TASTE_SUMMARY_CORPUS_ID = 'movies-recommended';
/** Values listed per distribution dimension, most frequent first. */
export const DISTRIBUTION_VALUES_MAX = LIMITS.tasteDistributionValuesMax;
/** How many of the corpus's most common genres count as a "top genre" in example evidence. */
const TOP_GENRES_FOR_EVIDENCE = 3;

const PARAMETERS = ['collection', 'exampleLimit'] as const;

type Dimension = 'genre' | 'director' | 'type' | 'decade';

interface DimensionDef {
  dimension: Dimension;
  label: string;
  multiValue: boolean;
  /** The record's values on this dimension; empty when the field is missing. */
  values(record: MovieRecord): string[];
  valueLabel(value: string): string;
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? [...new Set(value.filter((v): v is string => typeof v === 'string' && v.trim() !== ''))] : [];

const DIMENSIONS: readonly DimensionDef[] = [
  { dimension: 'genre', label: 'Genre', multiValue: true, values: (r) => strings(r.genres), valueLabel: (v) => v },
  { dimension: 'director', label: 'Director', multiValue: true, values: (r) => strings(r.director), valueLabel: (v) => v },
  {
    dimension: 'type',
    label: 'Type',
    multiValue: false,
    values: (r) => (r.type === 'movie' || r.type === 'tv' ? [r.type] : []),
    valueLabel: (v) => (v === 'tv' ? 'TV series' : v === 'movie' ? 'Movie' : v),
  },
  {
    dimension: 'decade',
    label: 'Decade of release',
    multiValue: false,
    values: (r) => (Number.isInteger(r.year) ? [String(Math.floor((r.year as number) / 10) * 10)] : []),
    valueLabel: (v) => `${v}s`,
  },
];

/** Code-unit order: locale-independent, so the output is the same on every machine. */
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const round4 = (n: number): number => Math.round(n * 10_000) / 10_000;

/** The summary's query, validated: the summary depends on nothing else. Throws `PublicError` naming the parameter at fault. */
export function parseSummaryParams(params: URLSearchParams): { exampleLimit: number } {
  refuseControlCharacters(params);
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (!(PARAMETERS as readonly string[]).includes(name)) {
      throw new PublicError(
        'unknown-parameter',
        `The taste summary does not take a parameter named \`${name}\`; it takes \`collection\` and \`exampleLimit\`.`,
        name,
      );
    }
    if (seen.has(name)) throw new PublicError('invalid-query', `The parameter \`${name}\` is given more than once.`, name);
    seen.add(name);
  }
  const collection = params.get('collection');
  if (collection !== null && collection !== 'movies') {
    throw new PublicError('invalid-query', 'The parameter `collection` must be `movies`: the taste summary covers movies and TV only.', 'collection');
  }
  const raw = params.get('exampleLimit');
  let exampleLimit: number = LIMITS.tasteExampleLimitDefault;
  if (raw !== null) {
    const max = LIMITS.tasteExampleLimitMax;
    if (!/^\d{1,3}$/.test(raw) || Number(raw) > max) {
      throw new PublicError('invalid-query', `The parameter \`exampleLimit\` must be an integer from 0 to ${max}.`, 'exampleLimit');
    }
    exampleLimit = Number(raw);
  }
  return { exampleLimit };
}

/** The corpus: public, published movie records explicitly marked recommended. */
function corpusOf(movies: readonly MovieRecord[]): MovieRecord[] {
  return movies.filter((m) => m.recommended === true && (m.visibility === undefined || m.visibility === 'public') && typeof m.canonicalId === 'string');
}

interface Distribution {
  dimension: Dimension;
  label: string;
  multiValue: boolean;
  denominator: 'eligible';
  denominatorCount: number;
  values: { value: string; label: string; count: number; shareOfEligible: number }[];
}

function distributionOf(def: DimensionDef, corpus: readonly MovieRecord[]): Distribution {
  const counts = new Map<string, number>();
  for (const record of corpus) for (const value of def.values(record)) counts.set(value, (counts.get(value) ?? 0) + 1);
  const eligible = corpus.length;
  const values = [...counts]
    .sort(([va, ca], [vb, cb]) => cb - ca || cmp(va, vb))
    .slice(0, DISTRIBUTION_VALUES_MAX)
    .map(([value, count]) => ({ value, label: def.valueLabel(value), count, shareOfEligible: eligible === 0 ? 0 : round4(count / eligible) }));
  return { dimension: def.dimension, label: def.label, multiValue: def.multiValue, denominator: 'eligible', denominatorCount: eligible, values };
}

function timeKey(value: unknown): number {
  if (typeof value !== 'string') return Number.NEGATIVE_INFINITY;
  const t = Date.parse(value);
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
}

/** Ranking of examples: rating desc (unrated last), then addedAt desc, then canonicalId asc. */
function compareExamples(a: MovieRecord, b: MovieRecord): number {
  const ra = typeof a.rating === 'number' ? a.rating : -1;
  const rb = typeof b.rating === 'number' ? b.rating : -1;
  if (ra !== rb) return rb - ra;
  const ta = timeKey(a.addedAt);
  const tb = timeKey(b.addedAt);
  if (ta !== tb) return tb > ta ? 1 : -1;
  return cmp(String(a.canonicalId), String(b.canonicalId)) || cmp(JSON.stringify(a), JSON.stringify(b));
}

function describe(record: MovieRecord): string {
  const kind = record.type === 'tv' ? 'TV series' : 'movie';
  const year = Number.isInteger(record.year) ? ` (${record.year})` : '';
  const genres = strings(record.genres).slice(0, 3);
  const directors = strings(record.director).slice(0, 2);
  const parts = [`${String(record.title)}${year} is a recommended ${kind}`];
  if (genres.length > 0) parts.push(`in ${genres.join(', ')}`);
  if (directors.length > 0) parts.push(`directed by ${directors.join(' and ')}`);
  return `${parts.join(' ')}.`;
}

function exampleOf(record: MovieRecord, genreDistribution: Distribution) {
  const details: { code: string; text: string; fields: string[] }[] = [
    { code: 'recommended', text: 'The owner explicitly marked it recommended.', fields: ['recommended'] },
  ];
  const topGenres = genreDistribution.values.slice(0, TOP_GENRES_FOR_EVIDENCE);
  const own = new Set(strings(record.genres));
  const top = topGenres.find((g) => own.has(g.value));
  if (top) {
    details.push({
      code: 'top-genre',
      text: `Its genre ${top.label} is among the corpus's most common (${top.count} of ${genreDistribution.denominatorCount} recommended titles).`,
      fields: ['genres'],
    });
  }
  if (typeof record.rating === 'number') {
    details.push({ code: 'rated', text: `Rated ${record.rating} out of 5 by the owner.`, fields: ['rating'] });
  }
  const directors = strings(record.director);
  if (directors.length > 0) {
    details.push({ code: 'directed-by', text: `Directed by ${directors.join(' and ')}.`, fields: ['director'] });
  }
  const canonicalId = String(record.canonicalId);
  return {
    canonicalId,
    collection: 'movies',
    title: String(record.title),
    canonicalUrl: `/movies/${canonicalId}`,
    description: describe(record),
    evidence: details.map((d) => d.text),
    evidenceDetails: details,
    data: { canonicalId, title: record.title, type: record.type, year: record.year, genres: strings(record.genres) },
  };
}

const percent = (share: number): string => `${Math.round(share * 100)}%`;

function summarize(corpusSize: number, distributions: readonly Distribution[], returned: number, asOf: string): string {
  if (corpusSize === 0) {
    return `No public movie or TV record is marked recommended as of ${asOf}, so there is no taste to summarize yet.`;
  }
  const noun = corpusSize === 1 ? 'title is' : 'titles are';
  const parts = [`${corpusSize} public movie and TV ${noun} marked recommended as of ${asOf}`];
  const top = (d: Dimension) => distributions.find((x) => x.dimension === d)?.values[0];
  const genre = top('genre');
  if (genre) parts.push(`the most common genre is ${genre.label} (${genre.count} of ${corpusSize}, ${percent(genre.shareOfEligible)})`);
  const decade = top('decade');
  if (decade) parts.push(`the most common decade is the ${decade.label} (${decade.count} of ${corpusSize})`);
  const director = top('director');
  if (director && director.count > 1) parts.push(`the most recommended director is ${director.label} (${director.count} titles)`);
  const head = parts.length > 1 ? `${parts[0]}; ${parts.slice(1).join(', ')}` : parts[0];
  const examples = returned === 0 ? 'no examples are shown' : `${returned} illustrative example${returned === 1 ? ' follows' : 's follow'}`;
  return `${head}. ${examples[0]!.toUpperCase()}${examples.slice(1)}, ranked by rating, not sampled.`;
}

/**
 * The taste summary of the movie collection. `movies` are the published movie records
 * (JSON API form); `asOf` is the collection's data as-of time (RFC 3339), used for both
 * `coverage.dataAsOf` and `generatedAt` so the answer never depends on the clock.
 * Throws `PublicError` (`invalid-query`, `unknown-parameter`) for a bad query.
 */
export function tasteSummary(movies: readonly Record<string, unknown>[], params: URLSearchParams, asOf: string): Record<string, unknown> {
  const { exampleLimit } = parseSummaryParams(params);
  const corpus = corpusOf(movies);
  const distributions = DIMENSIONS.map((def) => distributionOf(def, corpus));
  const coverage = DIMENSIONS.map((def) => {
    const populatedCount = corpus.filter((r) => def.values(r).length > 0).length;
    return { dimension: def.dimension, eligibleCount: corpus.length, populatedCount, missingCount: corpus.length - populatedCount };
  });
  const genreDistribution = distributions.find((d) => d.dimension === 'genre')!;
  const examples = [...corpus]
    .sort(compareExamples)
    .slice(0, exampleLimit)
    .map((r) => exampleOf(r, genreDistribution));

  return {
    schemaVersion: 1,
    outcome: corpus.length === 0 ? 'insufficient-data' : 'ok',
    summary: summarize(corpus.length, distributions, examples.length, asOf),
    scope: {
      visibility: 'public',
      corpusId: TASTE_SUMMARY_CORPUS_ID,
      label: 'Recommended movies and TV',
      definition: 'The public, published movie and TV records the owner explicitly marked recommended.',
      inclusionRules: [
        'The record is published in the public movies collection (public visibility, not deleted).',
        'The record is explicitly marked recommended (`recommended: true`); rated or watched alone is not enough.',
        'Movies and TV series are both included; the `type` distribution tells them apart.',
      ],
      exclusionMeaning: 'A title missing from this corpus establishes nothing: it may be private, saved, seen but not marked recommended, or unpublished.',
      canonicalUrl: URLS.tasteSummary,
    },
    counts: { returnedCount: examples.length, collectionCount: corpus.length },
    coverage: { dataAsOf: asOf, dimensions: coverage },
    distributions,
    examples,
    selection: {
      task: 'summarize',
      method: 'deterministic-ranking',
      role: 'illustration',
      supportsPopulationClaims: false,
      explanation:
        'Examples are the corpus records ranked by rating (highest first), then most recently added, then canonical ID: an illustration of the summary, not a random or representative sample, so they support no claim about the corpus as a whole. Use the distributions for that.',
    },
    generatedAt: asOf,
    renderInput: { canonicalIds: examples.map((e) => e.canonicalId) },
  };
}

const str = { type: 'string' } as const;
const nonEmpty = { type: 'string', minLength: 1 } as const;
const count = { type: 'integer', minimum: 0 } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;
const strings0 = { type: 'array', items: str } as const;

/** JSON Schema (2020-12) of the taste summary response. */
export const TASTE_SUMMARY_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: URLS.tasteSummarySchema,
  title: 'Movie taste summary',
  type: 'object',
  additionalProperties: false,
  required: ['schemaVersion', 'outcome', 'summary', 'scope', 'counts', 'coverage', 'distributions', 'examples', 'selection', 'generatedAt', 'renderInput'],
  properties: {
    schemaVersion: { const: 1 },
    outcome: { enum: ['ok', 'insufficient-data'] },
    summary: nonEmpty,
    scope: {
      type: 'object',
      additionalProperties: false,
      required: ['visibility', 'corpusId', 'label', 'definition', 'inclusionRules', 'exclusionMeaning', 'canonicalUrl'],
      properties: {
        visibility: { const: 'public' },
        corpusId: { const: TASTE_SUMMARY_CORPUS_ID },
        label: nonEmpty,
        definition: nonEmpty,
        inclusionRules: { type: 'array', minItems: 1, items: nonEmpty },
        exclusionMeaning: nonEmpty,
        canonicalUrl: { const: URLS.tasteSummary },
      },
    },
    counts: {
      type: 'object',
      additionalProperties: false,
      required: ['returnedCount', 'collectionCount'],
      properties: { returnedCount: { ...count, maximum: LIMITS.tasteExampleLimitMax }, collectionCount: count },
    },
    coverage: {
      type: 'object',
      additionalProperties: false,
      required: ['dataAsOf', 'dimensions'],
      properties: {
        dataAsOf: dateTime,
        dimensions: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['dimension', 'eligibleCount', 'populatedCount', 'missingCount'],
            properties: { dimension: nonEmpty, eligibleCount: count, populatedCount: count, missingCount: count },
          },
        },
      },
    },
    distributions: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['dimension', 'label', 'multiValue', 'denominator', 'denominatorCount', 'values'],
        properties: {
          dimension: nonEmpty,
          label: nonEmpty,
          multiValue: { type: 'boolean' },
          denominator: { const: 'eligible' },
          denominatorCount: count,
          values: {
            type: 'array',
            maxItems: DISTRIBUTION_VALUES_MAX,
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['value', 'label', 'count', 'shareOfEligible'],
              properties: { value: str, label: str, count: { type: 'integer', minimum: 1 }, shareOfEligible: { type: 'number', minimum: 0, maximum: 1 } },
            },
          },
        },
      },
    },
    examples: {
      type: 'array',
      maxItems: LIMITS.tasteExampleLimitMax,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['canonicalId', 'collection', 'title', 'canonicalUrl', 'description', 'evidence', 'evidenceDetails', 'data'],
        properties: {
          canonicalId: nonEmpty,
          collection: { const: 'movies' },
          title: nonEmpty,
          canonicalUrl: { type: 'string', pattern: '^/movies/' },
          description: nonEmpty,
          evidence: { type: 'array', minItems: 1, items: nonEmpty },
          evidenceDetails: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['code', 'text', 'fields'],
              properties: { code: nonEmpty, text: nonEmpty, fields: { type: 'array', minItems: 1, items: nonEmpty } },
            },
          },
          data: {
            type: 'object',
            additionalProperties: false,
            required: ['canonicalId', 'title', 'type', 'year', 'genres'],
            properties: { canonicalId: nonEmpty, title: nonEmpty, type: { enum: ['movie', 'tv'] }, year: { type: 'integer' }, genres: strings0 },
          },
        },
      },
    },
    selection: {
      type: 'object',
      additionalProperties: false,
      required: ['task', 'method', 'role', 'supportsPopulationClaims', 'explanation'],
      properties: {
        task: { const: 'summarize' },
        method: { const: 'deterministic-ranking' },
        role: { const: 'illustration' },
        supportsPopulationClaims: { const: false },
        explanation: nonEmpty,
      },
    },
    generatedAt: dateTime,
    renderInput: {
      type: 'object',
      additionalProperties: false,
      required: ['canonicalIds'],
      properties: { canonicalIds: strings0 },
    },
  },
} as const;
