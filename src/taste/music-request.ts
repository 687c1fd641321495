/**
 * The two music request bodies (SPEC §4.4): a listener profile to intersect with the
 * catalog, and a stateless station request. Both are strict: an unknown structural field
 * anywhere, a wrong type or any overflow of a contract bound is a `music-invalid` problem
 * whose detail names the JSON path (`profile.music.artists[3].stance`) and never echoes a
 * value. The one open place is `externalIds`: unknown schemes are ignored (stripped), but
 * still bounded in number and length.
 */
import { z } from 'zod';
import { PublicError } from '../core/errors.ts';
import { LIMITS } from '../core/limits.ts';

export const MUSIC_STANCES = ['love', 'like', 'neutral', 'dislike'] as const;
export type MusicStance = (typeof MUSIC_STANCES)[number];
export const STATION_KINDS = ['artist', 'genre', 'track'] as const;
export const STATION_CONTEXTS = ['focus', 'workout', 'commute', 'dinner', 'party', 'sleep'] as const;

const name = z.string().min(1).max(LIMITS.musicNameCharsMax);
const stance = z.enum(MUSIC_STANCES);

/** Any string-valued schemes (≤ 10, each ≤ 200 chars); only the known ones are kept. */
function externalIds<const K extends readonly string[]>(known: K) {
  return z
    .record(z.string(), z.string().min(1).max(LIMITS.musicExternalIdCharsMax))
    .check(
      z.refine((ids) => Object.keys(ids).length <= LIMITS.musicExternalIdSchemesMax, {
        message: 'too many schemes',
        abort: true,
      }),
    )
    .transform((ids) => {
      const kept: Partial<Record<K[number], string>> = {};
      for (const scheme of known) {
        if (Object.hasOwn(ids, scheme)) kept[scheme as K[number]] = ids[scheme]!;
      }
      return kept;
    })
    .optional();
}

const list = <T extends z.ZodType>(item: T) => z.array(item).max(LIMITS.musicListItemsMax);

export const profileSchema = z.strictObject({
  schemaVersion: z.literal('1'),
  music: z.strictObject({
    artists: list(z.strictObject({ name, stance, externalIds: externalIds(['musicbrainz']) })),
    recordings: list(z.strictObject({ title: name, artist: name, stance, externalIds: externalIds(['isrc', 'musicbrainz', 'spotify']) })),
    albums: list(z.strictObject({ title: name, artist: name, stance, externalIds: externalIds(['musicbrainz', 'spotify']) })),
    genres: list(z.strictObject({ name, stance })),
    notes: z.array(z.string().max(LIMITS.musicNoteCharsMax)).max(LIMITS.musicNotesMax),
  }),
});

export type Profile = z.output<typeof profileSchema>;

export const intersectionRequestSchema = z.strictObject({ profile: profileSchema });
export type IntersectionRequest = z.output<typeof intersectionRequestSchema>;

const stationValue = z.string().min(1).max(LIMITS.musicNameCharsMax);

export const stationRequestSchema = z.strictObject({
  schemaVersion: z.literal('1'),
  stationSeed: z.string().max(LIMITS.musicStationSeedCharsMax),
  affinities: z
    .array(z.strictObject({ kind: z.enum(STATION_KINDS), value: stationValue, weight: z.number().min(-1).max(1) }))
    .max(LIMITS.musicStationAffinitiesMax),
  votes: z.array(z.strictObject({ canonicalId: stationValue, vote: z.enum(['up', 'down']) })).max(LIMITS.musicStationVotesMax),
  hardExclusions: z.array(z.strictObject({ kind: z.enum(STATION_KINDS), value: stationValue })).max(LIMITS.musicStationExclusionsMax),
  recentCanonicalIds: z.array(stationValue).max(LIMITS.musicStationRecentMax),
  limit: z.number().int().min(1).max(LIMITS.musicStationTracksMax),
  intent: z.string().max(LIMITS.musicStationIntentCharsMax).optional(),
  context: z.enum(STATION_CONTEXTS).optional(),
});

export type StationRequest = z.output<typeof stationRequestSchema>;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/;

/** A JSON path such as `profile.music.artists[3].stance`; odd keys are not echoed. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (typeof segment === 'string' && IDENTIFIER.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += '[(unnamed key)]';
  }
  return out === '' ? '(the body)' : out;
}

function describe(issue: z.core.$ZodIssue): { path: string; problem: string } {
  switch (issue.code) {
    case 'unrecognized_keys': {
      const key = issue.keys[0] ?? '';
      const path = formatPath([...issue.path, key]);
      return { path, problem: 'is not a field of the contract (unknown fields are rejected)' };
    }
    case 'invalid_type':
      return {
        path: formatPath(issue.path),
        problem: issue.input === undefined ? `is required (expected ${issue.expected})` : `has the wrong type (expected ${issue.expected})`,
      };
    case 'too_big':
      return {
        path: formatPath(issue.path),
        problem: `exceeds its bound (at most ${String(issue.maximum)}${issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : ''})`,
      };
    case 'too_small':
      return {
        path: formatPath(issue.path),
        problem: `is below its bound (at least ${String(issue.minimum)}${issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : ''})`,
      };
    case 'invalid_value':
      return { path: formatPath(issue.path), problem: `is not one of the accepted values (${issue.values.map((v) => JSON.stringify(v)).join(', ')})` };
    case 'custom':
      return { path: formatPath(issue.path), problem: `has more than ${LIMITS.musicExternalIdSchemesMax} schemes` };
    default:
      return { path: formatPath(issue.path), problem: 'does not match the contract' };
  }
}

/** Validates a parsed JSON body; throws `music-invalid` naming the first failing path. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const issues = result.error.issues;
  const { path, problem } = describe(issues[0]!);
  const more = issues.length > 1 ? ` (${issues.length - 1} more problem${issues.length > 2 ? 's' : ''} not listed)` : '';
  throw new PublicError('music-invalid', `\`${path}\` ${problem}${more}; fix the request body to match the contract.`);
}

export const parseIntersectionRequest = (input: unknown): IntersectionRequest => parseWith(intersectionRequestSchema, input);
export const parseStationRequest = (input: unknown): StationRequest => parseWith(stationRequestSchema, input);
