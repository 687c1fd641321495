/**
 * JSON Schema (2020-12) of the portable music taste profile, version 1: the document at
 * `/.well-known/taste-profile.json` and the `profile` the music intersection endpoint
 * accepts. Closed everywhere except `externalIds`, where unknown ID schemes are allowed
 * (and ignored) as short strings. Bounds come from LIMIT_DEFINITIONS.
 */
import { LIMITS } from '../core/limits.ts';
import { URLS } from '../urls.ts';

const text = { type: 'string', minLength: 1, maxLength: LIMITS.musicNameCharsMax } as const;
const stance = { enum: ['love', 'like', 'neutral', 'dislike'] } as const;
const idValue = { type: 'string', minLength: 1, maxLength: LIMITS.musicExternalIdCharsMax } as const;

/** The same bounds the intersection endpoint enforces: unknown schemes allowed (and ignored there), at most so many. */
const externalIds = (known: readonly string[]) =>
  ({
    type: 'object',
    properties: Object.fromEntries(known.map((k) => [k, idValue])),
    additionalProperties: idValue,
    maxProperties: LIMITS.musicExternalIdSchemesMax,
  }) as const;

const list = (items: object) => ({ type: 'array', maxItems: LIMITS.musicListItemsMax, items }) as const;

export const TASTE_PROFILE_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: URLS.tasteProfileSchema,
  title: 'Portable music taste profile, version 1',
  type: 'object',
  additionalProperties: false,
  required: ['schemaVersion', 'music'],
  properties: {
    schemaVersion: { const: '1' },
    music: {
      type: 'object',
      additionalProperties: false,
      required: ['artists', 'recordings', 'albums', 'genres', 'notes'],
      properties: {
        artists: list({
          type: 'object',
          additionalProperties: false,
          required: ['name', 'stance'],
          properties: { name: text, stance, externalIds: externalIds(['musicbrainz']) },
        }),
        recordings: list({
          type: 'object',
          additionalProperties: false,
          required: ['title', 'artist', 'stance'],
          properties: { title: text, artist: text, stance, externalIds: externalIds(['isrc', 'musicbrainz', 'spotify']) },
        }),
        albums: list({
          type: 'object',
          additionalProperties: false,
          required: ['title', 'artist', 'stance'],
          properties: { title: text, artist: text, stance, externalIds: externalIds(['musicbrainz', 'spotify']) },
        }),
        genres: list({
          type: 'object',
          additionalProperties: false,
          required: ['name', 'stance'],
          properties: { name: text, stance },
        }),
        notes: {
          type: 'array',
          maxItems: LIMITS.musicNotesMax,
          items: { type: 'string', minLength: 1, maxLength: LIMITS.musicNoteCharsMax },
        },
      },
    },
  },
} as const;
