/**
 * The contract check itself, on hand-made responses (no server): it accepts a response
 * the description allows and rejects each way of breaking it, so a green contract run
 * means something.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COMMON_HEADERS, LIST_CACHE_CONTROL } from '../../src/http/headers.ts';
import { assertMatchesContract, REQUIRED_HEADERS_ENFORCED, type ContractResponse } from '../helpers/contract.ts';

const item = {
  canonicalId: 'itm_0123456789abcdef01234567',
  title: 'Example',
  author: 'Someone',
  coAuthors: [],
  genres: [],
  status: 'finished',
  finishedAt: '2024-05-01',
};
const page = {
  data: [item],
  meta: { totalCount: 1, pageSize: 50, timestamp: '2024-05-01T18:30:00Z' },
  links: { self: '/api/books.json', first: '/api/books.json' },
};
const listHeaders: Record<string, string> = {
  ...COMMON_HEADERS,
  'Content-Type': 'application/json',
  ETag: '"abc"',
  'Cache-Control': LIST_CACHE_CONTROL,
  Vary: 'Accept',
  'X-Total-Count': '1',
  Link: '</api/books.json>; rel="self"',
  'Link-Template': '"/api/books.json{?author,q,sort,limit,facets,cursor}"; rel="search"',
};

const response = (status: number, headers: Record<string, string>, body: unknown): ContractResponse => ({
  status,
  headers: new Headers(headers),
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

const rejects = (what: string, method: string, path: string, r: ContractResponse, message: RegExp) =>
  assert.rejects(assertMatchesContract(method, path, r), message, what);

test('a response the description allows passes', async () => {
  await assertMatchesContract('GET', '/api/books.json?author=x', response(200, listHeaders, page));
  await assertMatchesContract('HEAD', '/api/books.json', response(200, listHeaders, ''));
  await assertMatchesContract('GET', '/api/books.json', response(304, listHeaders, ''));
});

test('each way of breaking the contract is caught', async () => {
  await rejects('undocumented path', 'GET', '/api/nothing.json', response(200, listHeaders, page), /no documented path/);
  await rejects('undocumented method', 'DELETE', '/api/books.json', response(405, listHeaders, ''), /documents no DELETE/);
  await rejects('undocumented status', 'GET', '/api/books.json', response(418, listHeaders, page), /status not documented/);
  await rejects('undocumented media type', 'GET', '/api/books.json', response(200, { ...listHeaders, 'Content-Type': 'text/plain' }, 'x'), /Content-Type/);
  await rejects('unknown item field', 'GET', '/api/books.json', response(200, listHeaders, { ...page, data: [{ ...item, extra: 1 }] }), /additionalProperties/);
  await rejects('bad canonicalId', 'GET', '/api/books.json', response(200, listHeaders, { ...page, data: [{ ...item, canonicalId: 'x' }] }), /pattern/);
  await rejects('bad date format', 'GET', '/api/books.json', response(200, listHeaders, { ...page, meta: { ...page.meta, timestamp: 'yesterday' } }), /format/);
  await rejects('missing envelope part', 'GET', '/api/books.json', response(200, listHeaders, { data: [] }), /required/);
  await rejects('body on HEAD', 'HEAD', '/api/books.json', response(200, listHeaders, page), /a body was sent/);
  await rejects('wrong API-Version', 'GET', '/api/books.json', response(200, { ...listHeaders, 'API-Version': '2.0.0' }, page), /header API-Version/);
  await rejects('non-integer X-Total-Count', 'GET', '/api/books.json', response(200, { ...listHeaders, 'X-Total-Count': 'many' }, page), /X-Total-Count/);
  const problem = { type: '/problems/not-acceptable', title: 'Bad Request', status: 400, detail: 'x' };
  await rejects(
    'slug of another status',
    'GET',
    '/api/books.json',
    response(400, { ...COMMON_HEADERS, 'Cache-Control': 'no-store', 'Content-Type': 'application/problem+json' }, problem),
    /pattern/,
  );
  if (REQUIRED_HEADERS_ENFORCED) {
    const { 'Content-Usage': _, ...withoutUsage } = listHeaders;
    await rejects('missing required header', 'GET', '/api/books.json', response(200, withoutUsage, page), /Content-Usage is missing/);
  }
});
