/**
 * The owner lane's scopes (SPEC §5): task-shaped `taste:*` permissions, each with the
 * plain words the consent page shows. `taste:read` reads; `taste:log`, `taste:rate` and
 * `taste:stance` each allow one write tool (`taste.log`, `taste.rate`,
 * `music.set_stance`); `taste:write`, the legacy-compatible scope, allows all three. The
 * metadata documents advertise exactly these, and an authorization request naming any
 * other is `invalid_scope`.
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
} as const;

export type Scope = (typeof SCOPE)[keyof typeof SCOPE];

/** Each scope with what the consent page says it allows, in the order the metadata lists them. */
export const SCOPES: Readonly<Record<Scope, string>> = {
  [SCOPE.read]: 'Read your collections through the owner endpoint (the same records the public site shows).',
  [SCOPE.write]: 'Read and change your collections: add records, set ratings and recommendations, set music stances. Each change edits your content files.',
  [SCOPE.log]: 'Read your collections and add records to them (taste.log). Each record is a new content file.',
  [SCOPE.rate]: 'Read your collections and set ratings and recommendations (taste.rate). Each change edits a content file.',
  [SCOPE.stance]: 'Read your collections and set how you feel about music (music.set_stance). Each change edits a content file.',
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
  [SCOPE.write]: [SCOPE.read, SCOPE.log, SCOPE.rate, SCOPE.stance],
  [SCOPE.log]: [SCOPE.read],
  [SCOPE.rate]: [SCOPE.read],
  [SCOPE.stance]: [SCOPE.read],
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
