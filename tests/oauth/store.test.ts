/**
 * The store contract every `OAuthStore` must keep (this one, and a shared store that may
 * replace it): secrets kept only as hashes, single use decided by the store (codes,
 * refresh tokens, transactions), a revoked grant taking its tokens along, expiry by the
 * caller's clock, and purging only what is safe to forget.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sha256, SqliteOAuthStore, type CodeRecord, type GrantRecord, type OAuthStore } from '../../src/oauth/store.ts';

const stores: [string, () => OAuthStore][] = [['SqliteOAuthStore', () => new SqliteOAuthStore(':memory:')]];

const code: CodeRecord = {
  clientId: 'c',
  clientName: 'C',
  subject: 'owner',
  redirectUri: 'https://app.example/cb',
  codeChallenge: 'x'.repeat(43),
  scopes: ['taste:read'],
  resource: 'https://me.example/owner/mcp',
  expiresAt: 1000,
};
const grant: GrantRecord = {
  id: 'g1',
  clientId: 'c',
  clientName: 'C',
  subject: 'owner',
  scopes: ['taste:read'],
  resource: 'https://me.example/owner/mcp',
  createdAt: 0,
  lastUsedAt: null,
  revokedAt: null,
};

for (const [name, open] of stores) {
  test(`${name}: a code is spent once; its second use names the grant its first use created`, () => {
    const store = open();
    store.putCode('the-code', code);
    const first = store.takeCode('the-code', 10)!;
    assert.equal(first.first, true);
    assert.deepEqual(first.record, code);
    store.setCodeGrant('the-code', 'g1');
    const second = store.takeCode('the-code', 11)!;
    assert.equal(second.first, false);
    assert.equal(second.grantId, 'g1');
    assert.equal(store.takeCode('another', 12), undefined);
    store.close();
  });

  test(`${name}: a refresh token is used once; revoking a grant forgets its tokens`, () => {
    const store = open();
    store.createGrant(grant);
    const base = { grantId: 'g1', clientId: 'c', scopes: ['taste:read'], resource: grant.resource, expiresAt: 5000, usedAt: null };
    store.putToken('refresh', { ...base, kind: 'refresh' });
    store.putToken('access', { ...base, kind: 'access' });
    assert.equal(store.useToken('refresh', 1), true);
    assert.equal(store.useToken('refresh', 2), false);
    assert.equal(store.getToken('refresh')?.usedAt, 1);
    store.revokeGrant('g1', 3);
    assert.equal(store.getToken('access'), undefined);
    assert.equal(store.getToken('refresh'), undefined);
    assert.equal(store.getGrant('g1')?.revokedAt, 3);
    assert.deepEqual(store.listGrants(), []);
    store.close();
  });

  test(`${name}: transactions are read by key and kind, taken once, and expire by the caller's clock`, () => {
    const store = open();
    store.putTransaction('k', 'consent', { a: 1 }, 100);
    assert.equal(store.getTransaction('k', 'sign-in', 0), undefined, 'another kind');
    assert.deepEqual(store.getTransaction('k', 'consent', 99), { a: 1 });
    assert.equal(store.getTransaction('k', 'consent', 100), undefined, 'expired');
    assert.deepEqual(store.takeTransaction('k', 'consent', 50), { a: 1 });
    assert.equal(store.takeTransaction('k', 'consent', 50), undefined, 'taken');
    store.close();
  });

  test(`${name}: purge forgets expired tokens and transactions, keeps used codes a day, keeps expired clients a month`, () => {
    const store = open();
    const day = 24 * 3600 * 1000;
    store.putCode('old-code', { ...code, expiresAt: 1000 });
    store.putToken('t', { grantId: 'g', kind: 'access', clientId: 'c', scopes: [], resource: 'r', expiresAt: 1000, usedAt: null });
    store.putTransaction('x', 'session', {}, 1000);
    store.putClient({
      clientId: 'c',
      metadata: { redirect_uris: ['https://a.example/cb'], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none' },
      createdAt: 0,
      expiresAt: 1000,
    });
    store.purge(2000);
    assert.equal(store.getToken('t'), undefined);
    assert.equal(store.getTransaction('x', 'session', 0), undefined);
    assert.ok(store.takeCode('old-code', 2000), 'a replay a little later is still recognised');
    assert.ok(store.getClient('c'), 'an expired client is still known, so it hears "expired"');
    store.purge(1000 + 31 * day);
    assert.equal(store.takeCode('old-code', 0), undefined);
    assert.equal(store.getClient('c'), undefined);
    store.close();
  });
}

test('secrets are stored as SHA-256, base64url', () => {
  assert.equal(sha256('abc'), 'ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
});
