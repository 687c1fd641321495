/**
 * The owner lane's smaller mends (issue 32 item 4): a replayed code revokes only when its
 * own client replays it; a refresh never widens the token presented; the consent page
 * warns about a redirect that leaves the client's own host, stays on this computer or
 * opens an app; the address fence sees IPv4 inside IPv6; `http` SITE_URL is refused for a
 * configured lane; quotas count an IPv6 client by its /64; a grant approved by a former
 * owner stops working; `oauth.db` is private to its user.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import * as oauth from 'oauth4webapi';
import { consentWarnings } from '../../src/oauth/authorize.ts';
import { isPublicAddress } from '../../src/oauth/cimd.ts';
import { readConfig, type Environment } from '../../src/config.ts';
import { oauthConfig, oauthConfigFrom } from '../../src/oauth/config.ts';
import { OAuthServer } from '../../src/oauth/server.ts';
import { SqliteOAuthStore } from '../../src/oauth/store.ts';
import { Agent, insecure, oauthErrorOf, REDIRECT, startAgentSite } from './agent.ts';
import { Browser, OWNER, signIn, type Site } from './helpers.ts';

/** The owner lane's configuration from an environment whose build is in `distDir`. */
const oauthConfigFromEnv = (env: Environment, distDir: string) => oauthConfigFrom(readConfig({ ...env, DIST_DIR: distDir }));

let site: Site & { idp?: { issuer: string } };
let agent: Agent;

before(async () => ({ site, agent } = await startAgentSite()));
after(() => site.stop());

test('a spent code replayed by another client is refused without revoking the grant; replayed by its own client, the grant goes', async () => {
  const { client, params, tokens } = await agent.connect();
  const code = params.get('code')!;
  const intruder = await agent.register('Intruder');
  const replay = (clientId: string) =>
    fetch(`${site.base}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: clientId,
        code,
        redirect_uri: REDIRECT,
        code_verifier: 'v'.repeat(43),
      }).toString(),
    });
  const foreign = await replay(intruder.client_id);
  assert.equal(((await foreign.json()) as { error: string }).error, 'invalid_grant');
  assert.ok(site.oauth.verifyAccessToken(tokens.access_token).ok, "another client cannot revoke the owner's grant with a leaked code");
  await replay(client.client_id);
  assert.equal(site.oauth.verifyAccessToken(tokens.access_token).ok, false, "the code's own client replaying it: revoked (RFC 6749 §4.1.2)");
});

test('a refresh never widens the scopes of the token presented', async () => {
  const { client, tokens } = await agent.connect('taste:read taste:write');
  const refresh = (token: string, scope: string) =>
    oauth
      .refreshTokenGrantRequest(agent.as, client, oauth.None(), token, { ...insecure, additionalParameters: { resource: site.resource, scope } })
      .then((r) => oauth.processRefreshTokenResponse(agent.as, client, r));
  const narrowed = await refresh(tokens.refresh_token!, 'taste:read');
  assert.equal(narrowed.scope, 'taste:read');
  assert.equal(await oauthErrorOf(refresh(narrowed.refresh_token!, 'taste:read taste:write')), 'invalid_scope');
});

test("the consent page warns when the redirect leaves the metadata document's host, stays on this computer, or opens an app", async () => {
  assert.deepEqual(consentWarnings('client_x', 'https://app.example/cb'), []);
  assert.deepEqual(consentWarnings('https://app.example/client.json', 'https://app.example/cb'), []);
  assert.match(consentWarnings('https://app.example/client.json', 'https://elsewhere.example/cb').join(' '), /elsewhere\.example/);
  assert.match(consentWarnings('client_x', 'http://127.0.0.1:9/cb').join(' '), /this computer/);
  assert.match(consentWarnings('client_x', 'com.example.app:/cb').join(' '), /com\.example\.app/);
  const client = await agent.register('Loopback app');
  const page = await signIn(new Browser(), (await agent.authorizationUrl(client)).url, OWNER, REDIRECT, site.idp!.issuer);
  assert.ok(page instanceof Response);
  assert.match(await page.text(), /<p class="warning">[^<]*this computer/);
});

test('the address fence refuses the IPv6 forms that carry or translate IPv4, and checks the IPv4 inside them', () => {
  const refused = [
    '::7f00:1',
    '::a00:1', // IPv4-compatible (::/96)
    '::ffff:0:7f00:1',
    '::ffff:0:808:808', // IPv4-translated (::ffff:0:0:0/96)
    '64:ff9b:1::1',
    '64:ff9b:1:ffff::1', // local-use NAT64 (64:ff9b:1::/48)
    '2002:7f00:1::1',
    '2002:808:808::1', // 6to4 (2002::/16)
    'fec0::1', // site-local (fec0::/10)
    '::ffff:127.0.0.1',
    '::ffff:10.1.2.3',
    '::ffff:169.254.169.254', // IPv4-mapped private addresses
    '64:ff9b::a9fe:a9fe', // NAT64 of 169.254.169.254
  ];
  for (const address of refused) assert.equal(isPublicAddress(address), false, address);
  for (const address of ['2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '93.184.216.34']) assert.equal(isPublicAddress(address), true, address);
});

test('with the owner lane configured, an http SITE_URL on a host that is not loopback is refused at start', () => {
  const lane = { OWNER_OIDC_ISSUER: 'https://idp.example', OWNER_OIDC_CLIENT_ID: 'c', OWNER_SUBJECT: 's', STATE_DIR: join(tmpdir(), 'mends-state') };
  assert.throws(() => oauthConfigFromEnv({ ...lane, SITE_URL: 'http://collections.example' }, 'dist'), /SITE_URL/);
  assert.doesNotThrow(() => oauthConfigFromEnv({ ...lane, SITE_URL: 'http://localhost:4321' }, 'dist'));
  assert.doesNotThrow(() => oauthConfigFromEnv({ ...lane, SITE_URL: 'https://collections.example' }, 'dist'));
  assert.doesNotThrow(
    () => oauthConfigFromEnv({ SITE_URL: 'http://collections.example', STATE_DIR: lane.STATE_DIR }, 'dist'),
    'without the lane, nothing to protect',
  );
});

test('the registration and authorization quotas count an IPv6 client by its /64', async () => {
  const server = new OAuthServer({
    config: oauthConfig({ siteUrl: 'https://site.example', stateDir: ':memory:' }),
    store: new SqliteOAuthStore(':memory:'),
    registrationQuota: 2,
    authorizationQuota: 2,
  });
  const facts = (path: string) => ({
    method: 'POST',
    url: new URL(`https://site.example${path}`),
    header: (name: string) => (name === 'Content-Type' ? 'application/json' : null),
  });
  const body = Buffer.from(JSON.stringify({ redirect_uris: ['https://app.example/cb'] }));
  assert.equal((await server.register(facts('/oauth/register'), body, '2001:db8:1:2::1')).status, 201);
  assert.equal((await server.register(facts('/oauth/register'), body, '2001:db8:1:2:aaaa::2')).status, 201);
  assert.equal((await server.register(facts('/oauth/register'), body, '2001:db8:1:2:ffff:ffff:ffff:ffff')).status, 429, 'the same /64');
  assert.equal((await server.register(facts('/oauth/register'), body, '2001:db8:1:3::1')).status, 201, 'another /64');
  assert.equal((await server.register(facts('/oauth/register'), body, '198.51.100.7')).status, 201, 'IPv4 by its address');
  for (const address of ['2001:db8:5:6::1', '2001:db8:5:6::2']) assert.notEqual((await server.authorize(facts('/oauth/authorize'), address)).status, 429);
  assert.equal((await server.authorize(facts('/oauth/authorize'), '2001:db8:5:6::3')).status, 429, 'the same /64');
  assert.notEqual((await server.authorize(facts('/oauth/authorize'), '2001:db8:5:7::1')).status, 429, 'another /64');
  server.close();
});

