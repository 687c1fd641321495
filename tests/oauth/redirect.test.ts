/**
 * `/oauth/authorize` is not an open redirector (RFC 9700 §4.11.2; issue 32 item 1).
 * Registration is anonymous, so a redirect URI proves nothing until the owner has
 * approved its client: an error in a request from a client without a grant is shown on
 * a page naming the client and where it would have sent the browser, never a 302 to the
 * attacker's page. A client the owner already granted still hears its errors at its
 * redirect URI (RFC 6749 §4.1.2.1). Registration refuses redirect URIs with userinfo,
 * private-use schemes that are not reverse-DNS names, and operating-system handlers.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Agent, REDIRECT, startAgentSite } from './agent.ts';
import type { Site } from './helpers.ts';

let site: Site & { idp?: { issuer: string } };
let agent: Agent;

before(async () => ({ site, agent } = await startAgentSite()));
after(() => site.stop());

const ask = (url: string) => fetch(url, { redirect: 'manual' });

async function registerRaw(redirectUris: string[], name = 'Phisher') {
  return fetch(`${site.base}/oauth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: name, redirect_uris: redirectUris, token_endpoint_auth_method: 'none' }),
  });
}

test("a freshly registered client with an attacker's redirect URI: its bad request is a page naming the client and host, no redirect", async () => {
  const registered = await registerRaw(['https://evil.example/phish'], 'Totally Claude');
  assert.equal(registered.status, 201);
  const { client_id } = (await registered.json()) as { client_id: string };
  for (const query of [
    `client_id=${client_id}&response_type=x`,
    `client_id=${client_id}&response_type=code`,
    `client_id=${client_id}&response_type=code&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256&scope=taste:admin`,
  ]) {
    const response = await ask(`${site.base}/oauth/authorize?${query}`);
    assert.equal(response.headers.get('location'), null, query);
    assert.equal(response.status, 400, query);
    assert.match(response.headers.get('content-type')!, /^text\/html/);
    const html = await response.text();
    assert.match(html, /Totally Claude/, 'names the client');
    assert.match(html, /evil\.example/, 'names its redirect host');
  }
});

test('a client that already holds a grant hears its errors at its redirect URI', async () => {
  const { client } = await agent.connect();
  const attempt = await agent.authorizationUrl(client, { response_type: 'token' });
  const response = await ask(attempt.url);
  assert.equal(response.status, 302);
  const location = new URL(response.headers.get('location')!);
  assert.equal(`${location.origin}${location.pathname}`, REDIRECT);
  assert.equal(location.searchParams.get('error'), 'unsupported_response_type');
});

test('registration refuses userinfo, private-use schemes without a dot, and operating-system handler schemes', async () => {
  for (const uri of [
    'https://claude.ai@evil.example/cb',
    'https://user:pass@app.example/cb',
    'myapp:/callback',
    'ms-settings:privacy',
    'search-ms:query=x',
    'intent://scan/#Intent;end',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/html,hi',
    'ms-app.example:/cb',
  ]) {
    const response = await registerRaw([uri]);
    assert.equal(response.status, 400, uri);
    assert.equal(((await response.json()) as { error: string }).error, 'invalid_client_metadata', uri);
  }
  assert.equal((await registerRaw(['com.example.app:/callback'])).status, 201, 'a reverse-DNS private-use scheme (RFC 8252 §7.1)');
});
