/**
 * The owner lane end to end, over real HTTP on loopback: oauth4webapi as the client
 * (discovery from the resource URL, registration, authorization with PKCE, code
 * exchange, refresh, revocation), oidc-provider as the owner's identity provider, and a
 * cookie-keeping browser carrying the owner (and a second account) through sign-in and
 * consent. Then each way a flow must fail.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as oauth from 'oauth4webapi';
import { LIMITS } from '../../src/core/limits.ts';
import { OAUTH_URLS } from '../../src/urls.ts';
import { answerConsent, Browser, discover, OWNER, signIn, startIdp, startSite, type Site } from './helpers.ts';

const insecure = { [oauth.allowInsecureRequests]: true };
/** The client's redirect URI: a loopback address nothing listens on; the browser stops before fetching it. */
const REDIRECT = 'http://127.0.0.1:9/callback';

let site: Site & { idp?: { issuer: string } };
let as: oauth.AuthorizationServer;

before(async () => {
  site = await startSite({ idp: startIdp });
  as = await discover(site);
});
after(() => site.stop());

async function registerClient(name = 'Test agent', redirectUris = [REDIRECT]): Promise<oauth.Client> {
  const response = await oauth.dynamicClientRegistrationRequest(as, { client_name: name, redirect_uris: redirectUris, token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }, insecure);
  return (await oauth.processDynamicClientRegistrationResponse(response)) as oauth.Client;
}

interface Attempt {
  url: string;
  state: string;
  verifier: string;
}

async function authorizationUrl(client: oauth.Client, overrides: Record<string, string | null> = {}): Promise<Attempt> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  const params: Record<string, string | null> = {
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'taste:read taste:write',
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    resource: site.resource,
    ...overrides,
  };
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return { url: url.href, state, verifier };
}

/** The owner signs in and approves: the redirect to the client, validated by oauth4webapi (state, iss). */
async function approved(client: oauth.Client, attempt: Attempt, account = OWNER): Promise<URLSearchParams> {
  const browser = new Browser();
  const page = await signIn(browser, attempt.url, account, REDIRECT, site.idp!.issuer);
  assert.ok(page instanceof Response, `the consent page, not ${String(page)}`);
  assert.equal(page.status, 200);
  const back = await answerConsent(browser, page, site.base, 'approve', REDIRECT);
  assert.ok(back instanceof URL);
  return oauth.validateAuthResponse(as, client, back, attempt.state);
}

async function exchange(client: oauth.Client, params: URLSearchParams, verifier: string, resource: string = site.resource) {
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, { ...insecure, additionalParameters: { resource } });
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

async function refresh(client: oauth.Client, token: string, resource: string = site.resource) {
  const response = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), token, { ...insecure, additionalParameters: { resource } });
  return oauth.processRefreshTokenResponse(as, client, response);
}

/** The OAuth error a rejected promise carries. */
async function oauthErrorOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof oauth.ResponseBodyError) return error.error;
    throw error;
  }
  assert.fail('expected an OAuth error');
}

/** A token grant straight from the owner: registration, sign-in, approval, code exchange. */
export async function connected(scope = 'taste:read taste:write') {
  const client = await registerClient();
  const attempt = await authorizationUrl(client, { scope });
  const params = await approved(client, attempt);
  const tokens = await exchange(client, params, attempt.verifier);
  return { client, tokens };
}

test('metadata: the protected resource names this server and its scopes; the server metadata names every endpoint and S256 only', async () => {
  const resource = (await (await fetch(`${site.base}${OAUTH_URLS.protectedResource}`)).json()) as Record<string, unknown>;
  assert.equal(resource.resource, site.resource);
  assert.deepEqual(resource.authorization_servers, [site.base]);
  assert.deepEqual(resource.scopes_supported, ['taste:read', 'taste:write']);
  assert.deepEqual(resource.bearer_methods_supported, ['header']);
  assert.equal(as.issuer, site.base);
  assert.deepEqual(as.code_challenge_methods_supported, ['S256']);
  assert.deepEqual(as.token_endpoint_auth_methods_supported, ['none']);
  assert.deepEqual(as.response_types_supported, ['code']);
  assert.equal(as.client_id_metadata_document_supported, true);
  assert.equal(as.authorization_response_iss_parameter_supported, true);
  assert.equal(as.revocation_endpoint, `${site.base}${OAUTH_URLS.revoke}`);
  assert.deepEqual(as.agent_auth, {
    registration_url: `${site.base}${OAUTH_URLS.register}`,
    authorization_url: `${site.base}${OAUTH_URLS.authorize}`,
    token_url: `${site.base}${OAUTH_URLS.token}`,
    revocation_url: `${site.base}${OAUTH_URLS.revoke}`,
  });
});

test('the whole flow: register, sign in as the owner, approve, exchange, use, refresh (rotated), revoke', async () => {
  const client = await registerClient();
  const attempt = await authorizationUrl(client);
  const params = await approved(client, attempt);
  assert.equal(params.get('iss'), site.base);
  const tokens = await exchange(client, params, attempt.verifier);
  assert.equal(tokens.token_type, 'bearer');
  assert.equal(tokens.expires_in, LIMITS.oauthAccessTokenSeconds);
  assert.equal(tokens.scope, 'taste:read taste:write');
  assert.match(tokens.access_token, /^[A-Za-z0-9_-]{43}$/, 'opaque, 256 bits');
  const verified = site.oauth.verifyAccessToken(tokens.access_token, site.resource);
  assert.ok(verified.ok);
  assert.equal(verified.clientId, client.client_id);
  assert.deepEqual(verified.scopes, ['taste:read', 'taste:write']);

  const refreshed = await refresh(client, tokens.refresh_token!);
  assert.notEqual(refreshed.refresh_token, tokens.refresh_token, 'each refresh returns a new refresh token');
  assert.ok(site.oauth.verifyAccessToken(refreshed.access_token, site.resource).ok);

  await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), refreshed.refresh_token!, insecure));
  const revoked = site.oauth.verifyAccessToken(refreshed.access_token, site.resource);
  assert.equal(revoked.ok, false, 'revoking the refresh token revokes the grant and its access tokens');
  assert.equal(await oauthErrorOf(refresh(client, refreshed.refresh_token!)), 'invalid_grant');
});
