/**
 * The owner lane's scopes (SPEC §5): task-shaped `taste:*` permissions, each with the
 * plain words the consent page shows. `taste:read` reads; `taste:log`, `taste:rate` and
 * `taste:stance` each allow one write tool (`taste.log`, `taste.rate`,
 * `music.set_stance`); `taste:write`, the legacy-compatible scope, allows all three.
 * Beside them, the IndieAuth scopes Micropub clients ask for (issue 40; IndieAuth
 * Living Standard §5.3, Micropub §3.8): `create`, `update`, `delete`, `media` and
 * `draft`, each mapped onto what the owner lane already lets a grant do (`create` is
 * `taste:log` under its Micropub name), and `profile`, an identity scope that lets the
 * token response name the site's profile and changes nothing. `taste:write` includes the
 * Micropub write scopes, since it already allows every change. The metadata documents
 * advertise exactly these, and an authorization request naming any other is
 * `invalid_scope`.
 */

/** Every scope's name, spelled once: the endpoint, its tools, the metadata and the OpenAPI description name scopes through these. */
export const SCOPE = {
  /** Every call to the owner endpoint, and its read tool. */
  read: 'taste:read',
  /** The legacy-compatible scope that allows every write tool: what a write's 403 challenge names. */
  write: 'taste:write',
  log: 'taste:log',
  rate: 'taste:rate',
  stance: 'taste:stance',
  /** Micropub: create posts (a new record, or a repeat of one: a rewatch, a re-read). */
  create: 'create',
  /** Micropub: change a post's properties (a record's fields). */
  update: 'update',
  /** Micropub: delete and undelete posts (the record is hidden, never erased). */
  delete: 'delete',
  /** Micropub: upload images to the media endpoint. */
  media: 'media',
  /** Micropub: create posts as drafts only (private records, on no public surface). */
  draft: 'draft',
  /** IndieAuth: the token response names the site's profile (its URL); allows nothing else. */
  profile: 'profile',
} as const;

export type Scope = (typeof SCOPE)[keyof typeof SCOPE];

/** Each scope with what the consent page says it allows, in the order the metadata lists them. */
export const SCOPES: Readonly<Record<Scope, string>> = {
  [SCOPE.read]: 'Read your collections through the owner endpoint (the same records the public site shows).',
  [SCOPE.write]: 'Read and change your collections: add records, set ratings and recommendations, set music stances. Each change edits your content files.',
  [SCOPE.log]: 'Read your collections and add records to them (taste.log). Each record is a new content file.',
  [SCOPE.rate]: 'Read your collections and set ratings and recommendations (taste.rate). Each change edits a content file.',
  [SCOPE.stance]: 'Read your collections and set how you feel about music (music.set_stance). Each change edits a content file.',
  [SCOPE.create]:
    'Post to your collections from an app (Micropub create): a film, a book, a check-in, a listen or an event becomes a new record, or updates the one it repeats. Each post writes a content file.',
  [SCOPE.update]: 'Change the fields of records posted or kept in your collections (Micropub update). Each change edits a content file.',
  [SCOPE.delete]:
    'Delete records from every public surface and restore them (Micropub delete and undelete): the record is marked private in its file, never erased.',
  [SCOPE.media]: 'Upload images to your site (the Micropub media endpoint): each is a new file in your content’s media folder, published with the next build.',
  [SCOPE.draft]: 'Post to your collections as drafts only: each post becomes a private record that no public surface shows until you publish it.',
  [SCOPE.profile]: 'Know your site’s address as your profile (IndieAuth). Allows no reading or change by itself.',
};

export const SCOPE_NAMES = Object.keys(SCOPES) as Scope[];

/** What a request without `scope` gets: reading only, the least a client can do. */
export const DEFAULT_SCOPES: readonly Scope[] = [SCOPE.read];

export const isScope = (name: string): name is Scope => Object.hasOwn(SCOPES, name);

/**
 * What a granted scope includes besides itself: every task scope includes reading (each
 * call to the owner endpoint reads), and `taste:write` includes every task scope. So a
 * client that authorizes again with exactly a write challenge's `scope="taste:write"`
 * (the MCP SDK's step-up does) keeps every call it had.
 */
const INCLUDES: Readonly<Record<Scope, readonly Scope[]>> = {
  [SCOPE.read]: [],
  [SCOPE.write]: [SCOPE.read, SCOPE.log, SCOPE.rate, SCOPE.stance, SCOPE.create, SCOPE.update, SCOPE.delete, SCOPE.media, SCOPE.draft],
  [SCOPE.log]: [SCOPE.read],
  [SCOPE.rate]: [SCOPE.read],
  [SCOPE.stance]: [SCOPE.read],
  // Micropub's scopes each read (q=source reads a record back) and map onto the owner
  // lane's own: `create` adds records as `taste:log` does, and a draft is a created post.
  [SCOPE.create]: [SCOPE.read, SCOPE.log, SCOPE.draft],
  [SCOPE.update]: [SCOPE.read],
  [SCOPE.delete]: [SCOPE.read],
  [SCOPE.media]: [SCOPE.read],
  [SCOPE.draft]: [SCOPE.read],
  [SCOPE.profile]: [],
};

/** Every scope a grant of `granted` holds, the included ones too. */
export function heldScopes(granted: readonly string[]): Set<string> {
  return new Set(granted.flatMap((scope) => [scope, ...(isScope(scope) ? INCLUDES[scope] : [])]));
}

/**
 * A `scope` parameter (RFC 6749 §3.3: space-delimited, order irrelevant) as a sorted list
 * without repeats; undefined when it names a scope this server does not have.
 */
export function parseScopes(value: string | null | undefined): Scope[] | undefined {
  if (value === null || value === undefined || value.trim() === '') return [...DEFAULT_SCOPES];
  const names = [...new Set(value.split(' ').filter(Boolean))];
  if (!names.every(isScope)) return undefined;
  return names.sort();
}
