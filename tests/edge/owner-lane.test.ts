/**
 * The owner lane through the Cloudflare Pages edge (wrangler pages dev): with the
 * authorization server configured for an identity provider (oidc-provider) and the
 * site's public URL being the edge's, OAuth metadata, registration, the authorization
 * request and the owner's MCP endpoint all reach the runtime and answer as it does.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startEdge, type RunningEdge } from '../helpers/edge.ts';
import { discover, IDP_CLIENT_ID, IDP_CLIENT_SECRET, OWNER, startIdp, type Idp } from '../oauth/helpers.ts';

let run: RunningEdge;
let idp: Idp;
before(async () => {
  run = await startEdge(async (edge) => {
    idp = await startIdp(`${edge}/oauth/callback`);
    return {
      SITE_URL: edge,
      OWNER_OIDC_ISSUER: idp.issuer,
      OWNER_OIDC_CLIENT_ID: IDP_CLIENT_ID,
      OWNER_OIDC_CLIENT_SECRET: IDP_CLIENT_SECRET,
      OWNER_SUBJECT: OWNER,
    };
  });
});
after(async () => {
  await run.stop();
  await idp.stop();
});

test('OAuth metadata, registration, authorization and the owner MCP endpoint reach the runtime through the edge', async () => {
  for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource/owner/mcp']) {
    const [edge, origin] = await Promise.all([fetch(`${run.edge}${path}`), fetch(`${run.origin}${path}`)]);
    assert.equal(edge.status, 200, path);
    assert.equal(await edge.text(), await origin.text(), path);
  }
  // An OAuth client (oauth4webapi) discovers the server from the resource at the edge, as an MCP client does, and registers there.
  const server = await discover({ resource: `${run.edge}/owner/mcp` });
  const before = run.hits.length;
  const registration = await fetch(server.registration_endpoint!, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      client_name: 'edge test',
      redirect_uris: ['http://127.0.0.1:9/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }),
  });
  assert.equal(registration.status, 201);
  const client = (await registration.json()) as { client_id: string };
  assert.ok(client.client_id);
  const authorize = new URL(server.authorization_endpoint!);
  for (const [k, v] of Object.entries({
    client_id: client.client_id,
    response_type: 'code',
    redirect_uri: 'http://127.0.0.1:9/cb',
    scope: 'taste:read',
    state: 's',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    resource: `${run.edge}/owner/mcp`,
  }))
    authorize.searchParams.set(k, v);
  const [viaEdge, direct] = await Promise.all([
    fetch(authorize, { redirect: 'manual' }),
    fetch(authorize.href.replace(run.edge, run.origin), { redirect: 'manual' }),
  ]);
  assert.equal(viaEdge.status, direct.status);
  assert.ok(viaEdge.status === 302 || viaEdge.status === 303, `authorize: ${viaEdge.status}`);
  const owner = await fetch(`${run.edge}/owner/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: '{}',
  });
  assert.equal(owner.status, 401);
  assert.match(owner.headers.get('www-authenticate') ?? '', /^Bearer /);
  assert.deepEqual(
    run.hits.slice(before).map((h) => `${h.method} ${h.url.split('?')[0]}`),
    ['POST /oauth/register', 'GET /oauth/authorize', 'POST /owner/mcp'],
  );
});
