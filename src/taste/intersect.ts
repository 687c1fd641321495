/**
 * Music intersection (SPEC §4.4): which of the site's published tracks a listener's
 * profile points at, and why. Names are compared after normalization (Unicode folding,
 * punctuation removed, a leading "the" dropped) and known IDs (ISRC, MusicBrainz,
 * Spotify) are compared exactly. Only love/like entries produce matches; dislike entries
 * exclude the tracks they name; neutral entries only count as matched or unmatched.
 * Tracks the owner dislikes are never offered as shared taste. There is no compatibility
 * percentage: the answer is the matching tracks with grounded reason codes, counts of
 * unmatched entries, and an abstention when the signal is too weak. Pure and
 * deterministic; mutates nothing.
 */
import { fold } from '../core/fold.ts';
import { LIMITS } from '../core/limits.ts';
import type { MusicStance, Profile } from './music-request.ts';

export type { Profile } from './music-request.ts';

export const INTERSECT_REASONS = [
  'same-recording-isrc',
  'same-recording-musicbrainz',
  'same-recording-spotify',
  'same-recording-name',
  'album-match',
  'artist-match',
  'genre-match',
] as const;
export type IntersectReason = (typeof INTERSECT_REASONS)[number];

export type AbstainReason = 'too-few-signals' | 'no-overlap';

export interface IntersectMatch {
  canonicalId: string;
  title: string;
  artist: string;
  reasons: IntersectReason[];
}

export interface IntersectResult {
  schemaVersion: '1';
  matches: IntersectMatch[];
  /** Matching tracks before the bound was applied. */
  matchCount: number;
  truncated: boolean;
  unmatched: { artists: number; recordings: number; albums: number; genres: number };
  abstained: boolean;
  abstainReason?: AbstainReason;
}

/** Fewer non-neutral profile entries than this and the intersection abstains. */
export const MIN_SIGNALS = 3;

const PUNCTUATION = /[\p{P}\p{S}]+/gu;
const SPACES = /\s+/gu;

