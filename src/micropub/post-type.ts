/**
 * What a Micropub post type is to this site (issue 40): the Post Type Discovery name a
 * client posts (`watch`, `read`, `checkin`, `listen`, `event`), the collection its records
 * live in, and two pure mappings — a post's properties to the collection's record fields
 * (validated afterwards by the collection's own schema, in the one write path), and a
 * record's fields back to properties (`q=source`, and the start of every update). A module
 * per post type (src/micropub/types/), as a module per service in src/import/sources/;
 * src/micropub/write.ts is the one place that writes. The helpers here are the mapping
 * rules every type shares: visibility, rating, the body text, categories as genres.
 */
import { booleanOf, numberOf, text, texts, type Mf2Object } from './mf2.ts';

/** A post mapped onto a record: its fields, and the properties no field of the collection holds (said in the answer, never silently kept). */
export type Mapped = { ok: true; fields: Record<string, unknown>; ignored: string[] } | { ok: false; description: string };

/** What a mapping knows besides the post: the time of the request, and on an update the record as it is now. */
export interface MapContext {
  /** An RFC 3339 instant: when the post arrived (a post without `published` happened now). */
  now: string;
  /** The record's fields before an update: fields no property carries (a film's `type`, when it was added) are kept from it. */
  base?: Record<string, unknown>;
  /** A new post of a record already kept (not an update of it): it may move the record on, never back. */
  repeat?: boolean;
}

export interface PostType {
  /** The post type, as `q=config`'s `post-types` lists it and clients name it. */
  type: string;
  /** Its name in `q=config` and the documentation. */
  name: string;
  /** The collection whose records it becomes. */
  collection: string;
  /** The property (or h-* type) that marks a post of this type, for refusals that name it. */
  marker: string;
  /** Whether a post is of this type (Post Type Discovery plus the property that marks it). */
  matches(entry: Mf2Object): boolean;
  /** The record's fields from the post, or why the post cannot be a record of the collection. */
  toFields(entry: Mf2Object, context: MapContext): Mapped;
  /** The post's properties from a record's fields: what `q=source` answers and an update edits. */
  toProperties(fields: Record<string, unknown>): Mf2Object;
  /**
   * The fields a second post of the same record changes (a rewatch's date and rating, a
   * book's status as reading goes on): a post whose record exists already updates these
   * rather than making a second record.
   */
  repeatFields: readonly string[];
  /** Record fields the mapping owns: an update whose properties no longer give one removes it (arrays: emptied). */
  mappedFields: readonly string[];
}

/** Properties every type reads, besides its own: the post's date, status, visibility and the client's own summary. */
export const COMMON_PROPERTIES = new Set(['published', 'post-status', 'visibility', 'summary']);

/**
 * `private` when the post asks not to be public: `post-status: draft` (Micropub §3.3.3
 * extension) or `visibility: private`/`unlisted` (no surface here can list a record
 * without listing it, so unlisted is kept off every surface too).
 */
export function visibilityOf(entry: Mf2Object): 'private' | undefined {
  const status = text(entry, 'post-status')?.toLowerCase();
  const visibility = text(entry, 'visibility')?.toLowerCase();
  return status === 'draft' || visibility === 'private' || visibility === 'unlisted' ? 'private' : undefined;
}

/** A rating 0–5 in halves (the collections' scale, and Sparkles'), or a refusal naming it. */
export function ratingOf(entry: Mf2Object): { rating?: number } | { problem: string } {
  const given = entry.properties.rating?.[0];
  if (given === undefined) return {};
  const rating = numberOf(given);
  if (rating === undefined || rating < 0 || rating > 5 || !Number.isInteger(rating * 2))
    return { problem: 'rating must be a number from 0 to 5 in steps of 0.5' };
  return { rating };
}

/** The post's text (`content`), as the collection's body field holds it: plain text. */
export const bodyOf = (entry: Mf2Object) => text(entry, 'content');

/** Categories that are words (person tags, which are h-cards or URLs, are not genres). */
export const wordCategories = (entry: Mf2Object) => texts(entry, 'category').filter((c) => !/^https?:\/\//i.test(c) && c.length <= 300);

/** A boolean property (`rewatch`), or undefined. */
export const flag = (entry: Mf2Object, name: string) => booleanOf(entry.properties[name]?.[0]);

/** The properties of `entry` none of `read` covers: what the answer lists as not kept. */
export const unread = (entry: Mf2Object, read: readonly string[]) =>
  Object.keys(entry.properties).filter((name) => !read.includes(name) && !COMMON_PROPERTIES.has(name) && !name.startsWith('mp-'));

/** Properties with their values, leaving out the empty ones: what `toProperties` builds. */
export function properties(values: Record<string, unknown[] | unknown | undefined>): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue;
    const list = Array.isArray(value) ? value.filter((v) => v !== undefined && v !== null) : [value];
    if (list.length > 0) out[name] = list;
  }
  return out;
}

/** Fields without the undefined ones (a YAML file never holds an empty key). */
export const defined = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
