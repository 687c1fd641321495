/**
 * The portable music taste profile (`/.well-known/taste-profile.json`, media type
 * `application/taste-profile+json; version=1`): the owner's published music records as
 * artists, recordings, albums and genres, each with a stance. Its shape is exactly what
 * the music intersection endpoint accepts as `{ "profile": … }` (TASTE_PROFILE_SCHEMA).
 *
 * A pure function: no clock, and the same profile whatever order the records arrive in.
 */
import { fold } from '../core/fold.ts';
import { LIMITS } from '../core/limits.ts';

export const TASTE_PROFILE_MEDIA_TYPE = 'application/taste-profile+json; version=1';

export type Stance = 'love' | 'like' | 'neutral' | 'dislike';

export interface TasteProfile {
  schemaVersion: '1';
  music: {
    artists: { name: string; stance: Stance; externalIds?: { musicbrainz?: string } }[];
    recordings: { title: string; artist: string; stance: Stance; externalIds?: { isrc?: string; musicbrainz?: string; spotify?: string } }[];
    albums: { title: string; artist: string; stance: Stance; externalIds?: { musicbrainz?: string; spotify?: string } }[];
    genres: { name: string; stance: Stance }[];
    notes: string[];
  };
}

/** Notes the site puts in its own profile (the format allows up to musicNotesMax). */
export const PROFILE_NOTES_COUNT = 5;
/** Characters per note in the site's own profile (the format allows musicNoteCharsMax). */
export const PROFILE_NOTE_CHARS = 280;

const STANCE_RANK: Record<Stance, number> = { love: 0, like: 1, neutral: 2, dislike: 3 };
const isStance = (v: unknown): v is Stance => typeof v === 'string' && Object.hasOwn(STANCE_RANK, v);

type MusicRecord = Readonly<Record<string, unknown>>;

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
/**
 * The folded form of texts being ordered, remembered while one profile is built: sorting
 * compares each text many times, and folding dominated the profile's cost.
 */
let folds: Map<string, string> | undefined;
function folded(text: string): string {
  if (folds === undefined) return fold(text);
  let value = folds.get(text);
  if (value === undefined) {
    value = fold(text);
    folds.set(text, value);
  }
  return value;
}

/** Case- and accent-insensitive first, then exact code-unit order as the tie-break. */
const textOrder = (a: string, b: string): number => cmp(folded(a), folded(b)) || cmp(a, b);

