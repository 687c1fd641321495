/**
 * The authorization endpoint's refusals: errors about the client or its redirect URI
 * are shown on a page and never redirected; the others go back with `state` and `iss`
 * to a client the owner already granted (tests/oauth/redirect.test.ts: any other gets a
 * page); only the owner can finish; Deny, a forged or replayed consent, a
 * callback in another browser, an expired client.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { LIMITS } from '../../src/core/limits.ts';
import { OAUTH_URLS } from '../../src/urls.ts';
import { Agent, REDIRECT, startAgentSite } from './agent.ts';
import { Browser, formOf, OWNER, signIn, type Site } from './helpers.ts';

let site: Site & { idp?: { issuer: string } };
let agent: Agent;

before(async () => ({ site, agent } = await startAgentSite()));
after(() => site.stop());

/** Asks the authorization endpoint once, without signing in. */
const ask = (url: string) => fetch(url, { redirect: 'manual' });

test('an unknown client, a missing or unregistered redirect URI, a repeated parameter: a page, never a redirect', async () => {
  const client = await agent.register('Two redirects', [REDIRECT, 'http://127.0.0.1:9/other']);
  const cases = [
    (await agent.authorizationUrl({ client_id: 'client_unknown' })).url,
    (await agent.authorizationUrl(client, { redirect_uri: 'http://127.0.0.1:9/callback/extra' })).url,
    (await agent.authorizationUrl(client, { redirect_uri: 'https://attacker.example/callback' })).url,
    (await agent.authorizationUrl(client, { redirect_uri: null })).url,
    `${(await agent.authorizationUrl(client)).url}&client_id=${client.client_id}`,
    // A Client ID Metadata Document at a private address: refused before any fetch.
    (await agent.authorizationUrl({ client_id: 'https://10.0.0.1/metadata.json' })).url,
  ];
  for (const url of cases) {
    const response = await ask(url);
    assert.equal(response.status, 400, url);
    assert.equal(response.headers.get('location'), null, url);
    assert.match(response.headers.get('content-type')!, /^text\/html/);
    assert.match(response.headers.get('content-security-policy')!, /frame-ancestors 'none'/);
  }
});

test('plain PKCE, missing PKCE, a bad challenge, another response type, an unknown scope, another resource: back to a client the owner granted, with the error, state and iss', async () => {
  // Only a client holding a grant has a trusted redirect URI (tests/oauth/redirect.test.ts: the others get a page).
  const { client } = await agent.connect();
  const cases: [Record<string, string | null>, string][] = [
    [{ code_challenge_method: 'plain' }, 'invalid_request'],
    [{ code_challenge_method: null }, 'invalid_request'],
    [{ code_challenge: null, code_challenge_method: null }, 'invalid_request'],
    [{ code_challenge: 'too-short' }, 'invalid_request'],
    [{ response_type: 'token' }, 'unsupported_response_type'],
    [{ scope: 'taste:read taste:admin' }, 'invalid_scope'],
    [{ resource: `${site.base}/mcp` }, 'invalid_target'],
    [{ resource: 'https://elsewhere.example/owner/mcp' }, 'invalid_target'],
  ];
  for (const [overrides, error] of cases) {
    const attempt = await agent.authorizationUrl(client, overrides);
    const response = await ask(attempt.url);
    assert.equal(response.status, 302, JSON.stringify(overrides));
    const location = new URL(response.headers.get('location')!);
    assert.equal(`${location.origin}${location.pathname}`, REDIRECT);
    assert.equal(location.searchParams.get('error'), error, JSON.stringify(overrides));
    assert.equal(location.searchParams.get('state'), attempt.state);
    assert.equal(location.searchParams.get('iss'), site.base);
  }
});

test('a second account at the identity provider gets access_denied, and no code: on a page for a client not yet granted, at the redirect URI for one granted', async () => {
  const fresh = await agent.register();
  const { client: granted } = await agent.connect();
  const warned: string[] = [];
  const original = console.warn;
  console.warn = (message: string) => warned.push(message);
  let page: URL | Response;
  let back: URL | Response;
  const attempt = await agent.authorizationUrl(granted);
  try {
    page = await signIn(new Browser(), (await agent.authorizationUrl(fresh)).url, 'someone-else', REDIRECT, site.idp!.issuer);
    back = await signIn(new Browser(), attempt.url, 'someone-else', REDIRECT, site.idp!.issuer);
  } finally {
    console.warn = original;
  }
  const ours = warned.filter((message) => message.startsWith('owner lane:'));
  assert.deepEqual(
    ours,
    Array(2).fill('owner lane: a sign-in by subject "someone-else", which is not OWNER_SUBJECT, was refused'),
    'the operator learns the subject it refused',
  );
  assert.ok(page instanceof Response);
  assert.equal(page.status, 403);
  assert.match(await page.text(), /access_denied/);
  assert.ok(back instanceof URL);
  assert.equal(back.searchParams.get('error'), 'access_denied');
  assert.equal(back.searchParams.get('code'), null);
  assert.equal(back.searchParams.get('state'), attempt.state);
});