/** Folded, `&` read as "and", punctuation removed, spaces collapsed, a leading "the " dropped. */
export function normalizeName(value: string): string {
  const folded = fold(value).replace(/&/g, ' and ').replace(/['’`]/g, '').replace(PUNCTUATION, ' ').replace(SPACES, ' ').trim();
  const stripped = folded.startsWith('the ') ? folded.slice(4) : folded;
  return stripped === '' ? folded : stripped;
}

const normIsrc = (v: string) => v.replace(/[\s-]/g, '').toUpperCase();
const normMbid = (v: string) => v.trim().toLowerCase();
const normSpotify = (v: string) => v.trim().replace(/^spotify:(track|album|artist):/, '');

/** A catalog record read defensively (the catalog is the site's own published data). */
export interface CatalogMusic {
  canonicalId: string;
  type: string;
  title: string;
  artist: string;
  album: string | undefined;
  genres: string[];
  stance: string;
  ids: { musicbrainz?: string; isrc?: string; spotify?: string };
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function readRecord(record: Record<string, unknown>): CatalogMusic | undefined {
  const canonicalId = text(record.canonicalId);
  const type = text(record.type);
  if (canonicalId === undefined || type === undefined) return undefined;
  const raw = typeof record.externalIds === 'object' && record.externalIds !== null ? (record.externalIds as Record<string, unknown>) : {};
  const ids: CatalogMusic['ids'] = {};
  const mb = text(raw.musicbrainz);
  const isrc = text(raw.isrc);
  const spotify = text(raw.spotify);
  if (mb !== undefined) ids.musicbrainz = normMbid(mb);
  if (isrc !== undefined) ids.isrc = normIsrc(isrc);
  if (spotify !== undefined) ids.spotify = normSpotify(spotify);
  return {
    canonicalId,
    type,
    title: text(record.title) ?? '',
    artist: text(record.artist) ?? '',
    album: text(record.album),
    genres: Array.isArray(record.genres) ? record.genres.filter((g): g is string => typeof g === 'string') : [],
    stance: text(record.stance) ?? 'like',
    ids,
  };
}

export function readCatalog(catalog: readonly Record<string, unknown>[]): CatalogMusic[] {
  const out: CatalogMusic[] = [];
  for (const record of catalog) {
    const read = readRecord(record);
    if (read !== undefined) out.push(read);
  }
  return out;
}

const pairKey = (title: string, artist: string) => `${normalizeName(title)}\u0000${normalizeName(artist)}`;

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/** Code-unit order, independent of locale. */
export const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function intersect(catalog: readonly Record<string, unknown>[], profile: Profile): IntersectResult {
  const records = readCatalog(catalog);
  const tracks = records.filter((r) => r.type === 'track');

  // Indexes over the catalog.
  const byIsrc = new Map<string, CatalogMusic[]>();
  const byRecordingMbid = new Map<string, CatalogMusic[]>();
  const byRecordingSpotify = new Map<string, CatalogMusic[]>();
  const byTrackName = new Map<string, CatalogMusic[]>();
  const byArtist = new Map<string, CatalogMusic[]>();
  const byAlbum = new Map<string, CatalogMusic[]>();
  const byGenre = new Map<string, CatalogMusic[]>();
  for (const t of tracks) {
    if (t.ids.isrc) push(byIsrc, t.ids.isrc, t);
    if (t.ids.musicbrainz) push(byRecordingMbid, t.ids.musicbrainz, t);
    if (t.ids.spotify) push(byRecordingSpotify, t.ids.spotify, t);
    push(byTrackName, pairKey(t.title, t.artist), t);
    push(byArtist, normalizeName(t.artist), t);
    if (t.album !== undefined) push(byAlbum, pairKey(t.album, t.artist), t);
    for (const g of new Set(t.genres.map(normalizeName))) push(byGenre, g, t);
  }
  const artistNames = new Set(records.map((r) => normalizeName(r.artist)).filter((n) => n !== ''));
  for (const r of records) if (r.type === 'artist') artistNames.add(normalizeName(r.title));
  const artistByMbid = new Map<string, string>();
  const albumByMbid = new Map<string, string>();
  const albumBySpotify = new Map<string, string>();
  const albumKeys = new Set<string>();
  const genreNames = new Set<string>();
  for (const r of records) {
    for (const g of r.genres) genreNames.add(normalizeName(g));
    if (r.type === 'artist' && r.ids.musicbrainz) artistByMbid.set(r.ids.musicbrainz, normalizeName(r.title));
    if (r.type === 'album') {
      const key = pairKey(r.title, r.artist);
      albumKeys.add(key);
      if (r.ids.musicbrainz) albumByMbid.set(r.ids.musicbrainz, key);
      if (r.ids.spotify) albumBySpotify.set(r.ids.spotify, key);
    }
    if (r.type === 'track' && r.album !== undefined) albumKeys.add(pairKey(r.album, r.artist));
  }

  const reasons = new Map<string, Set<IntersectReason>>();
  const excluded = new Set<string>();
  const noGenre = new Set<string>();
  const positive = (s: MusicStance) => s === 'love' || s === 'like';
  const mark = (found: readonly CatalogMusic[] | undefined, stance: MusicStance, reason: IntersectReason, onDislike: Set<string> = excluded) => {
    if (found === undefined) return;
    for (const t of found) {
      if (positive(stance)) {
        let set = reasons.get(t.canonicalId);
        if (set === undefined) reasons.set(t.canonicalId, (set = new Set()));
        set.add(reason);
      } else if (stance === 'dislike') onDislike.add(t.canonicalId);
    }
  };
  const unmatched = { artists: 0, recordings: 0, albums: 0, genres: 0 };
  const { music } = profile;

  for (const artist of music.artists) {
    const names = new Set([normalizeName(artist.name)]);
    const mb = artist.externalIds?.musicbrainz;
    const viaId = mb === undefined ? undefined : artistByMbid.get(normMbid(mb));
    if (viaId !== undefined) names.add(viaId);
    let known = false;
    for (const n of names) {
      if (artistNames.has(n)) known = true;
      mark(byArtist.get(n), artist.stance, 'artist-match');
    }
    if (!known) unmatched.artists++;
  }

  for (const rec of music.recordings) {
    const ids = rec.externalIds ?? {};
    const hits: [CatalogMusic[] | undefined, IntersectReason][] = [
      [ids.isrc === undefined ? undefined : byIsrc.get(normIsrc(ids.isrc)), 'same-recording-isrc'],
      [ids.musicbrainz === undefined ? undefined : byRecordingMbid.get(normMbid(ids.musicbrainz)), 'same-recording-musicbrainz'],
      [ids.spotify === undefined ? undefined : byRecordingSpotify.get(normSpotify(ids.spotify)), 'same-recording-spotify'],
      [byTrackName.get(pairKey(rec.title, rec.artist)), 'same-recording-name'],
    ];
    let known = false;
    for (const [found, reason] of hits) {
      if (found !== undefined && found.length > 0) known = true;
      mark(found, rec.stance, reason);
    }
    if (!known) unmatched.recordings++;
  }

  for (const album of music.albums) {
    const ids = album.externalIds ?? {};
    const keys = new Set([pairKey(album.title, album.artist)]);
    const viaMb = ids.musicbrainz === undefined ? undefined : albumByMbid.get(normMbid(ids.musicbrainz));
    const viaSpotify = ids.spotify === undefined ? undefined : albumBySpotify.get(normSpotify(ids.spotify));
    if (viaMb !== undefined) keys.add(viaMb);
    if (viaSpotify !== undefined) keys.add(viaSpotify);
    let known = false;
    for (const key of keys) {
      if (albumKeys.has(key)) known = true;
      mark(byAlbum.get(key), album.stance, 'album-match');
    }
    if (!known) unmatched.albums++;
  }

  for (const genre of music.genres) {
    const n = normalizeName(genre.name);
    if (!genreNames.has(n)) unmatched.genres++;
    // A disliked genre does not exclude a track, but it never counts as shared taste.
    mark(byGenre.get(n), genre.stance, 'genre-match', noGenre);
  }

  const signals = [music.artists, music.recordings, music.albums, music.genres].reduce(
    (sum, entries) => sum + entries.filter((e) => e.stance !== 'neutral').length,
    0,
  );
  const base = { schemaVersion: '1' as const, unmatched };
  if (signals < MIN_SIGNALS) return { ...base, matches: [], matchCount: 0, truncated: false, abstained: true, abstainReason: 'too-few-signals' };

  const byId = new Map(tracks.map((t) => [t.canonicalId, t]));
  const all: IntersectMatch[] = [];
  for (const [id, set] of reasons) {
    const track = byId.get(id)!;
    if (excluded.has(id) || track.stance === 'dislike') continue;
    if (noGenre.has(id)) set.delete('genre-match');
    if (set.size === 0) continue;
    all.push({ canonicalId: id, title: track.title, artist: track.artist, reasons: INTERSECT_REASONS.filter((r) => set.has(r)) });
  }
  all.sort((a, b) => b.reasons.length - a.reasons.length || compareIds(a.canonicalId, b.canonicalId));
  if (all.length === 0) return { ...base, matches: [], matchCount: 0, truncated: false, abstained: true, abstainReason: 'no-overlap' };
  const matches = all.slice(0, LIMITS.musicMatchesMax);
  return { ...base, matches, matchCount: all.length, truncated: all.length > matches.length, abstained: false };
}
