/**
 * Registration (RFC 7591) at its edges, the configuration read from the environment, and
 * a site with no identity provider: metadata published, authorization "not set up".
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { LIMITS } from '../../src/core/limits.ts';
import { redirectUriProblem } from '../../src/oauth/clients.ts';
import { formActionSource } from '../../src/oauth/pages.ts';
import { readConfig, type Environment } from '../../src/config.ts';
import { oauthConfig, oauthConfigFrom } from '../../src/oauth/config.ts';
import { OAuthServer } from '../../src/oauth/server.ts';
import { SqliteOAuthStore } from '../../src/oauth/store.ts';
import { OAUTH_URLS } from '../../src/urls.ts';
import { startSite, type Site } from './helpers.ts';

/** The owner lane's configuration from an environment whose build is in `distDir`. */
const oauthConfigFromEnv = (env: Environment, distDir: string) => oauthConfigFrom(readConfig({ ...env, DIST_DIR: distDir }));

let site: Site;
before(async () => {
  site = await startSite();
});
after(() => site.stop());

const register = (body: unknown, contentType = 'application/json') =>
  fetch(`${site.base}${OAUTH_URLS.register}`, {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

test('a public client registers: 201 with a client_id, no secret, and when the registration expires', async () => {
  const response = await register({ client_name: 'Agent', redirect_uris: ['http://127.0.0.1:33418/cb'], extra_member: 'ignored' });
  assert.equal(response.status, 201);
  assert.equal(response.headers.get('cache-control'), 'no-store');
  const body = (await response.json()) as Record<string, unknown>;
  assert.match(body.client_id as string, /^client_/);
  assert.equal(body.client_secret, undefined);
  assert.equal(body.token_endpoint_auth_method, 'none');
  assert.deepEqual(body.grant_types, ['authorization_code', 'refresh_token']);
  assert.equal((body.client_id_expires_at as number) - (body.client_id_issued_at as number), LIMITS.oauthClientSeconds);
  assert.equal(body.extra_member, undefined);
});

test('redirect URIs: https, http on loopback, private-use schemes; never http elsewhere, fragments or script schemes', () => {
  for (const ok of [
    'https://app.example/cb',
    'http://127.0.0.1:8080/cb',
    'http://localhost/cb',
    'http://[::1]:9/cb',
    'com.example.app:/oauth',
    'com.example.app://oauth/callback',
  ]) {
    assert.equal(redirectUriProblem(ok), undefined, ok);
  }
  for (const bad of [
    'http://app.example/cb',
    'https://app.example/cb#frag',
    'javascript:alert(1)',
    'data:text/html,x',
    'file:///etc/passwd',
    'not a uri',
    '/relative',
    // RFC 8252 §7.1: a private-use scheme is a reverse-DNS name; a bare word is refused (issue 32), Cursor's `cursor:` included.
    'cursor://anysphere.cursor-retrieval/oauth/callback',
  ]) {
    assert.notEqual(redirectUriProblem(bad), undefined, bad);
  }
});

test('the consent page lets its form lead to the redirect URI’s origin, or its scheme where CSP cannot spell the host', () => {
  assert.equal(formActionSource('https://app.example:8443/cb?x=1'), 'https://app.example:8443');
  assert.equal(formActionSource('http://127.0.0.1:9/cb'), 'http://127.0.0.1:9');
  assert.equal(formActionSource('http://[::1]:9/cb'), 'http:');
  assert.equal(formActionSource('com.example.app:/oauth'), 'com.example.app:');
});

test('bad metadata is 400 invalid_client_metadata, naming what is wrong', async () => {
  const cases: unknown[] = [
    { redirect_uris: ['http://app.example/cb'] },
    { redirect_uris: [] },
    {},
    { redirect_uris: 'https://app.example/cb' },
    { redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'client_secret_basic' },
    { redirect_uris: ['https://app.example/cb'], grant_types: ['client_credentials'] },
    { redirect_uris: ['https://app.example/cb'], grant_types: ['refresh_token'] },
    { redirect_uris: ['https://app.example/cb'], response_types: ['token'] },
    { redirect_uris: ['https://app.example/cb'], scope: 'taste:admin' },
    { redirect_uris: Array.from({ length: LIMITS.oauthRedirectUrisMax + 1 }, (_, i) => `https://app.example/${i}`) },
    { redirect_uris: ['https://app.example/cb'], client_name: 'x'.repeat(LIMITS.oauthMetadataCharsMax + 1) },
    [],
    'null',
    '{not json',
  ];
  for (const body of cases) {
    const response = await register(body);
    assert.equal(response.status, 400, JSON.stringify(body));
    const answer = (await response.json()) as { error: string; error_description: string };
    assert.equal(answer.error, 'invalid_client_metadata', JSON.stringify(body));
    assert.ok(answer.error_description.length > 0);
  }
  assert.equal((await register({ redirect_uris: ['https://app.example/cb'] }, 'text/plain')).status, 400);
  const large = await register({ redirect_uris: ['https://app.example/cb'], client_name: 'x'.repeat(LIMITS.oauthRegistrationBytesMax) });
  assert.equal(large.status, 413);
});

test('body bounds at their edges: registration 16 KiB, token and revocation forms 8 KiB', async () => {
  const json = (size: number) => {
    const text = JSON.stringify({ redirect_uris: ['https://app.example/cb'] });
    return `${text.slice(0, -1)}${' '.repeat(size - text.length)}}`;
  };
  assert.equal((await register(json(LIMITS.oauthRegistrationBytesMax))).status, 201);
  assert.equal((await register(json(LIMITS.oauthRegistrationBytesMax + 1))).status, 413);
  const form = (path: string, size: number) => {
    const text = 'grant_type=refresh_token&client_id=client_nobody&refresh_token=';
    return fetch(`${site.base}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: text + 'x'.repeat(size - text.length),
    });
  };
  for (const path of [OAUTH_URLS.token, OAUTH_URLS.revoke]) {
    assert.equal((await form(path, LIMITS.oauthFormBytesMax)).status, path === OAUTH_URLS.token ? 401 : 400, `${path} at the bound is read`);
    assert.equal((await form(path, LIMITS.oauthFormBytesMax + 1)).status, 413, `${path} past the bound`);
  }
});

test('registration is rate-limited per source address', async () => {
  const server = new OAuthServer({
    config: oauthConfig({ siteUrl: 'https://site.example', stateDir: ':memory:' }),
    store: new SqliteOAuthStore(':memory:'),
    registrationQuota: 3,
  });
  const facts = {
    method: 'POST',
    url: new URL('https://site.example/oauth/register'),
    header: (name: string) => (name === 'Content-Type' ? 'application/json' : null),
  };
  const body = Buffer.from(JSON.stringify({ redirect_uris: ['https://app.example/cb'] }));
  for (let i = 0; i < 3; i++) assert.equal((await server.register(facts, body, '198.51.100.7')).status, 201);
  const refused = await server.register(facts, body, '198.51.100.7');
  assert.equal(refused.status, 429);
  assert.ok(refused.headers['Retry-After']);
  assert.equal((await server.register(facts, body, '198.51.100.8')).status, 201, 'another source is not affected');
  server.close();
});

test('with no identity provider: the metadata is published, and /oauth/authorize says the lane is not set up', async () => {
  const metadata = await fetch(`${site.base}${OAUTH_URLS.authorizationServer}`);
  assert.equal(metadata.status, 200);
  const response = await fetch(`${site.base}${OAUTH_URLS.authorize}?client_id=x&response_type=code`, { redirect: 'manual' });
  assert.equal(response.status, 404);
  assert.match(await response.text(), /not set up/);
  assert.equal((await fetch(`${site.base}${OAUTH_URLS.callback}?state=x&code=y`)).status, 404);
  assert.equal((await fetch(`${site.base}${OAUTH_URLS.clients}`)).status, 404);
});

test('configuration from the environment: all-or-nothing identity provider, STATE_DIR outside dist/, URLs checked', () => {
  const base = { SITE_URL: 'https://me.example/', STATE_DIR: '/var/lib/collections' };
  const none = oauthConfigFromEnv(base, '/srv/site/dist');
  assert.equal(none.siteUrl, 'https://me.example');
  assert.equal(none.resource, 'https://me.example/owner/mcp');
  assert.equal(none.idp, undefined);
  const full = oauthConfigFromEnv(
    { ...base, OWNER_OIDC_ISSUER: 'https://id.example', OWNER_OIDC_CLIENT_ID: 'c', OWNER_SUBJECT: 's', OWNER_OIDC_CLIENT_SECRET: '' },
    '/srv/site/dist',
  );
  assert.equal(full.idp?.issuer.href, 'https://id.example/');
  assert.equal(full.idp?.clientSecret, undefined, 'an empty secret is no secret: a public client');
  assert.throws(() => oauthConfigFromEnv({ ...base, OWNER_OIDC_ISSUER: 'https://id.example' }, '/srv/site/dist'), /together/);
  assert.throws(() => oauthConfigFromEnv({ ...base, STATE_DIR: '/srv/site/dist/state' }, '/srv/site/dist'), /STATE_DIR/);
  assert.throws(() => oauthConfigFromEnv({ ...base, SITE_URL: 'ftp://me.example' }, '/srv/site/dist'), /SITE_URL/);
  const idp = { OWNER_OIDC_CLIENT_ID: 'c', OWNER_SUBJECT: 's' };
  assert.throws(() => oauthConfigFromEnv({ ...base, ...idp, OWNER_OIDC_ISSUER: 'http://id.example' }, '/srv/site/dist'), /https/);
  assert.equal(oauthConfigFromEnv({ ...base, ...idp, OWNER_OIDC_ISSUER: 'http://localhost:4400' }, '/srv/site/dist').idp?.issuer.port, '4400');
  assert.throws(() => oauthConfigFromEnv({ ...base, OAUTH_CIMD_ALLOW_LOOPBACK: 'yes' }, '/srv/site/dist'), /OAUTH_CIMD_ALLOW_LOOPBACK/);
  assert.equal(oauthConfigFromEnv({ ...base, OAUTH_CIMD_ALLOW_LOOPBACK: '1' }, '/srv/site/dist').cimdAllowLoopback, true);
});
