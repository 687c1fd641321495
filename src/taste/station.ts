/**
 * Programmable station (SPEC §4.4): a stateless, deterministic pick of at most six
 * catalog tracks from a listener's affinities, votes and the similarity of tracks to
 * the up-voted ones. Hard exclusions, recently played IDs and down-voted tracks are
 * removed before any scoring, so no path (degraded included) can return them. Ties are
 * broken by a PRNG seeded from `stationSeed` (never Math.random or the clock). When the
 * similarity dependency fails, the answer is `degraded`: the same filtered candidates,
 * ranked without similarity, still bounded.
 */
import { LIMITS } from '../core/limits.ts';
import { compareIds, normalizeName, readCatalog, type CatalogMusic } from './intersect.ts';
import type { StationRequest } from './music-request.ts';

export type { StationRequest } from './music-request.ts';

export type StationReason =
  'track-affinity' | 'artist-affinity' | 'genre-affinity' | 'voted-up' | 'similar-to-upvoted' | 'intent-genre' | 'owner-loves' | 'seeded-pick';

export interface StationTrack {
  canonicalId: string;
  title: string;
  artist: string;
  reasons: StationReason[];
}

export interface StationResult {
  schemaVersion: '1';
  status: 'ok' | 'degraded';
  tracks: StationTrack[];
  degradedReason?: 'similarity-unavailable';
}

export interface StationDeps {
  /** Canonical IDs of catalog tracks similar to the given one, most similar first. */
  similar?: (canonicalId: string) => readonly string[];
}

/** Similar IDs read per up-voted track, and at most this many tracks from one artist in an answer. */
const SIMILAR_PER_TRACK = 20;
const PER_ARTIST = 2;