test('Deny sends access_denied back to the client', async () => {
  const client = await agent.register();
  const attempt = await agent.authorizationUrl(client);
  const back = await agent.decide(attempt, 'deny');
  assert.equal(back.searchParams.get('error'), 'access_denied');
  assert.equal(back.searchParams.get('code'), null);
  assert.equal(back.searchParams.get('iss'), site.base);
});

test('the consent page names the client, its redirect host and each scope, and cannot be framed', async () => {
  const client = await agent.register('Notebook <script>');
  const attempt = await agent.authorizationUrl(client);
  const browser = new Browser();
  const page = await signIn(browser, attempt.url, OWNER, REDIRECT, site.idp!.issuer);
  assert.ok(page instanceof Response);
  const html = await page.text();
  assert.match(html, /Notebook &lt;script&gt;/, 'escaped');
  assert.match(html, /127\.0\.0\.1:9/);
  assert.match(html, /taste:read/);
  assert.match(html, /taste:write/);
  assert.match(html, /Read and change your collections/);
  const policy = page.headers.get('content-security-policy')!;
  assert.match(policy, /frame-ancestors 'none'/);
  assert.match(policy, /form-action 'self' http:\/\/127\.0\.0\.1:9;/, 'the form may lead on to the client, and nowhere else');
  assert.doesNotMatch(policy, /script-src[^;]*unsafe/);
  assert.doesNotMatch(html, /<script/);
});

test('the consent form: a forged token, another browser, another site, a second answer are all refused', async () => {
  const client = await agent.register();
  const attempt = await agent.authorizationUrl(client);
  const browser = new Browser();
  const page = await signIn(browser, attempt.url, OWNER, REDIRECT, site.idp!.issuer);
  assert.ok(page instanceof Response);
  const html = await page.text();
  const { action, fields } = formOf(html, site.base);
  const form = (values: Record<string, string>, origin = site.base) => ({
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
    body: new URLSearchParams(values).toString(),
  });
  assert.equal((await browser.request(action, form({ csrf: 'forged', decision: 'approve' }))).status, 400);
  assert.equal((await browser.request(action, form({ ...fields, decision: 'approve' }, 'https://attacker.example'))).status, 403);
  assert.equal((await new Browser().request(action, form({ ...fields, decision: 'approve' }))).status, 400, 'no cookie: another browser');
  // The forged attempts spent nothing: the owner's own answer still works, once.
  const answered = await browser.request(action, form({ ...fields, decision: 'approve' }));
  assert.equal(answered.status, 303, 'RFC 9700 §4.12: a 303 after the form POST');
  const back = new URL(answered.headers.get('location')!);
  assert.ok(back.searchParams.get('code'));
  assert.equal((await browser.request(action, form({ ...fields, decision: 'approve' }))).status, 400, 'answered already');
});

test('a callback replayed, or opened in another browser, does nothing', async () => {
  const client = await agent.register();
  const attempt = await agent.authorizationUrl(client);
  const browser = new Browser();
  // Stop at the callback, before the site sees it.
  const callback = `${site.base}${OAUTH_URLS.callback}`;
  let step = await browser.follow(attempt.url, callback);
  while (!(step instanceof URL)) {
    const html = await step.text();
    const { action } = formOf(html, site.idp!.issuer);
    const prompt = /name="prompt" value="(\w+)"/.exec(html)![1]!;
    const fields: Record<string, string> = prompt === 'login' ? { prompt, login: OWNER, password: 'x' } : { prompt };
    step = await browser.follow(action, callback, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }
  const elsewhere = await new Browser().request(step.href);
  assert.equal(elsewhere.status, 400, 'another browser');
  const first = await browser.request(step.href);
  assert.equal(first.status, 200, 'the stranger spoiled nothing: the owner reaches the consent page');
  assert.match(await first.text(), /Approve/);
  const replay = await browser.request(step.href);
  assert.equal(replay.status, 400, 'the state was spent by the first use');
});

test('a client registration expires after 90 days: its authorizations are refused on a page', async () => {
  const client = await agent.register();
  site.advance(LIMITS.oauthClientSeconds * 1000 + 1000);
  const response = await ask((await agent.authorizationUrl(client)).url);
  assert.equal(response.status, 400);
  assert.match(await response.text(), /expired/);
});
