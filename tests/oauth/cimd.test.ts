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
/** Answers of `/held-*` documents, kept open until a test lets them go. */
const held: import('node:http').ServerResponse[] = [];

const goodDocument = (path: string) => ({
  client_id: `${origin}${path}`,
  client_name: 'Document client',
  redirect_uris: [REDIRECT],
  token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code', 'refresh_token'],
});

before(async () => {
  documents = createServer((req, res) => {
    fetches++;
    const path = req.url ?? '';
    if (path === '/hang.json') return; // never answers
    if (path.startsWith('/held-')) return void held.push(res);
    if (path === '/status-404.json') return res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no such page');
    if (path === '/redirect.json') return res.writeHead(302, { Location: `${origin}/good.json` }).end();
    if (path === '/large.json')
      return res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ ...goodDocument(path), padding: 'x'.repeat(LIMITS.oauthCimdBytesMax) }));
    if (path === '/html.json') return res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>hi</p>');
    if (path === '/other.json')
      return res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ...goodDocument(path), client_id: `${origin}/good.json` }));
    if (path === '/secret.json')
      return res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ ...goodDocument(path), token_endpoint_auth_method: 'private_key_jwt' }));
    if (path === '/http-redirect.json')
      return res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ ...goodDocument(path), redirect_uris: ['http://evil.example/cb'] }));
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
  for (const address of [
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '224.0.0.1',
  ]) {
    assert.equal(isPublicAddress(address), false, address);
  }
  for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111']) assert.equal(isPublicAddress(address), true, address);
});

test('without the loopback allowance: http, private address literals and names resolving to loopback are refused', async () => {
  const resolve = metadataDocuments({ allowLoopback: false, now: () => 0 });
  for (const clientId of [
    `${origin}/good.json`,
    'https://127.0.0.1/client.json',
    'https://[::1]/client.json',
    'https://10.0.0.1/client.json',
    'https://localhost/client.json',
    'https://app.example/',
    'https://user:pw@app.example/c.json',
  ]) {
    const lookup = await resolve(clientId);
    assert.ok('error' in lookup, clientId);
  }
  assert.match(((await resolve('https://localhost/client.json')) as { description: string }).description, /private address/);
});

