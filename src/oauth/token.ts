/**
 * The token endpoint (`POST /oauth/token`, form-encoded) and revocation (RFC 7009).
 *
 * Checks in order: the body is a form within its bound, no parameter repeated; a body
 * with `token` and no `grant_type` is a revocation (SPEC §5); `client_id` names a live
 * client (else 401 `invalid_client`); then by `grant_type`:
 *
 * - `authorization_code`: the code is spent at once (single use decided in the store);
 *   a code used before is `invalid_grant` and, when its own client presents it again,
 *   revokes the grant its first use created (RFC 6749 §4.1.2: the server "SHOULD revoke
 *   (when possible) all tokens previously issued based on that authorization code"; a
 *   code leaked to another client must not let that client end the owner's grant); then expiry, client, exact redirect URI, the
 *   verifier against the S256 challenge, and `resource` (RFC 8707, `invalid_target`).
 * - `refresh_token`: the token must be live and the client's; it is rotated — spent and
 *   replaced by a new one (RFC 9700 §4.14.2) — and a rotated token presented again is
 *   `invalid_grant` and revokes the whole grant, since either the client or a thief holds
 *   a copy; `resource` must match, and `scope` may only narrow the token presented
 *   (never widen it back to the grant's); a grant approved by a subject that is no
 *   longer `OWNER_SUBJECT` is not refreshed.
 *
 * Every token response carries `me`, the site's canonical URL (IndieAuth §5.3.3), and
 * with the `profile` scope a `profile` naming it. Access tokens are opaque 256-bit random values living one hour; every secret is stored
 * as its SHA-256 (src/oauth/store.ts). Every answer is `Cache-Control: no-store`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { LIMITS } from '../core/limits.ts';
import type { Answer, RequestFacts } from '../http/answer.ts';
import type { OAuthContext } from './context.ts';
import { formParams, jsonAnswer, NO_STORE, oauthError, type Params } from './http.ts';
import { profileUrl } from './profile.ts';
import { heldScopes, parseScopes, SCOPE } from './scopes.ts';
import type { ClientRecord, GrantRecord } from './store.ts';

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

const secret = () => randomBytes(32).toString('base64url');

function s256Matches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/** Issues an access token (and a refresh token, when the client registered that grant) under the grant, and the token response. */
function issue(ctx: OAuthContext, grant: GrantRecord, scopes: string[], withRefresh: boolean): Answer {
  const now = ctx.now();
  const access = secret();
  const base = { grantId: grant.id, clientId: grant.clientId, scopes, resource: grant.resource, usedAt: null };
  ctx.store.putToken(access, { ...base, kind: 'access', expiresAt: now + LIMITS.oauthAccessTokenSeconds * 1000 });
  const response: Record<string, string | number | object> = {
    access_token: access,
    token_type: 'Bearer',
    expires_in: LIMITS.oauthAccessTokenSeconds,
    scope: scopes.join(' '),
    // IndieAuth §5.3.3: every token response names the user's canonical profile URL, which is the site's.
    me: profileUrl(ctx.config.siteUrl),
  };
  if (scopes.includes(SCOPE.profile)) response.profile = { url: profileUrl(ctx.config.siteUrl) };
  if (withRefresh) {
    const refresh = secret();
    ctx.store.putToken(refresh, { ...base, kind: 'refresh', expiresAt: now + LIMITS.oauthRefreshTokenSeconds * 1000 });
    response.refresh_token = refresh;
  }
  ctx.store.touchGrant(grant.id, now);
  return jsonAnswer(200, response);
}

function exchangeCode(ctx: OAuthContext, params: Params, client: ClientRecord): Answer {
  const clientId = client.clientId;
  const code = params.get('code');
  if (!code) return oauthError('invalid_request', 'code is required.');
  const now = ctx.now();
  const spent = ctx.store.takeCode(code, now);
  if (!spent) return oauthError('invalid_grant', 'The code is not valid; start the authorization again.');
  if (!spent.first) {
    if (spent.grantId && spent.record.clientId === clientId) ctx.store.revokeGrant(spent.grantId, now);
    return oauthError('invalid_grant', 'The code was already used; every token issued from it is revoked. Start the authorization again.');
  }
  const record = spent.record;
  if (record.expiresAt <= now) return oauthError('invalid_grant', 'The code expired (codes live 60 seconds); start the authorization again.');
  if (record.clientId !== clientId) return oauthError('invalid_grant', 'The code was issued to another client.');
  if (params.get('redirect_uri') !== record.redirectUri) return oauthError('invalid_grant', 'redirect_uri must be the one sent in the authorization request.');
  const verifier = params.get('code_verifier');
  if (!verifier || !VERIFIER.test(verifier) || !s256Matches(verifier, record.codeChallenge)) {
    return oauthError('invalid_grant', 'code_verifier does not match the code_challenge of the authorization request.');
  }
  const resource = params.get('resource');
  if (resource !== undefined && resource !== record.resource) return oauthError('invalid_target', `resource must be ${record.resource}.`);
  const grant: GrantRecord = {
    id: `grant_${randomBytes(12).toString('base64url')}`,
    clientId,
    clientName: record.clientName,
    subject: record.subject,
    scopes: record.scopes,
    resource: record.resource,
    createdAt: now,
    lastUsedAt: now,
    revokedAt: null,
  };
  ctx.store.createGrant(grant);
  ctx.store.setCodeGrant(code, grant.id);
  return issue(ctx, grant, grant.scopes, client.metadata.grant_types.includes('refresh_token'));
}

