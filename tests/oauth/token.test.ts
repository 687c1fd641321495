/**
 * The token endpoint's refusals and the token checks a protected resource relies on:
 * wrong verifier, wrong redirect URI, another client, a reused code (revoking what it
 * issued), an expired code, a rotated refresh token reused (revoking the grant), a wrong
 * resource, an expired client, revocation of one access token, revocation through the
 * token endpoint (SPEC §5), and `verifyAccessToken` on each of these.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as oauth from 'oauth4webapi';
import { LIMITS } from '../../src/core/limits.ts';
import { bearerChallenge, bearerToken } from '../../src/oauth/verify.ts';
import { OAUTH_URLS } from '../../src/urls.ts';
import { Agent, insecure, oauthErrorOf, REDIRECT, startAgentSite } from './agent.ts';
import type { Site } from './helpers.ts';

let site: Site & { idp?: { issuer: string } };
let agent: Agent;

before(async () => ({ site, agent } = await startAgentSite()));
after(() => site.stop());

const form = (values: Record<string, string>) =>
  fetch(`${site.base}${OAUTH_URLS.token}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(values).toString(),
  });

/** An approved authorization, not yet exchanged. */
async function approval(scope = 'taste:read taste:write') {
  const client = await agent.register();
  const attempt = await agent.authorizationUrl(client, { scope });
  return { client, attempt, params: await agent.approved(client, attempt) };
}

test('a wrong code_verifier is invalid_grant, and spends the code', async () => {
  const { client, attempt, params } = await approval();
  assert.equal(await oauthErrorOf(agent.exchange(client, params, oauth.generateRandomCodeVerifier())), 'invalid_grant');
  assert.equal(await oauthErrorOf(agent.exchange(client, params, attempt.verifier)), 'invalid_grant', 'single use, even after a failure');
});

test('a missing or malformed code_verifier, another redirect URI, another client: invalid_grant', async () => {
  const { client, attempt, params } = await approval();
  const code = params.get('code')!;
  const base = { grant_type: 'authorization_code', client_id: client.client_id, code, redirect_uri: REDIRECT, resource: site.resource };
  for (const values of [{ ...base }, { ...base, code_verifier: 'short' }]) {
    const response = await form(values);
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { error: string }).error, 'invalid_grant');
  }
  const other = await approval();
  const mismatched = await form({
    ...base,
    code: other.params.get('code')!,
    redirect_uri: 'http://127.0.0.1:9/elsewhere',
    code_verifier: other.attempt.verifier,
    client_id: other.client.client_id,
  });
  assert.equal(((await mismatched.json()) as { error: string }).error, 'invalid_grant');
  const third = await approval();
  const stolen = await form({ ...base, code: third.params.get('code')!, code_verifier: third.attempt.verifier, client_id: client.client_id });
  assert.equal(((await stolen.json()) as { error: string }).error, 'invalid_grant', 'a code is bound to its client');
  void attempt;
});

test('a reused code is invalid_grant, and revokes every token issued from it', async () => {
  const { client, attempt, params } = await approval();
  const tokens = await agent.exchange(client, params, attempt.verifier);
  assert.ok(site.oauth.verifyAccessToken(tokens.access_token).ok);
  assert.equal(await oauthErrorOf(agent.exchange(client, params, attempt.verifier)), 'invalid_grant');
  assert.equal(site.oauth.verifyAccessToken(tokens.access_token).ok, false);
  assert.equal(await oauthErrorOf(agent.refresh(client, tokens.refresh_token!)), 'invalid_grant');
});

test('a code lives 60 seconds', async () => {
  const { client, attempt, params } = await approval();
  site.advance(LIMITS.oauthCodeSeconds * 1000 + 1);
  assert.equal(await oauthErrorOf(agent.exchange(client, params, attempt.verifier)), 'invalid_grant');
});

test('a rotated refresh token used again is invalid_grant, and revokes the whole grant', async () => {
  const { client, tokens } = await agent.connect();
  const first = await agent.refresh(client, tokens.refresh_token!);
  const second = await agent.refresh(client, first.refresh_token!);
  assert.equal(await oauthErrorOf(agent.refresh(client, tokens.refresh_token!)), 'invalid_grant', 'the replayed, rotated token');
  assert.equal(site.oauth.verifyAccessToken(second.access_token).ok, false, 'the newest access token went with the grant');
  assert.equal(await oauthErrorOf(agent.refresh(client, second.refresh_token!)), 'invalid_grant', 'and the newest refresh token');
});

