/**
 * `taste.recommend`: recommendations from the owner's collections for a stated intent,
 * by the rules every surface shares (src/taste/recommend.ts). A request with no signal
 * abstains before any record is read, saying what signal would help. Otherwise the
 * candidates are every record of the collection asked for, or of those the intent's
 * words choose (watch → movies), or of every collection that declares what a
 * recommendation matches; each pick's evidence is an `evidenceDetails` entry naming the
 * fields it reads.
 */
import { LIMITS } from '../core/limits.ts';
import type { McpContext } from './context.ts';
import { hasSignal, rank, RECOMMENDABLE, signalOf } from '../taste/recommend.ts';
import { recordUrl } from '../urls.ts';
import { headline } from '../collections/headline.ts';
import { canonicalIdSchema, envelope, evidenceDetailSchema, listResultSchema, type EvidenceDetail } from './schemas.ts';
import type { ToolDefinition, ToolResult } from './tool.ts';

const COLLECTIONS = [...RECOMMENDABLE];

interface Recommendation {
  canonicalId: string;
  collection: string;
  title: string;
  canonicalUrl: string;
  score: number;
  evidence: string[];
  evidenceDetails: EvidenceDetail[];
}

const NEEDS =
  'Say what you are in the mood for with something a record can match: a genre (drama, jazz, coffee), a director, author or artist, a city or neighbourhood, a decade (the 90s), or a title you liked.';

export const recommend: ToolDefinition = {
  name: 'taste.recommend',
  title: 'Recommend from the owner’s collections',
  description: `Recommendations from the owner's collections (${COLLECTIONS.join(', ')}) for a stated intent, each grounded in named record fields (evidenceDetails) and the owner's own marks (recommended, rating, stance). A broad or signal-free request ("anything", "recommend something") abstains before any retrieval and says what signal would help: ask the person for one. At most ${LIMITS.recommendationsMax} per call.`,
  inputSchema: {
    type: 'object',
    properties: {
      intent: {
        type: 'string',
        minLength: 1,
        maxLength: LIMITS.recommendIntentCharsMax,
        description: 'What the person wants, in their words: "a slow 90s crime film", "coffee in Lisbon".',
      },
      collection: {
        type: 'string',
        enum: COLLECTIONS,
        description: 'Restrict to one collection; otherwise the intent’s words choose (watch → movies, read → books…), or all.',
      },
      limit: { type: 'integer', minimum: 1, maximum: LIMITS.recommendationsMax, default: LIMITS.recommendationsDefault },
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
      signal: {
        type: 'object',
        additionalProperties: false,
        required: ['terms', 'decades'],
        properties: { terms: { type: 'array', items: { type: 'string' } }, decades: { type: 'array', items: { type: 'integer' } } },
      },
      collections: { type: 'array', items: { enum: COLLECTIONS } },
      recommendations: {
        type: 'array',
        maxItems: LIMITS.recommendationsMax,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['canonicalId', 'collection', 'title', 'canonicalUrl', 'score', 'evidence', 'evidenceDetails'],
          properties: {
            canonicalId: canonicalIdSchema,
            collection: { enum: COLLECTIONS },
            title: { type: 'string' },
            canonicalUrl: { type: 'string' },
            score: { type: 'number' },
            evidence: { type: 'array', items: { type: 'string' } },
            evidenceDetails: { type: 'array', minItems: 1, items: evidenceDetailSchema },
          },
        },
      },
      evidenceDetails: { type: 'array', items: evidenceDetailSchema, description: 'The evidence of every recommendation, in order.' },
    },
    ['intent', 'abstained', 'signal', 'collections', 'recommendations', 'evidenceDetails'],
    'Grounded recommendations, or an abstention saying what would help.',
  ),
  cost: 3,
  run: (args, context) =>
    recommendFor(context, String(args.intent), args.collection as string | undefined, Number(args.limit ?? LIMITS.recommendationsDefault)),
};

function recommendFor(context: McpContext, intent: string, only: string | undefined, limit: number): ToolResult {
  const signal = signalOf(intent);
  const collections = only ? [only] : signal.collections.length ? signal.collections : COLLECTIONS;
  const asOf = collections
    .map((c) => context.image.asOf(c))
    .sort()
    .at(-1)!;
  const selection = (method: string, explanation: string) => ({ task: 'recommend', method, role: 'suggestion', supportsPopulationClaims: false, explanation });
  const base = { intent, signal: { terms: signal.terms, decades: signal.decades }, collections };
  if (!hasSignal(signal)) {
    // Abstain before any retrieval: no record is read for a request that says nothing about what.
    return {
      structured: {
        ...base,
        abstained: true,
        abstainReason: 'no-signal',
        needs: NEEDS,
        recommendations: [],
        ...envelope(
          0,
          0,
          asOf,
          selection('abstention', 'The request names nothing a record can match, so no record was read.'),
          [],
          'No signal in the request.',
        ),
      },
      text: `No recommendation: the request names nothing to go on. ${NEEDS}`,
    };
  }
  const found = rank(
    collections.flatMap((collection) => context.tasteSources.records(collection).map((record) => ({ collection, record }))),
    signal,
  );
  const picks = found.slice(0, limit).map(({ candidate: { collection, record }, score, evidence }): Recommendation => {
    const canonicalId = String(record.canonicalId);
    return {
      canonicalId,
      collection,
      title: headline(collection, record),
      canonicalUrl: recordUrl(collection, canonicalId),
      score,
      evidence: evidence.map((e) => e.text),
      evidenceDetails: evidence,
    };
  });
  const method = selection(
    'field-match-ranking',
    'Records whose named fields match a word of the intent, ranked by the number of matches, then the owner’s marks (recommended, rating, stance), then canonical ID. Suggestions, not a sample: they support no claim about the collections as a whole.',
  );
  if (picks.length === 0) {
    return {
      structured: {
        ...base,
        abstained: true,
        abstainReason: 'no-match',
        needs: NEEDS,
        recommendations: [],
        ...envelope(0, 0, asOf, method, [], 'No record matches the request.'),
      },
      text: `Nothing in ${collections.join(', ')} matches "${signal.terms.join(' ')}". ${NEEDS}`,
    };
  }
  return {
    structured: {
      ...base,
      abstained: false,
      recommendations: picks,
      ...envelope(
        picks.length,
        found.length,
        asOf,
        method,
        picks.flatMap((p) => p.evidenceDetails),
        picks.map((p) => `${p.title}: ${p.evidence.join(' ')}`).join(' | '),
      ),
    },
    text: picks.map((p) => `- ${p.title} (${p.collection}, ${p.canonicalId}): ${p.evidence.join(' ')}`).join('\n'),
  };
}
