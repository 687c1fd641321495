/**
 * The recommendation rules, one set for every surface: MCP's `taste.recommend` ranks the
 * records of the collections an intent chooses, RPC's `discovery.recommend` the page of
 * candidates a client passes; both read the intent with `signalOf` and rank with `rank`,
 * so the same intent over the same candidates gives the same picks, in the same order, on
 * the same evidence.
 *
 * - The signal: the intent's words, folded, once each. Words that only ask ("recommend",
 *   "something", "tonight"…) and words that only name a collection ("film", "read": each
 *   collection declares its own, `recommend.namedBy`) are set aside, as are single
 *   letters; decades ("90s", "1990s") are read apart. Neither a term nor a decade: no
 *   signal, and a surface abstains before reading any record.
 * - A candidate is kept when a term equals a word of one of the fields its collection
 *   declares (`recommend.fields` in src/collections/*.ts; a collection without them offers
 *   its `search` fields), or its `recommend.decadeField` falls in a decade the intent
 *   names. A record the owner dislikes (stance `dislike`) is never kept.
 * - Score: 10 for each matching value and for a matching decade, then the owner's own
 *   marks: 5 when recommended, the rating (0–5), 5 for a loved stance, 2 for a liked one.
 *   Ties go by canonical ID, so the order never depends on the order candidates came in.
 * - Evidence, in order: one entry per matching field (`<label>-match`), `decade-match`,
 *   then the marks (`recommended`, `rated`, `stance-love`, `stance-like`); each names the
 *   record fields it reads.
 *
 * Deterministic: no clock, no randomness, nothing learned, nothing outside the candidates.
 */
import { collections } from '../collections/index.ts';
import { fold } from '../core/fold.ts';

/** One reason a candidate was picked: a code, a sentence, and the record fields it reads. */
export interface Evidence {
  code: string;
  text: string;
  fields: string[];
}

/** The codes of the owner's marks; every other code is a match of the intent (`<label>-match`, `decade-match`). */
export type MarkCode = 'recommended' | 'rated' | 'stance-love' | 'stance-like';

export interface Signal {
  /** The intent's words that may match a field, folded, once each, in order. */
  terms: string[];
  /** The first years of the decades it names. */
  decades: number[];
  /** The collections its words choose, in order of mention. */
  collections: string[];
}

/** A record to judge, and the collection whose declared fields it has. */
export interface Candidate {
  collection: string;
  record: Record<string, unknown>;
}

export interface Ranked<C extends Candidate> {
  candidate: C;
  score: number;
  evidence: Evidence[];
}

/** The collections that declare what a recommendation from them matches, in the registry's order. */
export const RECOMMENDABLE: readonly string[] = collections.filter((c) => c.recommend).map((c) => c.name);

/** Words that ask for a recommendation without saying anything about what. */
const ASKING = new Set(
  (
    'a an and any anything at be best can could do does for from give good great i im in is it just like me maybe mood my nice of on or please pick recommend recommendation ' +
    'recommendations should show so some something suggest suggestion surprise tell that the thing things to tonight today want what whatever which with would you your ' +
    'watching see listening go going new fun cool random else other more'
  ).split(' '),
);

/** Each word that chooses a collection, and whether it is set aside from the terms. */
const CHOOSING = new Map<string, { collection: string; setAside: boolean }>();
for (const c of collections) {
  for (const word of c.recommend?.namedBy ?? []) CHOOSING.set(word, { collection: c.name, setAside: true });
  for (const word of c.recommend?.hintedBy ?? []) CHOOSING.set(word, { collection: c.name, setAside: false });
}

/** Per collection: the fields an intent word may match, and the field a decade matches. */
const MATCHED = new Map<string, { fields: [field: string, label: string][]; decadeField?: string }>(
  collections.map((c) => [
    c.name,
    { fields: c.recommend ? Object.entries(c.recommend.fields) : c.search.map((field) => [field, field]), decadeField: c.recommend?.decadeField },
  ]),
);

const words = (text: string): string[] =>
  fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
const DECADE = /^(?:19|20)?(\d)0s$/;

/** The intent's signal: its terms, the decades it names ("90s", "1990s") and the collections it chooses. */
export function signalOf(intent: string): Signal {
  const all = words(intent);
  const decades: number[] = [];
  const terms: string[] = [];
  for (const word of all) {
    const decade = DECADE.exec(word);
    if (decade)
      decades.push(word.length === 5 ? Number(word.slice(0, 4)) : Number(decade[1]) >= 3 ? 1900 + Number(decade[1]) * 10 : 2000 + Number(decade[1]) * 10);
    else if (!ASKING.has(word) && !CHOOSING.get(word)?.setAside && word.length > 1) terms.push(word);
  }
  const chosen = all.map((w) => CHOOSING.get(w)?.collection).filter((c): c is string => c !== undefined);
  return { terms: [...new Set(terms)], decades, collections: [...new Set(chosen)] };
}

/** Whether the intent says anything a record could match. */
export const hasSignal = (signal: Signal): boolean => signal.terms.length > 0 || signal.decades.length > 0;

const valuesOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : typeof value === 'string' ? [value] : [];

/** The candidate's score and evidence, or undefined when nothing of it matches the signal (or the owner dislikes it). */
function judge(collection: string, record: Record<string, unknown>, signal: Signal): { score: number; evidence: Evidence[] } | undefined {
  const matched = MATCHED.get(collection);
  if (!matched || record.stance === 'dislike') return undefined;
  const evidence: Evidence[] = [];
  let matches = 0;
  for (const [field, label] of matched.fields) {
    const hit = valuesOf(record[field]).filter((v) => words(v).some((w) => signal.terms.includes(w)));
    if (hit.length === 0) continue;
    matches += hit.length;
    evidence.push({ code: `${label}-match`, text: `Its ${label} ${hit.slice(0, 3).join(', ')} matches the request.`, fields: [field] });
  }
  const year = matched.decadeField === undefined ? undefined : record[matched.decadeField];
  const decade = typeof year === 'number' ? signal.decades.find((d) => year >= d && year < d + 10) : undefined;
  if (decade !== undefined) {
    matches += 1;
    evidence.push({ code: 'decade-match', text: `From ${year}, in the ${decade}s the request names.`, fields: [matched.decadeField!] });
  }
  if (matches === 0) return undefined;
  let score = matches * 10;
  const mark = (code: MarkCode, points: number, text: string, field: string) => {
    score += points;
    evidence.push({ code, text, fields: [field] });
  };
  if (record.recommended === true) mark('recommended', 5, 'The owner explicitly marked it recommended.', 'recommended');
  if (typeof record.rating === 'number') mark('rated', record.rating, `Rated ${record.rating} out of 5 by the owner.`, 'rating');
  if (record.stance === 'love' || record.stance === 'like')
    mark(`stance-${record.stance}`, record.stance === 'love' ? 5 : 2, `The owner's stance on it is ${record.stance}.`, 'stance');
  return { score, evidence };
}

/** Every candidate the signal matches, best first: by score, then canonical ID. */
export function rank<C extends Candidate>(candidates: Iterable<C>, signal: Signal): Ranked<C>[] {
  const ranked: Ranked<C>[] = [];
  for (const candidate of candidates) {
    const judged = judge(candidate.collection, candidate.record, signal);
    if (judged) ranked.push({ candidate, ...judged });
  }
  const id = (r: Ranked<C>) => String(r.candidate.record.canonicalId);
  return ranked.sort((a, b) => b.score - a.score || (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0));
}
