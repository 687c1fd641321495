/**
 * The MCP SDK client's own OAuth support against this site (issue 17, item 8): an
 * `OAuthClientProvider` held in memory, `StreamableHTTPClientTransport` and the SDK's
 * `auth()`. The SDK does everything a real client does — the 401 from `/owner/mcp`, the
 * protected resource metadata, the authorization server metadata, dynamic registration,
 * the PKCE authorization URL — and hands the URL to the provider; the test is the owner's
 * browser (tests/oauth/helpers.ts: plain fetch through the real /oauth/authorize, the
 * test identity provider's sign-in as the owner, the consent POST); the SDK exchanges the
 * code, calls the endpoint with the token, and later refreshes it.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { auth, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { answerConsent, Browser, OWNER, signIn, startIdp, startSite, type Idp, type Site } from '../oauth/helpers.ts';

let site: Site & { idp?: Idp };
before(async () => {
  site = await startSite({ idp: startIdp });
});
after(() => site.stop());

/** An MCP client's credentials, kept in memory; the redirect is recorded for the test's browser to follow. */
class MemoryProvider implements OAuthClientProvider {
  readonly redirectUrl = 'http://127.0.0.1:33418/callback';
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: 'MCP SDK test client',
    redirect_uris: [this.redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  information?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  readonly stateValue = 'sdk-state-1';
  state = () => this.stateValue;
  clientInformation = () => this.information;
  saveClientInformation = (information: OAuthClientInformationMixed) => {
    this.information = information;
  };
  tokens = () => this.saved;
  saveTokens = (tokens: OAuthTokens) => {
    this.saved = tokens;
  };
  redirectToAuthorization = (url: URL) => {
    this.authorizationUrl = url;
  };
  saveCodeVerifier = (verifier: string) => {
    this.verifier = verifier;
  };
  codeVerifier = () => this.verifier;
}

/** The owner's browser at the authorization URL the SDK handed over: sign-in, Approve; the code sent back. */
async function approveInBrowser(provider: MemoryProvider): Promise<string> {
  const browser = new Browser();
  const consent = await signIn(browser, provider.authorizationUrl!.href, OWNER, provider.redirectUrl, site.idp!.issuer);
  assert.ok(consent instanceof Response, 'the consent page');
  const back = await answerConsent(browser, consent, site.base, 'approve', provider.redirectUrl);
  assert.ok(back instanceof URL, 'sent back to the client');
  assert.equal(back.searchParams.get('state'), provider.stateValue);
  assert.equal(back.searchParams.get('iss'), site.base);
  return back.searchParams.get('code')!;
}

test('the MCP SDK client authorizes itself: discovery, registration, the owner’s sign-in and consent, token, tools/list and tools/call, then a refresh', async () => {
  const provider = new MemoryProvider();
  const endpoint = new URL(site.resource);

  // 1. The first connection meets the 401; the SDK discovers, registers and asks for a redirect.
  const first = new StreamableHTTPClientTransport(endpoint, { authProvider: provider });
  await assert.rejects(new Client({ name: 'sdk-auth-test', version: '1.0.0' }).connect(first), UnauthorizedError);
  assert.ok(provider.information?.client_id, 'registered dynamically');
  const url = provider.authorizationUrl!;
  assert.equal(`${url.origin}${url.pathname}`, `${site.base}/oauth/authorize`);
  assert.equal(url.searchParams.get('client_id'), provider.information.client_id);
  assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
  assert.equal(url.searchParams.get('resource'), site.resource);
  assert.equal(url.searchParams.get('state'), provider.stateValue);
  assert.equal(url.searchParams.get('scope'), 'taste:read', 'the scope the 401 challenge names');

  // 2. The owner's browser: the identity provider's sign-in, then the site's consent page.
  const code = await approveInBrowser(provider);

  // 3. The SDK exchanges the code (with its verifier and the resource) and keeps the tokens.
  await first.finishAuth(code);
  const issued = provider.saved!;
  assert.equal(issued.token_type.toLowerCase(), 'bearer');
  assert.equal(issued.scope, 'taste:read');
  assert.ok(issued.refresh_token);

  // 4. Connected: the owner lane's tools are listed, and a call answers.
  const client = new Client({ name: 'sdk-auth-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: provider }));
  try {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    for (const name of ['taste.find', 'taste.get_for_edit', 'taste.log', 'taste.rate', 'music.set_stance']) assert.ok(names.includes(name), name);
    const found = await client.callTool({ name: 'taste.find', arguments: { collection: 'books', limit: 1 } });
    assert.equal(found.isError, undefined);
    assert.equal((found.structuredContent as { items: unknown[] }).items.length, 1);
  } finally {
    await client.close();
  }

  // 5. The SDK refreshes: a new access token and a new (rotated) refresh token, which work.
  assert.equal(await auth(provider, { serverUrl: endpoint }), 'AUTHORIZED');
  const refreshed = provider.saved!;
  assert.notEqual(refreshed.access_token, issued.access_token);
  assert.notEqual(refreshed.refresh_token, issued.refresh_token);
  const again = new Client({ name: 'sdk-auth-test', version: '1.0.0' });
  await again.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: provider }));
  try {
    assert.ok((await again.listTools()).tools.length > 0);
  } finally {
    await again.close();
  }
});

test('step-up: a write with the read grant is 403 naming taste:write; authorizing again with exactly that scope keeps reading (writing includes it) and allows the write', async () => {
  const provider = new MemoryProvider();
  const endpoint = new URL(site.resource);
  const first = new StreamableHTTPClientTransport(endpoint, { authProvider: provider });
  await assert.rejects(new Client({ name: 'sdk-auth-test', version: '1.0.0' }).connect(first), UnauthorizedError);
  await first.finishAuth(await approveInBrowser(provider));
  const write = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'taste.rate', arguments: { collection: 'movies', canonicalId: 'itm_000000000000000000000000', rating: 4 } },
  };
  const refused = await fetch(endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${provider.saved!.access_token}` },
    body: JSON.stringify(write),
  });
  assert.equal(refused.status, 403);
  const scope = /scope="([^"]+)"/.exec(refused.headers.get('www-authenticate')!)![1]!;
  assert.equal(scope, 'taste:write');

  // A client following the challenge authorizes again with exactly its scope (the old tokens dropped).
  provider.saved = undefined;
  assert.equal(await auth(provider, { serverUrl: endpoint, scope }), 'REDIRECT');
  assert.equal(provider.authorizationUrl!.searchParams.get('scope'), scope);
  assert.equal(await auth(provider, { serverUrl: endpoint, authorizationCode: await approveInBrowser(provider) }), 'AUTHORIZED');
  assert.equal(provider.saved!.scope, 'taste:write');
  const client = new Client({ name: 'sdk-auth-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: provider }));
  try {
    assert.ok((await client.listTools()).tools.length > 0, 'still reads');
    // This site has no generations, so the write tool says so — past the scope check.
    const rated = await client.callTool({ name: 'taste.rate', arguments: { collection: 'movies', canonicalId: 'itm_000000000000000000000000', rating: 4 } });
    assert.match((rated.content as { text: string }[])[0]!.text, /not available/);
  } finally {
    await client.close();
  }
});
