/**
 * Client ID Metadata Documents: the fetch is fenced (https, public addresses only — by
 * URL and again at connect time —, no redirects, bounded size and time), the document is
 * validated like a registration and must name itself, results are remembered; and a
 * client known only by its document URL completes the whole flow. Documents are served
 * from 127.0.0.1, which only `OAUTH_CIMD_ALLOW_LOOPBACK=1` permits.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { LIMITS } from '../../src/core/limits.ts';
import { isPublicAddress, metadataDocuments } from '../../src/oauth/cimd.ts';
import { Agent, REDIRECT } from './agent.ts';
import { discover, startIdp, startSite, type Site } from './helpers.ts';

let documents: Server;
let origin = '';
let fetches = 0;

const goodDocument = (path: string) => ({ client_id: `${origin}${path}`, client_name: 'Document client', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] });

before(async () => {
  documents = createServer((req, res) => {
    fetches++;
    const path = req.url ?? '';
    if (path === '/hang.json') return; // never answers
    if (path === '/redirect.json') return res.writeHead(302, { Location: `${origin}/good.json` }).end();
    if (path === '/large.json') return res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ...goodDocument(path), padding: 'x'.repeat(LIMITS.oauthCimdBytesMax) }));
    if (path === '/html.json') return res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>hi</p>');
    if (path === '/other.json') return res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ...goodDocument(path), client_id: `${origin}/good.json` }));
    if (path === '/secret.json') return res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ...goodDocument(path), token_endpoint_auth_method: 'private_key_jwt' }));
    if (path === '/http-redirect.json') return res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ...goodDocument(path), redirect_uris: ['http://evil.example/cb'] }));
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(goodDocument(path)));
  });
  documents.listen(0, '127.0.0.1');
  await once(documents, 'listening');
  origin = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
});
after(() => {
  documents.closeAllConnections();
  documents.close();
});

test('only public addresses are fetched from', () => {
  for (const address of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '224.0.0.1']) {
    assert.equal(isPublicAddress(address), false, address);
  }
  for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111']) assert.equal(isPublicAddress(address), true, address);
});

test('without the loopback allowance: http, private address literals and names resolving to loopback are refused', async () => {
  const resolve = metadataDocuments({ allowLoopback: false, now: () => 0 });
  for (const clientId of [`${origin}/good.json`, 'https://127.0.0.1/client.json', 'https://[::1]/client.json', 'https://10.0.0.1/client.json', 'https://localhost/client.json', 'https://app.example/', 'https://user:pw@app.example/c.json']) {
    const lookup = await resolve(clientId);
    assert.ok('error' in lookup, clientId);
  }
  assert.match(((await resolve('https://localhost/client.json')) as { description: string }).description, /private address/);
});

test('a document is fetched once, validated, and must name itself; redirects, oversize, other media types and timeouts are refused', async () => {
  const resolve = metadataDocuments({ allowLoopback: true, now: () => 0, timeoutMs: 200 });
  const before = fetches;
  const good = await resolve(`${origin}/good.json`);
  assert.ok('client' in good);
  assert.equal(good.client.metadata.client_name, 'Document client');
  await resolve(`${origin}/good.json`);
  assert.equal(fetches - before, 1, 'remembered');
  await Promise.all([resolve(`${origin}/together.json`), resolve(`${origin}/together.json`), resolve(`${origin}/together.json`)]);
  assert.equal(fetches - before, 2, 'requests arriving together share one fetch');
  for (const path of ['/redirect.json', '/large.json', '/html.json', '/other.json', '/secret.json', '/http-redirect.json', '/hang.json']) {
    const lookup = await resolve(`${origin}${path}`);
    assert.ok('error' in lookup, path);
    assert.doesNotMatch(lookup.description, /ECONN|127\.0\.0\.1:/, 'nothing about the network');
  }
});

let site: Site & { idp?: { issuer: string } };
test('a client known only by its metadata document URL completes the flow', async () => {
  site = await startSite({ idp: startIdp, cimdAllowLoopback: true });
  try {
    const agent = new Agent(site, await discover(site));
    const client = { client_id: `${origin}/flow.json`, token_endpoint_auth_method: 'none' as const };
    const attempt = await agent.authorizationUrl(client);
    const params = await agent.approved(client, attempt);
    const tokens = await agent.exchange(client, params, attempt.verifier);
    const verified = site.oauth.verifyAccessToken(tokens.access_token);
    assert.ok(verified.ok);
    assert.equal(verified.clientId, client.client_id);
    const refreshed = await agent.refresh(client, tokens.refresh_token!);
    assert.ok(site.oauth.verifyAccessToken(refreshed.access_token).ok);
  } finally {
    await site.stop();
  }
});