test('a token whose grant was approved by a subject that is no longer OWNER_SUBJECT is refused, and cannot be refreshed', () => {
  const store = new SqliteOAuthStore(':memory:');
  const now = Date.UTC(2026, 0, 1);
  const config = (subject: string) =>
    oauthConfig({
      siteUrl: 'https://site.example',
      stateDir: ':memory:',
      idp: { issuer: new URL('https://idp.example'), clientId: 'c', clientSecret: undefined, subject },
    });
  store.putClient({
    clientId: 'client_1',
    metadata: {
      redirect_uris: ['https://app.example/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    createdAt: now,
    expiresAt: now + 86_400_000,
  });
  store.createGrant({
    id: 'grant_1',
    clientId: 'client_1',
    clientName: undefined,
    subject: 'former-owner',
    scopes: ['taste:read'],
    resource: 'https://site.example/owner/mcp',
    createdAt: now,
    lastUsedAt: null,
    revokedAt: null,
  });
  store.putToken('access-1', {
    grantId: 'grant_1',
    kind: 'access',
    clientId: 'client_1',
    scopes: ['taste:read'],
    resource: 'https://site.example/owner/mcp',
    expiresAt: now + 3_600_000,
    usedAt: null,
  });
  const former = new OAuthServer({ config: config('former-owner'), store, now: () => now });
  assert.ok(former.verifyAccessToken('access-1').ok, 'under the owner who approved it');
  const current = new OAuthServer({ config: config('new-owner'), store, now: () => now });
  const refused = current.verifyAccessToken('access-1');
  assert.equal(refused.ok, false);
  store.close();
});

test('oauth.db is created readable by its user only (0600)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'oauth-mode-'));
  try {
    const store = new SqliteOAuthStore(join(dir, 'state'));
    store.putClient({
      clientId: 'c',
      metadata: {
        redirect_uris: ['https://app.example/cb'],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
      createdAt: 0,
      expiresAt: 1,
    });
    assert.equal(statSync(join(dir, 'state', 'oauth.db')).mode & 0o777, 0o600);
    for (const side of ['oauth.db-wal', 'oauth.db-shm']) {
      try {
        assert.equal(statSync(join(dir, 'state', side)).mode & 0o777, 0o600, side);
      } catch (error) {
        if ((error as { code?: string }).code !== 'ENOENT') throw error;
      }
    }
    store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
