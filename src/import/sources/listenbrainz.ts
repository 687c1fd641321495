/**
 * ListenBrainz (Settings → Export your data): a ZIP of `user.json`, `listens/YYYY/M.jsonl`
 * (one listen per line, read as a stream) and the feedback file (score 1 = loved, -1 =
 * hated). A music record is a track, not a listen, so listens are gathered per recording:
 * the first listen is `addedAt`, the MusicBrainz recording id (where ListenBrainz mapped
 * one; `mbid_mapping` may be null) is the source ID, the duration comes from the listen.
 * The stance is love or dislike where the owner said so in feedback, else neutral (a
 * listen is not a like). Not kept: the listen count and times, the submitting client.
 */
import { createInterface } from 'node:readline';
import { openInflated, type ExportEntry } from '../archive.ts';
import { ImportRefused } from '../problems.ts';
import { yearPart, type Candidate, type ImportSource, type Mapped, type ReadContext } from '../source.ts';

/** One listen as ListenBrainz gives it: a line of the export, an item of `GET /1/user/<user>/listens` (src/sync/sources/listenbrainz.ts). */
export interface Listen {
  listened_at?: number;
  track_metadata?: {
    artist_name?: string;
    track_name?: string;
    release_name?: string;
    additional_info?: { duration_ms?: number; duration?: number; recording_msid?: string; recording_mbid?: string };
    mbid_mapping?: { recording_mbid?: string } | null;
  };
}

/** The listens of one recording gathered (`gatherListen`): what `mapTrack` maps. */
export interface Track {
  origin: string;
  first: number;
  title?: string;
  artist?: string;
  album?: string;
  durationMs?: number;
  mbid?: string;
  msid?: string;
}

async function* lines(entry: ExportEntry): AsyncGenerator<{ line: number; value: unknown }> {
  let line = 0;
  for await (const text of createInterface({ input: await openInflated(entry), crlfDelay: Infinity })) {
    line++;
    if (!text.trim()) continue;
    try {
      yield { line, value: JSON.parse(text) as unknown };
    } catch {
      throw new ImportRefused(`${entry.name} line ${line} is not JSON: a ListenBrainz export has one JSON object per line.`);
    }
  }
}

/** The owner's feedback by recording (`mb:<mbid>`, `msid:<msid>`): loved or hated. */
export type Stances = Map<string, 'love' | 'dislike'>;

/** One feedback entry (score 1 = loved, -1 = hated) into `stances`. */
export function gatherFeedback(stances: Stances, f: { recording_mbid?: string | null; recording_msid?: string | null; score?: number }): void {
  const s = f.score === 1 ? 'love' : f.score === -1 ? 'dislike' : undefined;
  if (!s) return;
  if (f.recording_mbid) stances.set(`mb:${f.recording_mbid}`, s);
  if (f.recording_msid) stances.set(`msid:${f.recording_msid}`, s);
}

/** One listen into `tracks`, keyed by recording: the first listen is kept (its time is `addedAt`). */
export function gatherListen(tracks: Map<string, Track>, listen: Listen, origin: string): void {
  const m = listen.track_metadata ?? {};
  const mbid = m.mbid_mapping?.recording_mbid ?? m.additional_info?.recording_mbid;
  const key = mbid ? `mb:${mbid}` : `t:${m.artist_name ?? ''}\u0000${m.track_name ?? ''}\u0000${m.release_name ?? ''}`;
  const at = typeof listen.listened_at === 'number' ? listen.listened_at : Number.POSITIVE_INFINITY;
  const known = tracks.get(key);
  if (known && known.first <= at) return;
  const durationMs = m.additional_info?.duration_ms ?? (m.additional_info?.duration !== undefined ? m.additional_info.duration * 1000 : undefined);
  tracks.set(key, {
    origin,
    first: at,
    title: m.track_name,
    artist: m.artist_name,
    album: m.release_name,
    durationMs: durationMs ?? known?.durationMs,
    mbid,
    msid: m.additional_info?.recording_msid,
  });
}

/** The one mapping of a ListenBrainz recording onto a music record, for the export and the API. */
export function mapTrack(t: Track, stances: Stances): Mapped {
  return {
    fields: {
      title: t.title,
      type: 'track',
      artist: t.artist,
      album: t.album,
      stance: (t.mbid && stances.get(`mb:${t.mbid}`)) || (t.msid && stances.get(`msid:${t.msid}`)) || 'neutral',
      durationSeconds: t.durationMs !== undefined ? Math.max(1, Math.round(t.durationMs / 1000)) : undefined,
      addedAt: Number.isFinite(t.first) ? new Date(t.first * 1000).toISOString().replace('.000Z', 'Z') : undefined,
      externalIds: t.mbid ? { musicbrainz: t.mbid } : undefined,
    },
  };
}

async function* read(context: ReadContext): AsyncGenerator<Candidate> {
  const listenFiles = context.input.entries.filter((e) => /(^|\/)listens\/.*\.jsonl$/.test(e.name));
  if (!listenFiles.length) throw new ImportRefused(`${context.input.shown} is not a ListenBrainz export: it has no listens/**/*.jsonl.`);
  const stance: Stances = new Map();
  for (const entry of context.input.entries.filter((e) => /(^|\/)feedback[^/]*\.jsonl$/.test(e.name))) {
    for await (const { value } of lines(entry)) gatherFeedback(stance, value as { recording_mbid?: string; recording_msid?: string; score?: number });
  }
  const tracks = new Map<string, Track>();
  for (const entry of listenFiles) {
    for await (const { line, value } of lines(entry)) gatherListen(tracks, value as Listen, `${entry.name} line ${line}`);
  }
  for (const t of tracks.values()) {
    const mapped = mapTrack(t, stance);
    if ('fields' in mapped) yield { origin: t.origin, fields: mapped.fields };
  }
}

export const listenbrainz: ImportSource = {
  name: 'listenbrainz',
  collection: 'music',
  sourceIdOf: (r) => {
    const ids = r.externalIds as { musicbrainz?: string } | undefined;
    return ids?.musicbrainz ? `mb:${ids.musicbrainz}` : undefined;
  },
  fileOf: (r) => `listenbrainz-${yearPart(r.addedAt)}.yaml`,
  sortKeyOf: (r) => `${String(r.addedAt ?? '')}\u0000${String(r.artist ?? '')}\u0000${String(r.title ?? '')}`,
  dateOf: (r) => (typeof r.addedAt === 'string' ? r.addedAt : undefined),
  read,
};
