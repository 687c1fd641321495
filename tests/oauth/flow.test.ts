/**
 * The owner lane end to end, over real HTTP on loopback: oauth4webapi as the client
 * (discovery from the resource URL, registration, authorization with PKCE, code
 * exchange, refresh, revocation), oidc-provider as the owner's identity provider, and a
 * cookie-keeping browser carrying the owner through sign-in and consent; grants
 * surviving a restart; nothing secret stored in the clear.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { LIMITS } from '../../src/core/limits.ts';
import { OAUTH_URLS } from '../../src/urls.ts';
import { Agent, oauthErrorOf, startAgentSite } from './agent.ts';
import type { Site } from './helpers.ts';

let site: Site & { idp?: { issuer: string } };
let agent: Agent;

before(async () => ({ site, agent } = await startAgentSite()));
after(() => site.stop());

test('metadata: the protected resource names this server and its scopes; the server metadata names every endpoint and S256 only', async () => {
  const response = await fetch(`${site.base}${OAUTH_URLS.protectedResource}`);
  assert.equal(response.headers.get('access-control-allow-origin'), '*');
  const resource = (await response.json()) as Record<string, unknown>;
  assert.equal(resource.resource, site.resource);
  assert.deepEqual(resource.authorization_servers, [site.base]);
  assert.deepEqual(resource.scopes_supported, [
    'taste:read',
    'taste:write',
    'taste:log',
    'taste:rate',
    'taste:stance',
    'create',
    'update',
    'delete',
    'media',
    'draft',
    'profile',
  ]);
  assert.deepEqual(resource.bearer_methods_supported, ['header']);
  const as = agent.as;
  assert.equal(as.issuer, site.base);
  assert.deepEqual(as.code_challenge_methods_supported, ['S256']);
  assert.deepEqual(as.token_endpoint_auth_methods_supported, ['none']);
  assert.deepEqual(as.response_types_supported, ['code']);
  assert.deepEqual(as.grant_types_supported, ['authorization_code', 'refresh_token']);
  assert.deepEqual(as.scopes_supported, [
    'taste:read',
    'taste:write',
    'taste:log',
    'taste:rate',
    'taste:stance',
    'create',
    'update',
    'delete',
    'media',
    'draft',
    'profile',
  ]);
  assert.equal(as.client_id_metadata_document_supported, true);
  assert.equal(as.authorization_response_iss_parameter_supported, true);
  assert.equal(as.revocation_endpoint, `${site.base}${OAUTH_URLS.revoke}`);
  assert.deepEqual(as.agent_auth, {
    identity_type: 'service_auth',
    credential_type: 'access_token',
    registration_url: `${site.base}${OAUTH_URLS.register}`,
    authorization_url: `${site.base}${OAUTH_URLS.authorize}`,
    token_url: `${site.base}${OAUTH_URLS.token}`,
    revocation_url: `${site.base}${OAUTH_URLS.revoke}`,
  });
});

test('the whole flow: register, sign in as the owner, approve, exchange, use, refresh (rotated), revoke', async () => {
  const client = await agent.register();
  const attempt = await agent.authorizationUrl(client);
  const params = await agent.approved(client, attempt);
  assert.equal(params.get('iss'), site.base, 'RFC 9207');
  const tokens = await agent.exchange(client, params, attempt.verifier);
  assert.equal(tokens.token_type, 'bearer');
  assert.equal(tokens.expires_in, LIMITS.oauthAccessTokenSeconds);
  assert.equal(tokens.scope, 'taste:read taste:write');
  assert.match(tokens.access_token, /^[A-Za-z0-9_-]{43}$/, 'opaque, 256 bits');
  const verified = site.oauth.verifyAccessToken(tokens.access_token, site.resource);
  assert.ok(verified.ok);
  assert.equal(verified.clientId, client.client_id);
  assert.deepEqual(verified.scopes, ['taste:read', 'taste:write']);
  assert.equal(verified.subject, 'owner');

  const refreshed = await agent.refresh(client, tokens.refresh_token!);
  assert.notEqual(refreshed.refresh_token, tokens.refresh_token, 'each refresh returns a new refresh token');
  assert.equal(refreshed.scope, 'taste:read taste:write');
  assert.ok(site.oauth.verifyAccessToken(refreshed.access_token, site.resource).ok);

  await agent.revoke(client, refreshed.refresh_token!);
  const revoked = site.oauth.verifyAccessToken(refreshed.access_token, site.resource);
  assert.equal(revoked.ok, false, 'revoking the refresh token revokes the grant and its access tokens');
  assert.equal(await oauthErrorOf(agent.refresh(client, refreshed.refresh_token!)), 'invalid_grant');
});

test('the endpoints a client calls itself answer CORS preflights and any origin; the browser pages do not', async () => {
  for (const path of [OAUTH_URLS.protectedResource, OAUTH_URLS.authorizationServer, OAUTH_URLS.register, OAUTH_URLS.token, OAUTH_URLS.revoke]) {
    const response = await fetch(`${site.base}${path}`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://inspector.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type, mcp-protocol-version',
      },
    });
    assert.equal(response.status, 204, path);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.match(response.headers.get('access-control-allow-headers')!, /MCP-Protocol-Version/);
  }
  const token = await fetch(`${site.base}${OAUTH_URLS.token}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=x',
  });
  assert.equal(token.headers.get('access-control-allow-origin'), '*');
  assert.equal((await fetch(`${site.base}${OAUTH_URLS.authorize}`, { method: 'OPTIONS' })).status, 405);
  assert.equal((await fetch(`${site.base}${OAUTH_URLS.authorize}`)).headers.get('access-control-allow-origin'), null);
});

test('token responses are never cached', async () => {
  const response = await fetch(`${site.base}${OAUTH_URLS.token}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=refresh_token&client_id=nobody&refresh_token=x',
  });
  assert.equal(response.status, 401);
  assert.equal(response.headers.get('cache-control'), 'no-store');
  assert.deepEqual(Object.keys((await response.json()) as object), ['error', 'error_description']);
});

test('grants, clients and tokens survive a restart (the store is reopened from STATE_DIR)', async () => {
  const { client, tokens } = await agent.connect();
  site.restart();
  assert.ok(site.oauth.verifyAccessToken(tokens.access_token, site.resource).ok);
  const refreshed = await agent.refresh(client, tokens.refresh_token!);
  assert.ok(site.oauth.verifyAccessToken(refreshed.access_token, site.resource).ok);
});

test('only SHA-256 hashes of codes and tokens are stored', async () => {
  const { params, tokens } = await agent.connect();
  const file = readFileSync(join(site.stateDir, 'oauth.db'));
  const wal = readFileSync(join(site.stateDir, 'oauth.db-wal'));
  for (const secret of [params.get('code')!, tokens.access_token, tokens.refresh_token!]) {
    assert.equal(file.includes(secret), false);
    assert.equal(wal.includes(secret), false);
  }
});

test('a bearer token means nothing on a public surface: it is ignored, not checked', async () => {
  const { tokens } = await agent.connect();
  for (const authorization of [`Bearer ${tokens.access_token}`, 'Bearer not-a-token']) {
    const response = await fetch(`${site.base}/api/status.json`, { headers: { Authorization: authorization } });
    assert.equal(response.status, 200);
  }
});

test('a grant of one task scope: the token holds just it, and reads too', async () => {
  const { tokens } = await agent.connect('taste:rate');
  assert.equal(tokens.scope, 'taste:rate');
  const read = site.oauth.authorizeBearer(`Bearer ${tokens.access_token}`, 'taste:read');
  assert.ok(read.ok, 'every task scope reads');
  const log = site.oauth.authorizeBearer(`Bearer ${tokens.access_token}`, 'taste:log', 'taste:write');
  assert.equal(!log.ok && log.status, 403);
  assert.match(!log.ok ? log.wwwAuthenticate : '', /scope="taste:write", error="insufficient_scope"/);
});
