/**
 * The RPC contract as published: the committed declaration is the generated one (`npm
 * run docs` moves it forward), a change that removes or narrows a member fails the
 * compatibility check while an addition passes, the build serves the declaration and the
 * consumer metadata whose checksum is the declaration's sha256, linked from the
 * metadata, the API catalog and `service.describe()`, and the capnweb range it names is
 * the one the server depends on.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { newHttpBatchRpcSession } from 'capnweb';
import type { Root } from '../../src/rpc/api.d.ts';
import { incompatibilities } from '../../src/rpc/compatibility.ts';
import { CAPNWEB_CLIENT_RANGE } from '../../src/rpc/contract.ts';
import { rpcDeclaration } from '../../src/rpc/declaration.ts';
import { DECLARATION_PATH } from '../../src/rpc/snapshot.ts';
import { LINKS } from '../../src/urls.ts';
import { startRpcServer, type RpcServer } from './server.ts';

const committed = readFileSync(DECLARATION_PATH, 'utf8');

test('the committed declaration is the generated one (npm run docs moves it forward)', () => {
  assert.equal(committed, rpcDeclaration());
});

test('a change that removes or narrows a member is breaking; an addition is not', () => {
  assert.deepEqual(incompatibilities(committed, committed), []);
  const addition = committed.replace('export interface Root extends RpcTarget {', 'export interface Root extends RpcTarget {\n  extra: Service;');
  assert.deepEqual(incompatibilities(committed, addition), []);
  const removedFilter = committed.replace(/(export interface MoviesFilters \{[\s\S]*?)\n {2}\/\*\*[^\n]*\*\/\n {2}genre\?: string;/, '$1');
  assert.notEqual(removedFilter, committed);
  assert.deepEqual(incompatibilities(committed, removedFilter), ['MoviesFilters was narrowed or changed incompatibly']);
  const removedMethod = committed.replace('  records(): Record[];\n  items(): Item[];\n  explain', '  records(): Record[];\n  explain');
  assert.ok(incompatibilities(committed, removedMethod).includes('Recommendations was narrowed or changed incompatibly'));
  const widenedOutput = committed.replace('endCursor: string | null;', 'endCursor: string | null | number;');
  assert.ok(incompatibilities(committed, widenedOutput).includes('SelectionInfo was narrowed or changed incompatibly'));
  const removedSort = committed.replace(/export type MoviesSortField = "releaseDate" \| /, 'export type MoviesSortField = ');
  assert.ok(incompatibilities(committed, removedSort).includes('MoviesSortField was narrowed or changed incompatibly'));
});

test('the capnweb client range the contract names is the one the server depends on', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
  assert.equal(pkg.dependencies.capnweb, CAPNWEB_CLIENT_RANGE);
});

let server: RpcServer;
before(async () => {
  server = await startRpcServer({ rpc: { sessions: 1000 } });
});
after(() => server.close());

test('the build serves the declaration and the metadata, linked from meta.json, the API catalog and service.describe()', async () => {
  const types = await fetch(`${server.base}${LINKS.rpcTypes}`);
  assert.equal(types.status, 200);
  const text = await types.text();
  assert.equal(text, committed);
  const checksum = createHash('sha256').update(text).digest('hex');
  const metadata = (await (await fetch(`${server.base}${LINKS.rpcContract}`)).json()) as {
    contract: { checksum: { value: string } };
    client: { versions: string };
    limits: Record<string, { value: number }>;
    transports: unknown[];
  };
  assert.equal(metadata.contract.checksum.value, checksum);
  assert.equal(metadata.client.versions, CAPNWEB_CLIENT_RANGE);
  assert.equal(metadata.limits.rpcBatchOperationsMax!.value, 32);
  assert.equal(metadata.transports.length, 2);
  const described = await newHttpBatchRpcSession<Root>(server.rpcUrl).service.describe();
  assert.deepEqual(described.contract, {
    checksum,
    clientPackage: `capnweb@${CAPNWEB_CLIENT_RANGE}`,
    typesUrl: LINKS.rpcTypes,
    metadataUrl: LINKS.rpcContract,
  });
  const meta = (await (await fetch(`${server.base}${LINKS.meta}`)).json()) as { links: Record<string, string> };
  assert.equal(meta.links.rpc, LINKS.rpc);
  assert.equal(meta.links.rpcTypes, LINKS.rpcTypes);
  assert.equal(meta.links.rpcContract, LINKS.rpcContract);
  const catalog = (await (await fetch(`${server.base}${LINKS.apiCatalog}`)).json()) as { linkset: { anchor: string; 'service-desc': { href: string }[] }[] };
  const rpc = catalog.linkset.find((entry) => entry.anchor === LINKS.rpc)!;
  assert.deepEqual(
    rpc['service-desc'].map((link) => link.href),
    [LINKS.rpcTypes, LINKS.rpcContract],
  );
});
