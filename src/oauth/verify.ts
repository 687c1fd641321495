/**
 * The one check a protected resource makes: `verifyAccessToken(token, resource)`. It is
 * what `/owner/mcp` calls for every request (issue 17, items 6–7), and nothing on a
 * public surface ever calls it. A token is accepted only when it is an access token this
 * server issued (looked up by its SHA-256), unexpired, under a grant that is not revoked
 * and was approved by the current `OWNER_SUBJECT`,
 * whose client registration is still live, and issued for exactly this resource
 * (audience binding, RFC 8707 §2 / RFC 9068 §4: a token for another resource is refused,
 * so a token cannot be replayed elsewhere). Each use stamps the grant's "last used" for
 * the connected-clients page.
 *
 * `bearerChallenge` spells the `WWW-Authenticate` answer of RFC 6750 §3 with the RFC 9728
 * §5.1 `resource_metadata` parameter, and `authorizeBearer` puts it all together for a
 * request: no token → 401 naming the metadata and the scope to ask for; a bad, expired,
 * revoked or foreign token → 401 `invalid_token`; a token without the scope the call
 * needs → 403 `insufficient_scope` naming it (RFC 6750 §3.1).
 *
 * How `/owner/mcp` uses it (the runtime's `rt.oauth` is the process's `OAuthServer`):
 *
 *     const decision = rt.oauth.authorizeBearer(request.header('Authorization'), write ? 'taste:write' : 'taste:read');
 *     if (!decision.ok) return json(decision.status, { error: …, error_description: decision.description }, { 'WWW-Authenticate': decision.wwwAuthenticate });
 *     // decision.token: { clientId, scopes, grantId, subject, expiresAt } — the client to journal a write under.
 */
import type { OAuthContext } from './context.ts';
import { heldScopes } from './scopes.ts';

export interface VerifiedToken {
  clientId: string;
  scopes: string[];
  grantId: string;
  /** The owner's subject at their identity provider, who approved the grant. */
  subject: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

/** Why a token is refused: always 401 `invalid_token` (RFC 6750 §3.1); the description is safe to send. */
export interface TokenRefusal {
  error: 'invalid_token';
  description: string;
}

export type TokenVerification = ({ ok: true } & VerifiedToken) | ({ ok: false } & TokenRefusal);

const LAST_USED_RESOLUTION_MS = 60_000;

/** Longest token examined: ours are 43 characters; anything much longer is not worth hashing. */
const TOKEN_CHARS_MAX = 512;

export function verifyAccessToken(ctx: OAuthContext, token: string, resource: string): TokenVerification {
  const refuse = (description: string): TokenVerification => ({ ok: false, error: 'invalid_token', description });
  if (token.length === 0 || token.length > TOKEN_CHARS_MAX) return refuse('The access token is not valid.');
  const now = ctx.now();
  const record = ctx.store.getToken(token);
  if (!record || record.kind !== 'access') return refuse('The access token is not valid.');
  if (record.expiresAt <= now) return refuse('The access token expired; refresh it.');
  const grant = ctx.store.getGrant(record.grantId);
  if (!grant || grant.revokedAt !== null) return refuse('The access token was revoked.');
  // Only the owner's approval counts: a grant approved by a former OWNER_SUBJECT (or with the lane no longer set up) grants nothing.
  if (grant.subject !== ctx.signIn?.subject)
    return refuse('The access token was approved by someone who is no longer the owner of this site; authorize again.');
  const client = ctx.store.getClient(record.clientId);
  if (client && client.expiresAt <= now) return refuse('The client registration expired; register again.');
  if (record.resource !== resource) return refuse('The access token was issued for another resource.');
  // "Last used" is for people: stamped at most once a minute, so a busy agent does not write on every call.
  if (grant.lastUsedAt === null || now - grant.lastUsedAt >= LAST_USED_RESOLUTION_MS) ctx.store.touchGrant(grant.id, now);
  return { ok: true, clientId: record.clientId, scopes: record.scopes, grantId: grant.id, subject: grant.subject, expiresAt: record.expiresAt };
}

/** The token of an `Authorization: Bearer …` header (RFC 6750 §2.1), or undefined. */
export function bearerToken(authorization: string | null): string | undefined {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(authorization ?? '');
  return match?.[1];
}

/**
 * `WWW-Authenticate` for a refused request: `Bearer resource_metadata="…", scope="…"`,
 * with `error` and `error_description` when a token was presented (RFC 6750 §3.1 omits
 * them when the request had none).
 */
export function bearerChallenge(options: {
  resourceMetadata: string;
  scope: string;
  error?: 'invalid_token' | 'insufficient_scope';
  description?: string;
}): string {
  const quote = (value: string) => `"${value.replace(/["\\]/g, '')}"`;
  const parts = [`resource_metadata=${quote(options.resourceMetadata)}`, `scope=${quote(options.scope)}`];
  if (options.error) parts.push(`error=${quote(options.error)}`);
  if (options.description) parts.push(`error_description=${quote(options.description)}`);
  return `Bearer ${parts.join(', ')}`;
}

/** What a protected request gets: the verified token, or the status and challenge to refuse it with. */
export type BearerDecision = { ok: true; token: VerifiedToken } | { ok: false; status: 401 | 403; wwwAuthenticate: string; description: string };

/**
 * The whole bearer check of a request to the resource: the `Authorization` header, the
 * token, its resource, and the scope (or space-separated scopes) the call needs;
 * `challengeScope`, when given, is what a 403 tells the client to ask for instead. `resourceMetadata` is the URL of the
 * resource's RFC 9728 document, which every challenge names so a client can discover
 * where to authorize.
 */
export function authorizeBearer(
  ctx: OAuthContext,
  authorization: string | null,
  need: { resource: string; resourceMetadata: string; scope: string; challengeScope?: string },
): BearerDecision {
  const token = bearerToken(authorization);
  if (token === undefined) {
    const description = 'This resource needs an access token (Authorization: Bearer).';
    return { ok: false, status: 401, description, wwwAuthenticate: bearerChallenge({ resourceMetadata: need.resourceMetadata, scope: need.scope }) };
  }
  const verified = verifyAccessToken(ctx, token, need.resource);
  if (!verified.ok) {
    return {
      ok: false,
      status: 401,
      description: verified.description,
      wwwAuthenticate: bearerChallenge({
        resourceMetadata: need.resourceMetadata,
        scope: need.scope,
        error: 'invalid_token',
        description: verified.description,
      }),
    };
  }
  // `need.scope` may name several scopes (space-separated): the call needs every one.
  const held = heldScopes(verified.scopes);
  if (!need.scope.split(' ').every((scope) => held.has(scope))) {
    // The challenge may name a scope that includes what is missing (`taste:write` for a task scope): the one to ask for.
    const ask = need.challengeScope ?? need.scope;
    const plural = need.scope.includes(' ');
    const description =
      ask === need.scope
        ? `This call needs the ${need.scope} scope${plural ? 's' : ''}; authorize again asking for ${plural ? 'them' : 'it'}.`
        : `This call needs the ${need.scope} scope${plural ? 's' : ''} (${ask} includes ${plural ? 'them' : 'it'}); authorize again asking for ${ask}.`;
    return {
      ok: false,
      status: 403,
      description,
      wwwAuthenticate: bearerChallenge({ resourceMetadata: need.resourceMetadata, scope: ask, error: 'insufficient_scope', description }),
    };
  }
  const { ok: _ok, ...rest } = verified;
  return { ok: true, token: rest };
}
