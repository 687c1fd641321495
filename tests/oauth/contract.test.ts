/**
 * The owner lane's answers match the OpenAPI description (src/openapi/oauth-paths.ts),
 * judged by the independent validator of tests/helpers/contract.ts: the two metadata
 * documents, a registration and a refused one, the token endpoint's RFC 6749 errors and
 * a whole exchange, a revocation, the authorization page's refusal, and `/owner/mcp`'s
 * 401 and its answer with the token.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { OAUTH_URLS } from '../../src/urls.ts';
import { fetchAndCheck } from '../helpers/contract.ts';
import { Agent } from './agent.ts';
import { discover, startIdp, startSite, type Site } from './helpers.ts';

let site: Site;
before(async () => {
  site = await startSite({ idp: startIdp });
});
after(() => site.stop());

const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});
const jsonBody = (value: unknown): RequestInit => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(value) });

test('metadata, registration, token errors, revocation and the authorization page answer as described', async () => {
  await fetchAndCheck(site.base, OAUTH_URLS.protectedResource);
  await fetchAndCheck(site.base, OAUTH_URLS.authorizationServer);
  const registered = await fetchAndCheck(site.base, OAUTH_URLS.register, jsonBody({ client_name: 'Contract', redirect_uris: ['http://127.0.0.1:9/cb'] }));
  assert.equal(registered.status, 201);
  const clientId = (JSON.parse(registered.body) as { client_id: string }).client_id;
  assert.equal((await fetchAndCheck(site.base, OAUTH_URLS.register, jsonBody({ redirect_uris: ['http://evil.example/cb'] }))).status, 400);
  const grant = await fetchAndCheck(
    site.base,
    OAUTH_URLS.token,
    form({ grant_type: 'authorization_code', client_id: clientId, code: 'nope', redirect_uri: 'http://127.0.0.1:9/cb', code_verifier: 'a'.repeat(43) }),
  );
  assert.equal(grant.status, 400);
  assert.equal((JSON.parse(grant.body) as { error: string }).error, 'invalid_grant');
  assert.equal((await fetchAndCheck(site.base, OAUTH_URLS.token, form({ grant_type: 'refresh_token', client_id: 'unknown', refresh_token: 'x' }))).status, 401);
  assert.equal((await fetchAndCheck(site.base, OAUTH_URLS.revoke, form({ token: 'unknown', client_id: clientId }))).status, 200);
  assert.equal((await fetchAndCheck(site.base, `${OAUTH_URLS.authorize}?client_id=unknown&response_type=code`)).status, 400);
});

test('a whole exchange and /owner/mcp with and without the token answer as described', async () => {
  const agent = new Agent(site, await discover(site));
  const { client, tokens } = await agent.connect();
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-11-25' };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  assert.equal((await fetchAndCheck(site.base, OAUTH_URLS.ownerMcp, { method: 'POST', headers, body })).status, 401);
  assert.equal(
    (await fetchAndCheck(site.base, OAUTH_URLS.ownerMcp, { method: 'POST', headers: { ...headers, Authorization: `Bearer ${tokens.access_token}` }, body }))
      .status,
    200,
  );
  const refreshed = await fetchAndCheck(
    site.base,
    OAUTH_URLS.token,
    form({ grant_type: 'refresh_token', client_id: client.client_id, refresh_token: tokens.refresh_token!, resource: site.resource }),
  );
  assert.equal(refreshed.status, 200);
});