/** Cut to at most `max` code points (JSON Schema counts code points), marking a cut with an ellipsis. */
function cut(value: string, max: number): string {
  const text = value.replace(/\s+/g, ' ').trim();
  const points = Array.from(text);
  return points.length <= max
    ? text
    : `${points
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

const name = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? cut(value, LIMITS.musicNameCharsMax) : undefined);

const stanceOf = (r: MusicRecord): Stance => (isStance(r.stance) ? r.stance : 'like');

function ids<K extends string>(record: MusicRecord, keys: readonly K[]): { [P in K]?: string } | undefined {
  const source = record.externalIds;
  if (!source || typeof source !== 'object') return undefined;
  const out: { [P in K]?: string } = {};
  for (const key of keys) {
    const v = (source as Record<string, unknown>)[key];
    if (typeof v === 'string' && v !== '' && Array.from(v).length <= LIMITS.musicNameCharsMax) out[key] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

const idsKey = (value: object | undefined): string => (value ? JSON.stringify(Object.entries(value).sort(([a], [b]) => cmp(a, b))) : '');

/**
 * Keep at most musicListItemsMax entries, preferring the strongest stances (love first)
 * and then the list order, and return them in list order.
 */
function capped<T extends { stance: Stance }>(items: T[], order: (a: T, b: T) => number): T[] {
  const sorted = [...items].sort(order);
  if (sorted.length <= LIMITS.musicListItemsMax) return sorted;
  return [...sorted]
    .sort((a, b) => STANCE_RANK[a.stance] - STANCE_RANK[b.stance] || order(a, b))
    .slice(0, LIMITS.musicListItemsMax)
    .sort(order);
}

type Artist = TasteProfile['music']['artists'][number];
type Recording = TasteProfile['music']['recordings'][number];
type Album = TasteProfile['music']['albums'][number];

const artistOrder = (a: Artist, b: Artist): number =>
  textOrder(a.name, b.name) || STANCE_RANK[a.stance] - STANCE_RANK[b.stance] || cmp(idsKey(a.externalIds), idsKey(b.externalIds));
const workOrder = <T extends Recording | Album>(a: T, b: T): number =>
  textOrder(a.title, b.title) ||
  textOrder(a.artist, b.artist) ||
  STANCE_RANK[a.stance] - STANCE_RANK[b.stance] ||
  cmp(idsKey(a.externalIds), idsKey(b.externalIds));

function artistsOf(records: readonly MusicRecord[]): Artist[] {
  // Artist records first, then the artists of loved tracks and albums; one entry per folded name.
  const declared: Artist[] = [];
  const derived: Artist[] = [];
  for (const r of records) {
    if (r.type === 'artist') {
      const n = name(r.title) ?? name(r.artist);
      if (n === undefined) continue;
      const externalIds = ids(r, ['musicbrainz'] as const);
      declared.push({ name: n, stance: stanceOf(r), ...(externalIds ? { externalIds } : {}) });
    } else if ((r.type === 'track' || r.type === 'album') && stanceOf(r) === 'love') {
      const n = name(r.artist);
      if (n !== undefined) derived.push({ name: n, stance: stanceOf(r) });
    }
  }
  const byName = new Map<string, Artist>();
  for (const artist of [...declared.sort(artistOrder), ...derived.sort(artistOrder)]) {
    const key = fold(artist.name);
    if (!byName.has(key)) byName.set(key, artist);
  }
  return capped([...byName.values()], artistOrder);
}

function worksOf<T extends Recording | Album>(records: readonly MusicRecord[], type: 'track' | 'album', keys: readonly string[]): T[] {
  const out: T[] = [];
  for (const r of records) {
    if (r.type !== type) continue;
    const title = name(r.title);
    const artist = name(r.artist);
    if (title === undefined || artist === undefined) continue;
    const externalIds = ids(r, keys);
    out.push({ title, artist, stance: stanceOf(r), ...(externalIds ? { externalIds } : {}) } as T);
  }
  return capped(out, workOrder);
}

function genresOf(records: readonly MusicRecord[]): TasteProfile['music']['genres'] {
  const groups = new Map<string, { spellings: Map<string, number>; stances: Map<Stance, number> }>();
  for (const r of records) {
    if (!Array.isArray(r.genres)) continue;
    const stance = stanceOf(r);
    const seen = new Set<string>();
    for (const g of r.genres) {
      const n = name(g);
      if (n === undefined) continue;
      const key = fold(n);
      if (seen.has(key)) continue;
      seen.add(key);
      const group = groups.get(key) ?? { spellings: new Map(), stances: new Map() };
      group.spellings.set(n, (group.spellings.get(n) ?? 0) + 1);
      group.stances.set(stance, (group.stances.get(stance) ?? 0) + 1);
      groups.set(key, group);
    }
  }
  const genres = [...groups.values()].map(({ spellings, stances }) => ({
    // The most used spelling names the genre; ties go to code-unit order.
    name: [...spellings].sort(([a, ca], [b, cb]) => cb - ca || cmp(a, b))[0]![0],
    // The most frequent stance; ties go to the stronger one (love > like > neutral > dislike).
    stance: [...stances].sort(([a, ca], [b, cb]) => cb - ca || STANCE_RANK[a] - STANCE_RANK[b])[0]![0],
  }));
  return capped(genres, (a, b) => textOrder(a.name, b.name));
}

function notesOf(records: readonly MusicRecord[]): string[] {
  const candidates = records
    .filter((r) => typeof r.notes === 'string' && r.notes.trim() !== '' && name(r.title) !== undefined)
    .map((r) => {
      const who = r.type === 'artist' ? '' : typeof r.artist === 'string' && r.artist.trim() !== '' ? ` (${r.artist.trim()})` : '';
      const time = typeof r.addedAt === 'string' ? Date.parse(r.addedAt) : Number.NaN;
      return {
        stance: stanceOf(r),
        time: Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time,
        text: cut(`${String(r.title).trim()}${who}: ${String(r.notes)}`, PROFILE_NOTE_CHARS),
      };
    });
  // Strongest stance first, then most recently added, then the text itself.
  candidates.sort((a, b) => STANCE_RANK[a.stance] - STANCE_RANK[b.stance] || (a.time !== b.time ? (b.time > a.time ? 1 : -1) : 0) || cmp(a.text, b.text));
  const out: string[] = [];
  for (const c of candidates) {
    if (out.length >= Math.min(PROFILE_NOTES_COUNT, LIMITS.musicNotesMax)) break;
    if (!out.includes(c.text)) out.push(c.text);
  }
  return out;
}

/**
 * The site's portable music taste profile, from the published music records (JSON API
 * form). Private records, if any are passed, are left out. `asOf` (the data's as-of time)
 * is accepted for the caller's caching headers and does not appear in the profile, whose
 * shape is fixed by TASTE_PROFILE_SCHEMA.
 */
export function tasteProfile(music: readonly Record<string, unknown>[], asOf: string): TasteProfile {
  void asOf;
  const records = music.filter((r) => r.visibility === undefined || r.visibility === 'public');
  folds = new Map();
  try {
    return {
      schemaVersion: '1',
      music: {
        artists: artistsOf(records),
        recordings: worksOf<Recording>(records, 'track', ['isrc', 'musicbrainz', 'spotify']),
        albums: worksOf<Album>(records, 'album', ['musicbrainz', 'spotify']),
        genres: genresOf(records),
        notes: notesOf(records),
      },
    };
  } finally {
    folds = undefined;
  }
}
