/**
 * A record's fields for people: dates as the record's own wall clock (the compiler wrote
 * local times with the offset of the record's zone, so the text is read, never shifted
 * into the server's zone), durations, distances, ratings, lists, links, coordinates with
 * their provenance, and each filterable value linked to the collection page filtered by
 * it (same director, artist, city, team…). Shared by the record page and its Markdown twin.
 */
import type { CollectionDeclaration } from '../collections/define.ts';
import { collectionPageUrl } from '../urls.ts';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})?)?$/;

/** `runtimeMinutes` → `Runtime minutes`. */
export const humanize = (key: string) => {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_]/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** `2024-03-09` → `9 March 2024`; a date-time keeps its own wall clock: `9 March 2024, 20:30 (Europe/Lisbon)`. */
export function formatDate(value: string, zone?: string): string {
  const m = DATE.exec(value);
  if (!m) return value;
  const day = `${Number(m[3])} ${MONTHS[Number(m[2]) - 1]} ${m[1]}`;
  if (m[4] === undefined) return day;
  const where = zone ?? (m[6] === undefined ? '' : m[6].toUpperCase() === 'Z' ? 'UTC' : `UTC${m[6]}`);
  return `${day}, ${m[4]}:${m[5]}${where ? ` (${where})` : ''}`;
}

export const formatMinutes = (minutes: number) =>
  minutes >= 60 ? `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min` : `${minutes} min`;

export function formatSeconds(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}` : `${m}:${String(s % 60).padStart(2, '0')}`;
}

export const formatMeters = (meters: number) => (meters >= 1000 ? `${(meters / 1000).toFixed(2)} km` : `${Math.round(meters)} m`);

export const formatRating = (rating: number) => `${'★'.repeat(Math.floor(rating))}${rating % 1 ? '½' : ''} ${rating}/5`;

export interface ValueView {
  text: string;
  href?: string;
}

export interface FieldView {
  key: string;
  label: string;
  values: ValueView[];
}

/** A field's label: the unit a value's formatting already shows is left out (`runtimeMinutes` → Runtime). */
const LABELS: Readonly<Record<string, string>> = { mapsUrl: 'Map', imdbId: 'IMDb', tmdbId: 'TMDB', isbn: 'ISBN', url: 'Link' };
const labelOf = (key: string) => LABELS[key] ?? humanize(key.replace(/(.)(Minutes|Seconds|Meters)$/, '$1'));

/** Fields a page shows elsewhere (the title, the body) or never (bookkeeping links the page itself is). */
const SHOWN_ELSEWHERE = new Set(['canonicalId', 'title', 'name']);

const isUrl = (v: unknown): v is string => typeof v === 'string' && /^https?:\/\//.test(v);

/** Filter parameter by field: a record's value of the field links to the collection filtered by it. */
function filtersByField(c: CollectionDeclaration): Map<string, string> {
  const map = new Map<string, string>();
  for (const [param, spec] of Object.entries(c.filters)) if (spec.kind.type !== 'since' && !map.has(spec.field)) map.set(spec.field, param);
  return map;
}

function scalar(key: string, value: unknown, zone: string | undefined): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') {
    if (/Minutes$/.test(key)) return formatMinutes(value);
    if (/Seconds$/.test(key)) return formatSeconds(value);
    if (/Meters$/.test(key)) return formatMeters(value);
    if (key === 'rating') return formatRating(value);
    return String(value);
  }
  if (typeof value === 'string') return DATE.test(value) ? formatDate(value, zone) : value;
  return JSON.stringify(value);
}

/** Every published field of a record but its title and body, formatted, in the record's order. */
export function recordFields(c: CollectionDeclaration, r: Record<string, unknown>): FieldView[] {
  const zone = typeof r.timezone === 'string' ? r.timezone : undefined;
  const filters = filtersByField(c);
  const fields: FieldView[] = [];
  for (const [key, value] of Object.entries(r)) {
    if (SHOWN_ELSEWHERE.has(key) || key === c.bodyField || value === null || value === undefined || value === '') continue;
    if (Array.isArray(value) && value.length === 0) continue;
    const param = filters.get(key);
    const link = (text: string, raw: unknown): ValueView =>
      param && (typeof raw === 'string' || typeof raw === 'number')
        ? { text, href: `${collectionPageUrl(c.name)}?${new URLSearchParams({ [param]: String(raw) })}` }
        : { text };
    let values: ValueView[];
    if (key === 'coordinates' && typeof value === 'object') {
      const { latitude, longitude, altitude } = value as { latitude: number; longitude: number; altitude?: number };
      const source = typeof r.coordinatesSource === 'string' ? ` (source: ${r.coordinatesSource})` : '';
      values = [{ text: `${latitude}, ${longitude}${altitude === undefined ? '' : `, ${altitude} m`}${source}` }];
    } else if (key === 'mapsUrl' && isUrl(value)) {
      values = [{ text: 'Open in OpenStreetMap', href: value }];
    } else if (Array.isArray(value)) {
      values = value.map((v) => (isUrl(v) ? { text: v, href: v } : link(scalar(key, v, zone), v)));
    } else if (isUrl(value)) {
      values = [{ text: value, href: value }];
    } else if (typeof value === 'object') {
      values = Object.entries(value as Record<string, unknown>).map(([k, v]) => ({ text: `${humanize(k)}: ${scalar(k, v, zone)}` }));
    } else {
      values = [link(scalar(key, value, zone), value)];
    }
    fields.push({ key, label: labelOf(key), values });
  }
  return fields;
}