test('a document is fetched once, validated, and must name itself; redirects, oversize, other media types and timeouts are refused', async () => {
  // Only the hanging document waits for the time bound; every other answer gets all the
  // time a loaded machine needs, so no outcome but the timeout's depends on the clock.
  const resolve = metadataDocuments({ allowLoopback: true, now: () => 0, timeoutMs: 60_000 });
  const impatient = metadataDocuments({ allowLoopback: true, now: () => 0, timeoutMs: 200 });
  const before = fetches;
  const good = await resolve(`${origin}/good.json`);
  assert.ok('client' in good);
  assert.equal(good.client.metadata.client_name, 'Document client');
  await resolve(`${origin}/good.json`);
  assert.equal(fetches - before, 1, 'remembered');
  await Promise.all([resolve(`${origin}/together.json`), resolve(`${origin}/together.json`), resolve(`${origin}/together.json`)]);
  assert.equal(fetches - before, 2, 'requests arriving together share one fetch');
  for (const path of ['/redirect.json', '/large.json', '/html.json', '/other.json', '/secret.json', '/http-redirect.json', '/hang.json']) {
    const lookup = await (path === '/hang.json' ? impatient : resolve)(`${origin}${path}`);
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

/** POSTs a form to one of the site's endpoints. */
const post = (base: string, path: string, fields: Record<string, string>) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

test('no fetch for strangers: with the owner lane not set up, the token and revocation endpoints fetch nothing', async () => {
  const bare = await startSite({ cimdAllowLoopback: true });
  try {
    const before = fetches;
    const clientId = `${origin}/stranger-unset.json`;
    const token = await post(bare.base, '/oauth/token', {
      grant_type: 'authorization_code',
      client_id: clientId,
      code: 'x',
      redirect_uri: REDIRECT,
      code_verifier: 'v'.repeat(43),
    });
    assert.equal(token.status, 401);
    assert.equal(((await token.json()) as { error: string }).error, 'invalid_client');
    const revoked = await post(bare.base, '/oauth/revoke', { client_id: clientId, token: 'x' });
    assert.equal(revoked.status, 401);
    await (await fetch(`${bare.base}/oauth/authorize?client_id=${encodeURIComponent(clientId)}&response_type=code`)).text();
    assert.equal(fetches, before, 'nothing was fetched');
  } finally {
    await bare.stop();
  }
});

test('no fetch for strangers: set up, the token and revocation endpoints fetch only for a client holding a live code or grant', async () => {
  const configured = await startSite({ idp: startIdp, cimdAllowLoopback: true });
  try {
    const before = fetches;
    const clientId = `${origin}/stranger-set.json`;
    const token = await post(configured.base, '/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: 'x' });
    assert.equal(token.status, 401);
    assert.equal((await post(configured.base, '/oauth/token', { client_id: clientId, token: 'x' })).status, 401);
    assert.equal((await post(configured.base, '/oauth/revoke', { client_id: clientId, token: 'x' })).status, 401);
    assert.equal(fetches, before, 'nothing was fetched');
  } finally {
    await configured.stop();
  }
});

test('the remote result is never echoed, only port 443 is fetched from, and concurrent fetches are capped', async () => {
  const resolve = metadataDocuments({ allowLoopback: true, now: () => 0, timeoutMs: 2000 });
  const missing = await resolve(`${origin}/status-404.json`);
  assert.ok('error' in missing);
  assert.doesNotMatch(missing.description, /404|answer was|status/i, 'the remote status is not reported');
  const strict = metadataDocuments({ allowLoopback: false, now: () => 0, timeoutMs: 200 });
  const port = await strict('https://app.invalid:8443/client.json');
  assert.ok('error' in port);
  assert.match(port.description, /443/);

  const before = fetches;
  const pending = Array.from({ length: LIMITS.oauthCimdFetchesMax }, (_, i) => resolve(`${origin}/held-${i}.json`));
  while (held.length < LIMITS.oauthCimdFetchesMax) await new Promise((done) => setImmediate(done));
  const extra = await resolve(`${origin}/held-extra.json`);
  assert.ok('error' in extra, 'past the cap: refused without a fetch');
  assert.equal(fetches - before, LIMITS.oauthCimdFetchesMax);
  for (const res of held.splice(0)) res.writeHead(404).end();
  await Promise.all(pending);
});

test('a failed fetch is remembered for 30 to 60 seconds, not an hour; the cache is keyed by the parsed URL', async () => {
  let clock = 0;
  const resolve = metadataDocuments({ allowLoopback: true, now: () => clock, timeoutMs: 2000 });
  const before = fetches;
  await resolve(`${origin}/status-404.json`);
  clock += 29_000;
  await resolve(`${origin}/status-404.json`);
  assert.equal(fetches - before, 1, 'remembered for at least 30 s');
  clock += 32_000;
  await resolve(`${origin}/status-404.json`);
  assert.equal(fetches - before, 2, 'asked again after at most 60 s');

  const good = await resolve(`${origin}/keyed.json`);
  assert.ok('client' in good);
  const respelled = await resolve(`${origin}/./keyed.json`);
  assert.ok('error' in respelled, 'the document names the other spelling as its client_id');
  assert.equal(fetches - before, 3, 'two spellings of one URL: one fetch');
});

test("a metadata document on an attacker's own host cannot make /oauth/authorize redirect its errors", async () => {
  const documentSite = await startSite({ idp: startIdp, cimdAllowLoopback: true });
  try {
    const clientId = `${origin}/phisher.json`;
    const response = await fetch(
      `${documentSite.base}/oauth/authorize?client_id=${encodeURIComponent(clientId)}&response_type=x&redirect_uri=${encodeURIComponent(REDIRECT)}`,
      { redirect: 'manual' },
    );
    assert.equal(response.headers.get('location'), null);
    assert.equal(response.status, 400);
    assert.match(await response.text(), /Document client/);
  } finally {
    await documentSite.stop();
  }
});