/** FNV-1a, 32 bits. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small seeded PRNG. */
export function seededRandom(seed: string): () => number {
  let a = hash(seed);
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The default similarity index: tracks by the same artist first, then by the number of
 * genres shared, ties in canonical ID order. Built once over the catalog.
 */
export function buildSimilarityIndex(catalog: readonly Record<string, unknown>[]): (canonicalId: string) => readonly string[] {
  const tracks = readCatalog(catalog).filter((r) => r.type === 'track');
  const byId = new Map(tracks.map((t) => [t.canonicalId, t]));
  const byArtist = new Map<string, string[]>();
  const byGenre = new Map<string, string[]>();
  for (const t of tracks) {
    const a = normalizeName(t.artist);
    byArtist.set(a, [...(byArtist.get(a) ?? []), t.canonicalId]);
    for (const g of new Set(t.genres.map(normalizeName))) byGenre.set(g, [...(byGenre.get(g) ?? []), t.canonicalId]);
  }
  const memo = new Map<string, readonly string[]>();
  return (canonicalId) => {
    const cached = memo.get(canonicalId);
    if (cached !== undefined) return cached;
    const track = byId.get(canonicalId);
    if (track === undefined) return [];
    const score = new Map<string, number>();
    for (const id of byArtist.get(normalizeName(track.artist)) ?? []) score.set(id, (score.get(id) ?? 0) + 2);
    for (const g of new Set(track.genres.map(normalizeName))) for (const id of byGenre.get(g) ?? []) score.set(id, (score.get(id) ?? 0) + 1);
    score.delete(canonicalId);
    const result = [...score]
      .sort((a, b) => b[1] - a[1] || compareIds(a[0], b[0]))
      .slice(0, SIMILAR_PER_TRACK)
      .map(([id]) => id);
    memo.set(canonicalId, result);
    return result;
  };
}

interface Scored {
  track: CatalogMusic;
  score: number;
  reasons: Set<StationReason>;
  tie: number;
}

const REASON_ORDER: readonly StationReason[] = [
  'track-affinity',
  'voted-up',
  'similar-to-upvoted',
  'artist-affinity',
  'genre-affinity',
  'intent-genre',
  'owner-loves',
  'seeded-pick',
];

export function station(catalog: readonly Record<string, unknown>[], request: StationRequest, deps: StationDeps = {}): StationResult {
  const limit = Math.max(1, Math.min(LIMITS.musicStationTracksMax, Math.trunc(request.limit)));
  const tracks = readCatalog(catalog).filter((r) => r.type === 'track');

  // Everything that must never be returned, decided before any scoring.
  const recent = new Set(request.recentCanonicalIds);
  const downVoted = new Set(request.votes.filter((v) => v.vote === 'down').map((v) => v.canonicalId));
  const upVoted = [...new Set(request.votes.filter((v) => v.vote === 'up' && !downVoted.has(v.canonicalId)).map((v) => v.canonicalId))];
  const excludedIds = new Set<string>();
  const excludedTitles = new Set<string>();
  const excludedArtists = new Set<string>();
  const excludedGenres = new Set<string>();
  for (const ex of request.hardExclusions) {
    if (ex.kind === 'track') {
      excludedIds.add(ex.value);
      excludedTitles.add(normalizeName(ex.value));
    } else if (ex.kind === 'artist') excludedArtists.add(normalizeName(ex.value));
    else excludedGenres.add(normalizeName(ex.value));
  }
  const seen = new Set<string>();
  const candidates = tracks.filter((t) => {
    if (seen.has(t.canonicalId)) return false;
    seen.add(t.canonicalId);
    return !(
      recent.has(t.canonicalId) ||
      downVoted.has(t.canonicalId) ||
      excludedIds.has(t.canonicalId) ||
      excludedTitles.has(normalizeName(t.title)) ||
      excludedArtists.has(normalizeName(t.artist)) ||
      t.genres.some((g) => excludedGenres.has(normalizeName(g)))
    );
  });

  const random = seededRandom(`station\u0000${request.stationSeed}`);
  const ordered = [...candidates].sort((a, b) => compareIds(a.canonicalId, b.canonicalId));
  const intent = request.intent === undefined ? '' : ` ${normalizeName(request.intent)} `;
  const scored = new Map<string, Scored>();
  for (const track of ordered) {
    const s: Scored = { track, score: 0, reasons: new Set(), tie: random() };
    const artist = normalizeName(track.artist);
    const title = normalizeName(track.title);
    const genres = new Set(track.genres.map(normalizeName));
    for (const a of request.affinities) {
      const value = normalizeName(a.value);
      let hit: StationReason | undefined;
      let factor = 0;
      if (a.kind === 'artist' && value === artist) [hit, factor] = ['artist-affinity', 3];
      else if (a.kind === 'genre' && genres.has(value)) [hit, factor] = ['genre-affinity', 1];
      else if (a.kind === 'track' && (a.value === track.canonicalId || value === title)) [hit, factor] = ['track-affinity', 4];
      if (hit === undefined || !Number.isFinite(a.weight)) continue;
      s.score += a.weight * factor;
      if (a.weight > 0) s.reasons.add(hit);
    }
    if (upVoted.includes(track.canonicalId)) {
      s.score += 2;
      s.reasons.add('voted-up');
    }
    if (intent.trim() !== '' && [...genres].some((g) => g !== '' && intent.includes(` ${g} `))) {
      s.score += 0.5;
      s.reasons.add('intent-genre');
    }
    if (track.stance === 'love') {
      s.score += 0.25;
      s.reasons.add('owner-loves');
    } else if (track.stance === 'dislike') s.score -= 0.25;
    scored.set(track.canonicalId, s);
  }

  let status: StationResult['status'] = 'ok';
  const similar = deps.similar;
  if (similar !== undefined && upVoted.length > 0) {
    // Computed aside and applied only if every call succeeds, so a failure leaves a clean affinity-only ranking.
    const boosts = new Map<string, number>();
    try {
      for (const id of upVoted) {
        const list = similar(id);
        if (!Array.isArray(list)) throw new TypeError('similarity index returned a non-list');
        list.slice(0, SIMILAR_PER_TRACK).forEach((other: unknown, rank: number) => {
          if (typeof other === 'string' && other !== id) boosts.set(other, (boosts.get(other) ?? 0) + 1.5 * (1 - rank / (SIMILAR_PER_TRACK * 2)));
        });
      }
      for (const [id, boost] of boosts) {
        const s = scored.get(id);
        if (s === undefined) continue;
        s.score += boost;
        s.reasons.add('similar-to-upvoted');
      }
    } catch {
      status = 'degraded';
    }
  }

  const ranked = [...scored.values()]
    .filter((s) => s.score >= 0)
    .sort((a, b) => b.score - a.score || b.tie - a.tie || compareIds(a.track.canonicalId, b.track.canonicalId));
  // Tracks the request points at come before the rest; within each group at most
  // PER_ARTIST tracks of one artist, unless the group leaves nothing else.
  const requested = (s: Scored) => [...s.reasons].some((r) => r !== 'owner-loves');
  const picked: Scored[] = [];
  const perArtist = new Map<string, number>();
  for (const group of [ranked.filter(requested), ranked.filter((s) => !requested(s))]) {
    for (const capped of [true, false]) {
      for (const s of group) {
        if (picked.length >= limit) break;
        if (picked.includes(s)) continue;
        const a = normalizeName(s.track.artist);
        if (capped && (perArtist.get(a) ?? 0) >= PER_ARTIST) continue;
        perArtist.set(a, (perArtist.get(a) ?? 0) + 1);
        picked.push(s);
      }
    }
  }

  const result: StationResult = {
    schemaVersion: '1',
    status,
    tracks: picked.map((s) => ({
      canonicalId: s.track.canonicalId,
      title: s.track.title,
      artist: s.track.artist,
      reasons: s.reasons.size === 0 ? ['seeded-pick'] : REASON_ORDER.filter((r) => s.reasons.has(r)),
    })),
  };
  if (status === 'degraded') result.degradedReason = 'similarity-unavailable';
  return result;
}
