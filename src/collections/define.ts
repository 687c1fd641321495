/**
 * The shape of a collection declaration, and the small vocabulary its files use.
 * A declaration says everything about one collection — its record schema, how a
 * record's identity is formed, which fields are derived, which query parameters
 * filter it, which fields `q` searches and which fields it sorts by. The compiler,
 * the query core and every surface derive their behaviour from these values, so a
 * new collection is one new file in this folder plus a line in `index.ts`.
 */
import { z } from 'zod';

/** A plain record as validated by a collection schema (before the canonicalId is added). */
export type SourceRecord = Record<string, unknown>;

/** How a filter parameter's value is checked and compared. */
export type FilterKind =
  /**
   * Free text compared ignoring case and accents; `examples` are values records are known
   * to hold, published as examples and never as a closed list (SPEC §4.1: "other filters
   * are strings"), so a value nothing has is an empty page rather than a refusal.
   */
  | { type: 'string'; examples?: readonly string[] }
  | { type: 'integer'; min: number; max: number }
  /** A closed set the SPEC fixes (movies' `type`, places' `category`): anything else is refused. */
  | { type: 'enum'; values: readonly string[] }
  /** A lower bound on a date sort field: an RFC 3339 date or date-time; matches items at or after it. */
  | { type: 'since' };

export interface FilterSpec {
  /** The published field (or derived field) whose value(s) the filter compares; arrays match any element. */
  field: string;
  kind: FilterKind;
  description: string;
  /** The parameter may be given several times; an item matches when it matches any of the values. */
  repeatable?: boolean;
}

/** A record a list composes from other collections at compile time (see `compose`). */
export interface ComposedRecord {
  canonicalId: string;
  /** Where it came from, for error messages: `content/blog/x.md`. */
  origin: string;
  /** The published fields, canonicalId first. */
  fields: SourceRecord;
}

/** What `compose` may read: the published records of the content collections, and the site's absolute URL. */
export interface ComposeSources {
  records(collection: string): readonly ComposedRecord[];
  siteUrl: string;
}

/** What `derive` knows besides the record: the site's absolute URL (no trailing slash). */
export interface DeriveContext {
  siteUrl: string;
}

/** A fault a rule finds in one record: the field to change and why, in words the owner can act on. */
export interface FieldProblem {
  field: string;
  reason: string;
}

/** What a rule knows besides the record. */
export interface RuleContext {
  /**
   * The build's present, in milliseconds since the epoch: `SOURCE_DATE_EPOCH` when set,
   * else the clock (src/compile/content/now.ts). Never read the clock in a rule: the same content
   * and the same `now` must give the same records.
   */
  now: number;
  /** Whether the owner wrote the field (rather than the schema filling in its default). */
  given(field: string): boolean;
}

/** What a rule says of a record: its problems, and fields it settles (written over the record). */
export interface RuleOutcome {
  problems?: FieldProblem[];
  settled?: SourceRecord;
}

/**
 * A rule over a whole record — fields checked against each other or against the build's
 * present, or settled from them — run once the schema has accepted the record, in the
 * order the declaration lists them, each seeing what the ones before it settled. The
 * shared rules live in `rules.ts`.
 */
export interface RecordRule {
  /** The schema fields it reads or settles (checked when the collection is defined). */
  fields: readonly string[];
  /** What it requires or settles, one sentence for the README (Markdown). */
  description: string;
  /** Fields the schema leaves optional that every published record has (the rule refuses a public record without them). */
  requiredWhenPublished?: readonly string[];
  apply(record: SourceRecord, context: RuleContext): RuleOutcome;
}

/** What a recommendation from a collection matches, and the intent words that choose the collection. */
export interface RecommendDeclaration {
  /**
   * Field → label: the fields an intent word may match (src/taste/recommend.ts), in the
   * order their evidence is given; the label names the field in the evidence ("Its genre
   * Drama matches the request.") and in its code (`genre-match`).
   */
  fields: Readonly<Record<string, string>>;
  /** The numeric year field a decade of the intent ("the 90s") matches. */
  decadeField?: string;
  /** Words that choose this collection and say nothing about which record ("film", "read"): set aside from the intent's terms. */
  namedBy: readonly string[];
  /** Words that choose this collection and may still match a record ("cafe", "novel"): kept as terms. */
  hintedBy?: readonly string[];
}

export type SortDirection = 'asc' | 'desc';
export interface SortKey {
  field: string;
  direction: SortDirection;
}

/** How a sort field's values order: text folds case and accents, date-times order by instant. */
export type SortType = 'text' | 'number' | 'date';

