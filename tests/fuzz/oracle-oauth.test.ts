/**
 * The fuzz oracle (bench/fuzz/oracle.ts) judges the owner lane's OAuth errors as their
 * own correct shape (RFC 6749 §5.2 JSON with `no-store`; a 401 with a Bearer challenge)
 * and its browser pages' errors as pages — and still calls the same answers a wrong
 * shape anywhere else, or when they lack what OAuth requires.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RawRequest, RawResponse } from '../../bench/fuzz/http.ts';
import { checkExchange } from '../../bench/fuzz/oracle.ts';
import { OAUTH_URLS } from '../../src/urls.ts';

const request = (target: string): RawRequest => ({ method: 'POST', target, version: 'HTTP/1.1', headers: [['Host', '127.0.0.1']] });
const answer = (status: number, headers: [string, string][], body: string): RawResponse => ({
  version: 'HTTP/1.1',
  status,
  reason: '',
  headers,
  body: Buffer.from(body),
  closes: false,
});
const shapes = (target: string, response: RawResponse) =>
  checkExchange('oauth', request(target), [], { kind: 'response', response, ms: 1 })
    .filter((f) => f.category === 'shape')
    .map((f) => f.detail);

const JSON_NO_STORE: [string, string][] = [
  ['content-type', 'application/json'],
  ['cache-control', 'no-store'],
];
const invalidGrant = JSON.stringify({ error: 'invalid_grant', error_description: 'The code is not valid; start the authorization again.' });

test('an RFC 6749 error at the token, registration and revocation endpoints is the right shape; elsewhere it is not a problem', () => {
  for (const path of [OAUTH_URLS.token, OAUTH_URLS.register, OAUTH_URLS.revoke, `${OAUTH_URLS.token}?x=1`, '/oauth/./token'])
    assert.deepEqual(shapes(path, answer(400, JSON_NO_STORE, invalidGrant)), [], path);
  assert.equal(shapes('/api/movies.json', answer(400, JSON_NO_STORE, invalidGrant)).length, 1);
});

test('an OAuth error without no-store, with a bad code, or a 401 without a Bearer challenge is a wrong shape', () => {
  assert.match(shapes(OAUTH_URLS.token, answer(400, [['content-type', 'application/json']], invalidGrant)).join(), /no-store/);
  assert.match(shapes(OAUTH_URLS.token, answer(400, JSON_NO_STORE, JSON.stringify({ error: 'Invalid Grant!' }))).join(), /not an error code/);
  assert.match(shapes(OAUTH_URLS.ownerMcp, answer(401, JSON_NO_STORE, JSON.stringify({ error: 'invalid_token' }))).join(), /Bearer challenge/);
  assert.deepEqual(
    shapes(
      OAUTH_URLS.ownerMcp,
      answer(401, [...JSON_NO_STORE, ['www-authenticate', 'Bearer resource_metadata="x", scope="taste:read"']], JSON.stringify({ error: 'invalid_token' })),
    ),
    [],
  );
});

test('the authorization page answers errors as a page; a JSON-RPC error at /owner/mcp is still judged as before', () => {
  assert.deepEqual(shapes(OAUTH_URLS.authorize, answer(400, [['content-type', 'text/html; charset=utf-8']], '<p>no</p>')), []);
  assert.equal(shapes('/api/movies.json', answer(400, [['content-type', 'text/html; charset=utf-8']], '<p>no</p>')).length, 1);
  assert.equal(
    shapes(OAUTH_URLS.ownerMcp, answer(400, JSON_NO_STORE, JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null })))
      .length,
    1,
  );
});