function refresh(ctx: OAuthContext, params: Params, clientId: string): Answer {
  const token = params.get('refresh_token');
  if (!token) return oauthError('invalid_request', 'refresh_token is required.');
  const now = ctx.now();
  const record = ctx.store.getToken(token);
  const grant = record && ctx.store.getGrant(record.grantId);
  if (!record || record.kind !== 'refresh' || !grant || grant.revokedAt !== null)
    return oauthError('invalid_grant', 'The refresh token is not valid; authorize again.');
  if (record.clientId !== clientId) return oauthError('invalid_grant', 'The refresh token was issued to another client.');
  if (grant.subject !== ctx.signIn?.subject)
    return oauthError('invalid_grant', 'The grant was approved by someone who is no longer the owner of this site; authorize again.');
  const replayed = () => {
    ctx.store.revokeGrant(grant.id, now);
    return oauthError('invalid_grant', 'The refresh token was already used (each refresh returns a new one); the grant is revoked. Authorize again.');
  };
  if (record.usedAt !== null) return replayed();
  if (record.expiresAt <= now) return oauthError('invalid_grant', 'The refresh token expired; authorize again.');
  // A malformed request is refused before the token is spent, so a client's mistake does not cost it the grant.
  const resource = params.get('resource');
  if (resource !== undefined && resource !== record.resource) return oauthError('invalid_target', `resource must be ${record.resource}.`);
  let scopes = record.scopes;
  if (params.has('scope')) {
    const asked = parseScopes(params.get('scope'));
    const held = heldScopes(record.scopes);
    if (!asked || !asked.every((s) => held.has(s)))
      return oauthError('invalid_scope', 'A refresh may only narrow the scopes of the token presented, never widen them.');
    scopes = asked;
  }
  if (!ctx.store.useToken(token, now)) return replayed();
  return issue(ctx, grant, scopes, true);
}

/**
 * RFC 7009: revokes the token if this client holds it, and answers 200 whatever the
 * token was (§2.2: an invalid token is not an error). A refresh token takes its whole
 * grant with it (§2.1: access tokens "based on the same authorization grant"); an access
 * token goes alone.
 */
export async function revoke(ctx: OAuthContext, facts: RequestFacts, body: Uint8Array | null): Promise<Answer> {
  const params = formParams(facts.header('Content-Type'), body, LIMITS.oauthFormBytesMax);
  if (!(params instanceof Map)) return params;
  return revokeWith(ctx, params);
}

async function revokeWith(ctx: OAuthContext, params: Params): Promise<Answer> {
  const token = params.get('token');
  if (!token) return oauthError('invalid_request', 'token is required.');
  const clientId = params.get('client_id');
  if (!clientId) return oauthError('invalid_client', 'client_id is required.');
  const lookup = await ctx.client(clientId, 'token');
  if ('error' in lookup) return oauthError('invalid_client', lookup.description);
  const record = ctx.store.getToken(token);
  if (record && record.clientId === clientId) {
    if (record.kind === 'refresh') ctx.store.revokeGrant(record.grantId, ctx.now());
    else ctx.store.deleteToken(token);
  }
  return { status: 200, headers: { ...NO_STORE, 'Content-Length': '0' }, body: null };
}

export async function token(ctx: OAuthContext, facts: RequestFacts, body: Uint8Array | null): Promise<Answer> {
  const params = formParams(facts.header('Content-Type'), body, LIMITS.oauthFormBytesMax);
  if (!(params instanceof Map)) return params;
  const grantType = params.get('grant_type');
  if (grantType === undefined && params.has('token')) return revokeWith(ctx, params);
  const clientId = params.get('client_id');
  if (!clientId) return oauthError('invalid_client', 'client_id is required (public clients identify themselves with it).');
  const lookup = await ctx.client(clientId, 'token');
  if ('error' in lookup) return oauthError('invalid_client', lookup.description);
  if (grantType === 'authorization_code') return exchangeCode(ctx, params, lookup.client);
  if (grantType === 'refresh_token') {
    if (!lookup.client.metadata.grant_types.includes('refresh_token'))
      return oauthError('unauthorized_client', 'This client did not register the refresh_token grant.');
    return refresh(ctx, params, clientId);
  }
  if (grantType === undefined) return oauthError('invalid_request', 'grant_type is required.');
  return oauthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
}
