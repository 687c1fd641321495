/**
 * The connected-clients page: only the owner, signed in at the identity provider, sees
 * the grants (client, scopes, granted, last used) and revokes one with a button, which
 * stops its tokens at once; the session cookie is HttpOnly, SameSite=Lax, path /; a
 * second account, a missing session, a forged form are refused.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { LIMITS } from '../../src/core/limits.ts';
import { cookie, cookieName, setCookie } from '../../src/oauth/http.ts';
import { OAUTH_URLS } from '../../src/urls.ts';
import { Agent, startAgentSite } from './agent.ts';
import { Browser, formOf, OWNER, signIn, type Site } from './helpers.ts';

let site: Site & { idp?: { issuer: string } };
let agent: Agent;

before(async () => ({ site, agent } = await startAgentSite()));
after(() => site.stop());

const NOWHERE = 'http://never.invalid/';

async function openPage(account: string): Promise<{ browser: Browser; page: Response }> {
  const browser = new Browser();
  const page = await signIn(browser, `${site.base}${OAUTH_URLS.clients}`, account, NOWHERE, site.idp!.issuer);
  assert.ok(page instanceof Response);
  return { browser, page };
}

test('the owner sees each connected client with its scopes, when granted and last used, and revokes a grant with one button', async () => {
  const { client, tokens } = await agent.connect('taste:read');
  const other = await agent.connect();
  const { browser, page } = await openPage(OWNER);
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.match(html, /Connected applications/);
  assert.ok(html.includes(client.client_id));
  assert.match(html, /Read your collections/);
  assert.match(html, /granted \d{4}-\d\d-\d\dT/);
  assert.match(html, /last used \d{4}-/);
  assert.match(page.headers.get('content-security-policy')!, /frame-ancestors 'none'/);

  // The form of this client's grant.
  const forms = [
    ...html.matchAll(
      /<h2>[^<]*<\/h2>\s*<p>Client <code>([^<]+)<\/code>[\s\S]*?<form method="post" action="([^"]+)">\s*<input type="hidden" name="csrf" value="([^"]+)">\s*<input type="hidden" name="grant" value="([^"]+)">/g,
    ),
  ];
  const mine = forms.find((m) => m[1] === client.client_id)!;
  const response = await browser.request(`${site.base}${mine[2]}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: site.base },
    body: new URLSearchParams({ csrf: mine[3]!, grant: mine[4]! }).toString(),
  });
  assert.equal(response.status, 303);
  assert.equal(site.oauth.verifyAccessToken(tokens.access_token).ok, false, 'revoked at once');
  assert.ok(site.oauth.verifyAccessToken(other.tokens.access_token).ok, 'the other grant lives on');
  const after = await (await browser.request(`${site.base}${OAUTH_URLS.clients}`)).text();
  assert.equal(after.includes(client.client_id), false);
  assert.ok(after.includes(other.client.client_id));
});

test('the session cookie: HttpOnly, SameSite=Lax, Path=/, short-lived', async () => {
  const browser = new Browser();
  let step = await browser.follow(`${site.base}${OAUTH_URLS.clients}`, `${site.base}${OAUTH_URLS.callback}`);
  while (!(step instanceof URL)) {
    const html = await step.text();
    const { action } = formOf(html, site.idp!.issuer);
    const prompt = /name="prompt" value="(\w+)"/.exec(html)![1]!;
    const fields: Record<string, string> = prompt === 'login' ? { prompt, login: OWNER, password: 'x' } : { prompt };
    step = await browser.follow(action, `${site.base}${OAUTH_URLS.callback}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }
  const response = await browser.request(step.href);
  assert.equal(response.status, 303);
  const cookie = response.headers.get('set-cookie')!;
  assert.match(
    cookie,
    /^oauth-session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=900; HttpOnly; SameSite=Lax$/,
    'on http: no Secure and no __Host- prefix (browsers refuse them there)',
  );
});

test('a second account is refused; no session or a forged form cannot revoke', async () => {
  const { page } = await openPage('someone-else');
  assert.equal(page.status, 403);
  const { tokens } = await agent.connect();
  const grant = site.oauth.verifyAccessToken(tokens.access_token);
  assert.ok(grant.ok);
  const post = (browser: Browser, fields: Record<string, string>) =>
    browser.request(`${site.base}${OAUTH_URLS.clients}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: site.base },
      body: new URLSearchParams(fields).toString(),
    });
  assert.equal((await post(new Browser(), { csrf: 'x', grant: grant.grantId })).status, 403, 'no session');
  const { browser } = await openPage(OWNER);
  assert.equal((await post(browser, { csrf: 'forged', grant: grant.grantId })).status, 403, 'forged CSRF token');
  assert.ok(site.oauth.verifyAccessToken(tokens.access_token).ok);
});

test('the session is short-lived: after 15 minutes the page asks for a sign-in again', async () => {
  const { browser } = await openPage(OWNER);
  assert.equal((await browser.request(`${site.base}${OAUTH_URLS.clients}`)).status, 200);
  site.advance(LIMITS.oauthSessionSeconds * 1000);
  const again = await browser.request(`${site.base}${OAUTH_URLS.clients}`);
  assert.equal(again.status, 302);
  assert.ok(again.headers.get('location')!.startsWith(site.idp!.issuer));
});

test('on https the cookies are __Host- prefixed and Secure', () => {
  const https = 'https://me.example';
  assert.equal(setCookie(https, 'oauth-session', 'v', 900), '__Host-oauth-session=v; Path=/; Max-Age=900; HttpOnly; SameSite=Lax; Secure');
  assert.equal(cookieName(https, 'oauth-browser'), '__Host-oauth-browser');
  assert.equal(cookie('a=1; __Host-oauth-session=v2; b=3', cookieName(https, 'oauth-session')), 'v2');
});
