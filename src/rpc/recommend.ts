/**
 * `discovery.recommend({intent, limit}, candidates)`: picks from a candidate selection the
 * client passes by capability — the server reads that selection's current page and ranks
 * nothing else, so a client decides exactly what may be recommended. The rules are the
 * ones `taste.recommend` follows on MCP (src/taste/recommend.ts): an intent with no signal
 * abstains before any candidate is read; a candidate is picked when a declared field of
 * its record matches the intent; the ranking is deterministic (score, then canonical
 * ID). A feed item or search hit is judged by the record it stands for. `explain(item)`
 * returns the evidence MCP gives for the same pick, under this contract's codes.
 */
import { RpcTarget } from 'capnweb';
import { collection as declarationOf } from '../collections/index.ts';
import { LIMITS } from '../core/limits.ts';
import { hasSignal, rank, signalOf, type MarkCode } from '../taste/recommend.ts';
import type { RpcContext } from './context.ts';
import { invalidArgument, RpcError } from './errors.ts';
import { localTarget } from './local-target.ts';
import { Selection } from './selection.ts';
import type { Item } from './values.ts';

export interface Evidence {
  code: 'field-mentions-intent' | 'owner-recommended' | 'owner-rating';
  text: string;
  fields: string[];
}

/** This contract's code for each of the owner's marks; every match of the intent is `field-mentions-intent`. */
const MARK_CODES: Readonly<Record<MarkCode, Evidence['code']>> = {
  recommended: 'owner-recommended',
  rated: 'owner-rating',
  'stance-love': 'owner-rating',
  'stance-like': 'owner-rating',
};
const codeOf = (code: string): Evidence['code'] => MARK_CODES[code as MarkCode] ?? 'field-mentions-intent';

interface Pick {
  record: Record<string, unknown>;
  item: Item;
  evidence: Evidence[];
}

export class Recommendations extends RpcTarget {
  readonly #context: RpcContext;
  readonly #picks: readonly Pick[];
  constructor(context: RpcContext, picks: readonly Pick[]) {
    super();
    this.#context = context;
    this.#picks = picks;
  }

  /** The picked records, best first (empty when the recommendation abstained). */
  records(): Record<string, unknown>[] {
    this.#context.session.call('recommendations.records');
    return this.#picks.map((p) => p.record);
  }

  items(): Item[] {
    this.#context.session.call('recommendations.items');
    return this.#picks.map((p) => p.item);
  }

  /** Why an item was picked: the record fields that ground it. */
  explain(item: unknown): { canonicalId: string; evidenceDetails: Evidence[] } {
    this.#context.session.call('recommendations.explain');
    const canonicalId = typeof item === 'object' && item !== null ? (item as { canonicalId?: unknown }).canonicalId : undefined;
    if (typeof canonicalId !== 'string') throw invalidArgument('explain(item)', 'item is {canonicalId: string}: one of records() or items().');
    const pick = this.#picks.find((p) => p.item.canonicalId === canonicalId);
    if (!pick) throw new RpcError('NOT_FOUND', 'explain(item): that item is not among these recommendations.');
    return { canonicalId, evidenceDetails: pick.evidence };
  }
}

/** The record a candidate is judged by: its own, or for a feed item or search hit, the record of its collection it stands for. */
function judged(context: RpcContext, own: string | undefined, record: Record<string, unknown>, item: Item): Record<string, unknown> {
  if (own === item.collection) return record;
  const declaration = declarationOf(item.collection);
  const json = declaration && context.core.get(declaration, item.canonicalId);
  return json ? (JSON.parse(json) as Record<string, unknown>) : record;
}

export function recommend(context: RpcContext, options: unknown, candidates: unknown): Recommendations {
  if (typeof options !== 'object' || options === null || typeof (options as { intent?: unknown }).intent !== 'string') {
    throw invalidArgument('recommend.intent', 'options is {intent: string, limit?: number}.');
  }
  const { intent, limit = LIMITS.recommendationsDefault } = options as { intent: string; limit?: unknown };
  if ([...intent].length > LIMITS.recommendIntentCharsMax)
    throw invalidArgument('recommend.intent', `intent is at most ${LIMITS.recommendIntentCharsMax} characters.`);
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > LIMITS.recommendationsMax) {
    throw invalidArgument('recommend.limit', `limit is an integer from 1 to ${LIMITS.recommendationsMax}.`);
  }
  const signal = signalOf(intent);
  // A signal-free intent abstains before reading any candidate.
  if (!hasSignal(signal)) return new Recommendations(context, []);
  // Only a selection of this session counts: resolved to the object itself, never called through the stub.
  const selection = localTarget(candidates);
  if (!(selection instanceof Selection) || !Selection.isOf(selection, context)) {
    throw invalidArgument('recommend(candidates)', 'candidates is a Selection of this session (content.<collection>…, feed.select(…) or discovery.search(…)).');
  }
  const records = Selection.nativeRecords(selection);
  const items = selection.items();
  const own = Selection.collectionOf(selection);
  const ranked = rank(
    records.map((record, i) => ({ collection: items[i]!.collection, record: judged(context, own, record, items[i]!), picked: record, item: items[i]! })),
    signal,
  );
  const picks = ranked
    .slice(0, limit)
    .map(({ candidate, evidence }) => ({ record: candidate.picked, item: candidate.item, evidence: evidence.map((e) => ({ ...e, code: codeOf(e.code) })) }));
  return new Recommendations(context, picks);
}