export interface CollectionDeclaration {
  /** URL segment and folder name: `content/<name>/`, `/api/<name>.json`. */
  name: string;
  /** Human title for pages and documents. */
  title: string;
  description: string;
  /** Whether `/api/<name>.json` serves it (writing is reached through SQL and the cross-collection lists). */
  rest: boolean;
  schema: z.ZodObject;
  /** Fields whose values identify a record when the file gives no explicit `id`. */
  identity: readonly string[];
  /** The field that receives the Markdown body of a `.md` file. */
  bodyField: string;
  /**
   * Cross-field rules (end not before start, a status the date contradicts, local times
   * read in the record's zone), run after the schema and before `derive`.
   */
  rules?: readonly RecordRule[];
  /** Fields computed from the validated record and published with it (e.g. `year`, `mapsUrl`). */
  derive?: (record: SourceRecord, context: DeriveContext) => SourceRecord;
  /** The names `derive` returns, in order (CSV columns and documents list them). */
  derived?: readonly string[];
  /** Query parameter → filter. `q` is not listed here: it searches `search`. */
  filters: Readonly<Record<string, FilterSpec>>;
  /** Fields `q` searches, case- and accent-insensitively, as substrings. */
  search: readonly string[];
  /**
   * What `taste.recommend` and `discovery.recommend` match in its records. A collection
   * that declares it is one `taste.recommend` offers; recommendations from any other
   * (RPC candidates) match its `search` fields.
   */
  recommend?: RecommendDeclaration;
  /** Field → how it orders. */
  sort: Readonly<Record<string, SortType>>;
  defaultSort: readonly SortKey[];
  /** The field giving a record's source date, used for the collection's as-of time. */
  dateField: string;
  /**
   * Records composed from other collections' published records, added to whatever
   * `content/<name>/` holds: the cross-collection lists (writing, feed-items) are
   * collections like the others to every surface, only their records come from here.
   */
  compose?: (sources: ComposeSources) => ComposedRecord[];
}

/** Filters that count values (`meta.facets`); range filters such as `since` do not. */
export const facetable = (c: CollectionDeclaration): string[] =>
  Object.entries(c.filters)
    .filter(([, spec]) => spec.kind.type !== 'since')
    .map(([param]) => param);

/** Bookkeeping fields that never leave the compiler: records, documents and CSV all omit them. */
export const UNPUBLISHED: ReadonlySet<string> = new Set(['visibility', 'draft']);

/** Names the service's own documents use under `/api/`; no collection may take them. */
const RESERVED_NAMES = new Set(['meta', 'status']);

export function define(declaration: CollectionDeclaration): CollectionDeclaration {
  if (RESERVED_NAMES.has(declaration.name)) throw new Error(`${declaration.name}: the name is reserved for /api/${declaration.name}.json`);
  for (const [param, spec] of Object.entries(declaration.filters)) {
    if (spec.kind.type === 'since' && declaration.sort[spec.field] !== 'date')
      throw new Error(`${declaration.name}: ${param} bounds ${spec.field}, which is not a date sort field`);
  }
  for (const rule of declaration.rules ?? []) {
    for (const field of rule.fields)
      if (!(field in declaration.schema.shape)) throw new Error(`${declaration.name}: a rule names ${field}, which is not in the schema`);
  }
  const recommend = declaration.recommend;
  const matched = recommend ? [...Object.keys(recommend.fields), ...(recommend.decadeField ? [recommend.decadeField] : [])] : [];
  for (const field of matched) {
    if (!(field in declaration.schema.shape) && !declaration.derived?.includes(field))
      throw new Error(`${declaration.name}: recommend names ${field}, which is neither in the schema nor derived`);
  }
  for (const key of declaration.defaultSort) {
    if (!(key.field in declaration.sort)) throw new Error(`${declaration.name}: default sort field ${key.field} is not sortable`);
  }
  return declaration;
}

// ── filter constructors ─────────────────────────────────────────────────────

export const text = (field: string, description: string): FilterSpec => ({ field, kind: { type: 'string' }, description });
export const integer = (field: string, min: number, max: number, description: string): FilterSpec => ({
  field,
  kind: { type: 'integer', min, max },
  description,
});
export const oneOf = (field: string, values: readonly string[], description: string): FilterSpec => ({
  field,
  kind: { type: 'enum', values },
  description,
});
/** A string filter whose values records are known to hold, listed as examples (not a closed set). */
export const knownText = (field: string, examples: readonly string[], description: string): FilterSpec => ({
  field,
  kind: { type: 'string', examples },
  description,
});
export const since = (field: string, description: string): FilterSpec => ({ field, kind: { type: 'since' }, description });
export const yearFilter = (field = 'year'): FilterSpec => integer(field, 1000, 9999, 'Four-digit year');