test('a resource other than the owner MCP URL is invalid_target at exchange and refresh, and a token is refused by another resource', async () => {
  const { client, attempt, params } = await approval();
  assert.equal(await oauthErrorOf(agent.exchange(client, params, attempt.verifier, `${site.base}/mcp`)), 'invalid_target');
  const { client: c2, tokens } = await agent.connect();
  assert.equal(await oauthErrorOf(agent.refresh(c2, tokens.refresh_token!, 'https://elsewhere.example/owner/mcp')), 'invalid_target');
  assert.ok((await agent.refresh(c2, tokens.refresh_token!)).access_token, 'a refused request did not spend the refresh token');
  const verified = site.oauth.verifyAccessToken(tokens.access_token, `${site.base}/mcp`);
  assert.equal(verified.ok, false);
  assert.equal(!verified.ok && verified.error, 'invalid_token');
  assert.ok(site.oauth.verifyAccessToken(tokens.access_token, site.resource).ok);
});

test('a refresh may narrow the scopes, never widen them', async () => {
  const { client, tokens } = await agent.connect('taste:read');
  const response = await oauth.refreshTokenGrantRequest(agent.as, client, oauth.None(), tokens.refresh_token!, {
    ...insecure,
    additionalParameters: { scope: 'taste:read taste:write' },
  });
  assert.equal(await oauthErrorOf(oauth.processRefreshTokenResponse(agent.as, client, response)), 'invalid_scope');
  const wide = await agent.connect();
  const narrowed = await oauth.processRefreshTokenResponse(
    agent.as,
    wide.client,
    await oauth.refreshTokenGrantRequest(agent.as, wide.client, oauth.None(), wide.tokens.refresh_token!, {
      ...insecure,
      additionalParameters: { scope: 'taste:read' },
    }),
  );
  assert.equal(narrowed.scope, 'taste:read');
  const verified = site.oauth.verifyAccessToken(narrowed.access_token);
  assert.ok(verified.ok);
  assert.deepEqual(verified.scopes, ['taste:read']);
});

test('a client that did not register the refresh_token grant gets no refresh token, and cannot refresh', async () => {
  const registered = await fetch(`${site.base}${OAUTH_URLS.register}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [REDIRECT], grant_types: ['authorization_code'] }),
  });
  const client = { client_id: ((await registered.json()) as { client_id: string }).client_id, token_endpoint_auth_method: 'none' as const };
  const attempt = await agent.authorizationUrl(client);
  const tokens = await agent.exchange(client, await agent.approved(client, attempt), attempt.verifier);
  assert.equal(tokens.refresh_token, undefined);
  assert.ok(site.oauth.verifyAccessToken(tokens.access_token).ok);
  const response = await form({ grant_type: 'refresh_token', client_id: client.client_id, refresh_token: 'x' });
  assert.equal(((await response.json()) as { error: string }).error, 'unauthorized_client');
});

test('access tokens live one hour', async () => {
  const { tokens } = await agent.connect();
  site.advance(LIMITS.oauthAccessTokenSeconds * 1000 - 1);
  assert.ok(site.oauth.verifyAccessToken(tokens.access_token).ok);
  site.advance(1);
  const expired = site.oauth.verifyAccessToken(tokens.access_token);
  assert.equal(expired.ok, false);
});

test('revoking an access token revokes it alone; revoking through the token endpoint (no grant_type) works too', async () => {
  const { client, tokens } = await agent.connect();
  await agent.revoke(client, tokens.access_token);
  assert.equal(site.oauth.verifyAccessToken(tokens.access_token).ok, false);
  const refreshed = await agent.refresh(client, tokens.refresh_token!);
  assert.ok(site.oauth.verifyAccessToken(refreshed.access_token).ok, 'the grant lives on');
  const response = await form({ client_id: client.client_id, token: refreshed.refresh_token!, token_type_hint: 'refresh_token' });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('cache-control'), 'no-store');
  assert.equal(site.oauth.verifyAccessToken(refreshed.access_token).ok, false, 'a refresh token takes its grant along');
});

test('revocation: an unknown token is fine (RFC 7009 §2.2); another client cannot revoke a token it does not hold', async () => {
  const { client, tokens } = await agent.connect();
  const other = await agent.register();
  await agent.revoke(other, tokens.access_token);
  assert.ok(site.oauth.verifyAccessToken(tokens.access_token).ok);
  await agent.revoke(client, 'no-such-token');
  const unknownClient = await fetch(`${site.base}${OAUTH_URLS.revoke}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'client_id=client_nobody&token=x',
  });
  assert.equal(unknownClient.status, 401);
  assert.equal(((await unknownClient.json()) as { error: string }).error, 'invalid_client');
});

