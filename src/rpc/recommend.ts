/**
 * `discovery.recommend({intent, limit}, candidates)`: picks from a candidate selection the
 * client passes by capability — the server reads that selection's current page and ranks
 * nothing else, so a client decides exactly what may be recommended. The intent's
 * signal is its content words (folded, at least three letters, stop words dropped);
 * an intent with none abstains before any candidate is read. A candidate is picked only
 * when a named field of its record mentions a content word; each pick carries the
 * evidence that grounds it — the fields and the words they hold, the owner's
 * `recommended` mark and rating where present — and `explain(item)` returns it. The
 * ranking is deterministic: more intent words matched first, then owner marks, then the
 * candidates' own order. No vectors, nothing learned, nothing outside the page.
 */
import { RpcTarget } from 'capnweb';
import { fold } from '../core/fold.ts';
import type { RpcContext } from './context.ts';
import { invalidArgument, RpcError } from './errors.ts';
import { localTarget } from './local-target.ts';
import { Selection } from './selection.ts';
import type { Item } from './values.ts';

export const RECOMMEND_LIMIT_MAX = 10;
const INTENT_CHARS_MAX = 200;
const STOP_WORDS = new Set(
  'the and for with that this from what something some any want like would could should about into more most very really just please show find give recommend recommendation recommendations suggest me you your our are was were have has had not but can will all good great best new old one two'.split(' '),
);

export interface Evidence {
  code: 'field-mentions-intent' | 'owner-recommended' | 'owner-rating';
  text: string;
  fields: string[];
}

interface Pick {
  record: Record<string, unknown>;
  item: Item;
  score: number;
  evidence: Evidence[];
}

/** The intent's content words, folded, each once, in order. */
export function intentWords(intent: string): string[] {
  const words = fold(intent).split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3 && !STOP_WORDS.has(w));
  return [...new Set(words)];
}

/** Text a record field holds: a string, or strings in an array. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(' ');
  return undefined;
}

function ground(record: Record<string, unknown>, words: readonly string[]): { matched: number; evidence: Evidence[] } {
  const evidence: Evidence[] = [];
  const matchedWords = new Set<string>();
  for (const [field, value] of Object.entries(record)) {
    if (field === 'canonicalId') continue;
    const text = textOf(value);
    if (text === undefined) continue;
    const folded = fold(text);
    const hits = words.filter((w) => folded.includes(w));
    if (hits.length === 0) continue;
    for (const w of hits) matchedWords.add(w);
    evidence.push({ code: 'field-mentions-intent', text: `${field} mentions ${hits.map((w) => `“${w}”`).join(', ')}.`, fields: [field] });
  }
  if (matchedWords.size > 0 && record.recommended === true) evidence.push({ code: 'owner-recommended', text: 'The owner marks it recommended.', fields: ['recommended'] });
  if (matchedWords.size > 0 && typeof record.rating === 'number') evidence.push({ code: 'owner-rating', text: `The owner rates it ${record.rating}.`, fields: ['rating'] });
  return { matched: matchedWords.size, evidence };
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

export function recommend(context: RpcContext, options: unknown, candidates: unknown): Recommendations {
  if (typeof options !== 'object' || options === null || typeof (options as { intent?: unknown }).intent !== 'string') {
    throw invalidArgument('recommend.intent', 'options is {intent: string, limit?: number}.');
  }
  const { intent, limit = 5 } = options as { intent: string; limit?: unknown };
  if ([...intent].length > INTENT_CHARS_MAX) throw invalidArgument('recommend.intent', `intent is at most ${INTENT_CHARS_MAX} characters.`);
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > RECOMMEND_LIMIT_MAX) {
    throw invalidArgument('recommend.limit', `limit is an integer from 1 to ${RECOMMEND_LIMIT_MAX}.`);
  }
  const words = intentWords(intent);
  // A signal-free intent abstains before reading any candidate.
  if (words.length === 0) return new Recommendations(context, []);
  // Only a selection of this session counts: resolved to the object itself, never called through the stub.
  const selection = localTarget(candidates);
  if (!(selection instanceof Selection) || !Selection.isOf(selection, context)) {
    throw invalidArgument('recommend(candidates)', 'candidates is a Selection of this session (content.<collection>…, feed.select(…) or discovery.search(…)).');
  }
  const records = selection.records();
  const items = selection.items();
  const picks: Pick[] = [];
  records.forEach((record, i) => {
    const { matched, evidence } = ground(record, words);
    if (matched === 0) return;
    const marks = (record.recommended === true ? 1 : 0) + (typeof record.rating === 'number' ? record.rating / 10 : 0);
    picks.push({ record, item: items[i]!, score: matched * 10 + marks, evidence });
  });
  const ranked = picks.map((p, i) => ({ p, i })).sort((a, b) => b.p.score - a.p.score || a.i - b.i).map(({ p }) => p);
  return new Recommendations(context, ranked.slice(0, limit));
}
