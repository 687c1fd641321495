/**
 * IndieAuth on the owner lane's authorization server (issue 40, item 1), with tokens from
 * the real PKCE flow (oauth4webapi as the client, oidc-provider as the owner's identity
 * provider, tests/oauth/agent.ts): the home page names the metadata, the legacy
 * endpoints and Micropub in its `Link` header and its markup; the Micropub scopes are
 * advertised and named on the consent page; `me` is checked and returned in every token
 * response; the token then posts to `/micropub`.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MICROPUB_URLS, OAUTH_URLS } from '../../src/urls.ts';
import { Agent, startAgentSite } from '../oauth/agent.ts';
import { Browser, signIn, type Site } from '../oauth/helpers.ts';

let site: Site & { idp?: { issuer: string } };
let agent: Agent;

before(async () => ({ site, agent } = await startAgentSite()));
after(() => site.stop());

test('the home page names indieauth-metadata, authorization_endpoint, token_endpoint and micropub, as Link header and <link>', async () => {
  const home = await fetch(`${site.base}/`);
  assert.equal(home.status, 200);
  const link = home.headers.get('link') ?? '';
  const html = await home.text();
  for (const [rel, href] of [
    ['indieauth-metadata', OAUTH_URLS.authorizationServer],
    ['authorization_endpoint', OAUTH_URLS.authorize],
    ['token_endpoint', OAUTH_URLS.token],
    ['micropub', MICROPUB_URLS.micropub],
  ]) {
    assert.ok(link.includes(`<${href}>; rel="${rel}"`), `Link: ${rel}`);
    assert.match(html, new RegExp(`<link rel="${rel}" href="${href.replace(/[.]/g, '\\.')}"`), `<link> ${rel}`);
  }
  const metadata = (await (await fetch(new URL(OAUTH_URLS.authorizationServer, site.base))).json()) as { issuer: string; scopes_supported: string[] };
  assert.ok(`${site.base}${OAUTH_URLS.authorizationServer}`.startsWith(metadata.issuer), 'IndieAuth: the issuer is a prefix of the metadata URL');
  for (const scope of ['create', 'update', 'delete', 'media', 'draft', 'profile', 'taste:read']) assert.ok(metadata.scopes_supported.includes(scope), scope);
});

test('a Micropub grant: the consent page names the scopes, the token response carries me (and profile), and the token posts', async () => {
  const client = await agent.register('Micropub app');
  const attempt = await agent.authorizationUrl(client, { scope: 'create update profile', me: `${site.base}`, resource: null });
  const page = await signIn(new Browser(), attempt.url, 'owner', 'http://127.0.0.1:9/callback', site.idp!.issuer);
  assert.ok(page instanceof Response);
  const consent = await page.clone().text();
  assert.match(consent, /<code>create<\/code>/);
  assert.match(consent, /<code>update<\/code>/);
  const params = await agent.approved(client, attempt);
  const tokens = await agent.exchange(client, params, attempt.verifier);
  assert.equal(tokens.me, `${site.base}/`);
  assert.deepEqual(tokens.profile, { url: `${site.base}/` });
  const refreshed = await agent.refresh(client, tokens.refresh_token!);
  assert.equal(refreshed.me, `${site.base}/`, 'me in every token response');
  const config = await fetch(`${site.base}${MICROPUB_URLS.micropub}?q=config`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
  // This site serves no generations (ServingRuntime.open), so writes are unavailable; the token itself is accepted.
  assert.ok([200, 503].includes(config.status), String(config.status));
});

test('me naming another site is refused; PKCE stays required', async () => {
  const client = await agent.register('Another me');
  const foreign = await agent.authorizationUrl(client, { scope: 'create', me: 'https://someone-else.example/' });
  const refused = await fetch(foreign.url, { redirect: 'manual' });
  assert.equal(refused.status, 400);
  assert.match(await refused.text(), /me names another site/);
  const noPkce = await agent.authorizationUrl(client, { scope: 'create', code_challenge: null, code_challenge_method: null });
  const page = await fetch(noPkce.url, { redirect: 'manual' });
  assert.equal(page.status, 400);
  assert.match(await page.text(), /PKCE is required/);
});