test('the token endpoint refuses what is not a well-formed form: repeated parameters, JSON, no grant_type, another grant type', async () => {
  const client = await agent.register();
  const repeated = await fetch(`${site.base}${OAUTH_URLS.token}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: `grant_type=refresh_token&grant_type=authorization_code&client_id=${client.client_id}`,
  });
  assert.equal(((await repeated.json()) as { error: string }).error, 'invalid_request');
  const json = await fetch(`${site.base}${OAUTH_URLS.token}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  assert.equal(((await json.json()) as { error: string }).error, 'invalid_request');
  assert.equal(((await (await form({ client_id: client.client_id })).json()) as { error: string }).error, 'invalid_request');
  assert.equal(
    ((await (await form({ client_id: client.client_id, grant_type: 'client_credentials' })).json()) as { error: string }).error,
    'unsupported_grant_type',
  );
  const large = await form({ client_id: client.client_id, grant_type: 'refresh_token', refresh_token: 'x'.repeat(LIMITS.oauthFormBytesMax) });
  assert.equal(large.status, 413);
});

test('an expired client can no longer exchange or refresh: invalid_client', async () => {
  const { client, tokens } = await agent.connect();
  site.advance(LIMITS.oauthClientSeconds * 1000);
  assert.equal(await oauthErrorOf(agent.refresh(client, tokens.refresh_token!)), 'invalid_client');
  assert.equal(site.oauth.verifyAccessToken(tokens.access_token).ok, false);
});

test('authorizeBearer: no token 401 naming the metadata, a bad or foreign token 401 invalid_token, a missing scope 403 insufficient_scope', async () => {
  const metadata = `${site.base}${OAUTH_URLS.protectedResource}`;
  const none = site.oauth.authorizeBearer(null, 'taste:read');
  assert.equal(none.ok, false);
  assert.equal(!none.ok && none.status, 401);
  assert.equal(!none.ok && none.wwwAuthenticate, `Bearer resource_metadata="${metadata}", scope="taste:read"`);
  const bad = site.oauth.authorizeBearer('Bearer not-ours', 'taste:read');
  assert.equal(!bad.ok && bad.status, 401);
  assert.match(!bad.ok ? bad.wwwAuthenticate : '', /error="invalid_token"/);
  const { tokens } = await agent.connect('taste:read');
  const read = site.oauth.authorizeBearer(`Bearer ${tokens.access_token}`, 'taste:read');
  assert.ok(read.ok);
  assert.deepEqual(read.token.scopes, ['taste:read']);
  const write = site.oauth.authorizeBearer(`Bearer ${tokens.access_token}`, 'taste:write');
  assert.equal(!write.ok && write.status, 403);
  assert.match(!write.ok ? write.wwwAuthenticate : '', /^Bearer resource_metadata="[^"]+", scope="taste:write", error="insufficient_scope"/);
});

test('verifyAccessToken refuses what it did not issue; the bearer helpers spell RFC 6750 and RFC 9728', () => {
  for (const token of ['', 'x', 'x'.repeat(10_000)]) assert.equal(site.oauth.verifyAccessToken(token).ok, false);
  assert.equal(bearerToken('Bearer abc-DEF_1.2~3+/='), 'abc-DEF_1.2~3+/=');
  assert.equal(bearerToken('Basic abc'), undefined);
  assert.equal(bearerToken(null), undefined);
  assert.equal(
    bearerChallenge({ resourceMetadata: `${site.base}${OAUTH_URLS.protectedResource}`, scope: 'taste:write', error: 'insufficient_scope' }),
    `Bearer resource_metadata="${site.base}${OAUTH_URLS.protectedResource}", scope="taste:write", error="insufficient_scope"`,
  );
});
