/**
 * A `requestId` is scoped to one installation (issue 32 item 2): it is keyed by the grant,
 * not the client_id, which a Client ID Metadata Document gives every install of an app
 * alike. A second install reusing an id another install used writes its own change; a
 * reused id with other arguments is a conflict, never a replay of the first call; the
 * journal names the grant.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { JOURNAL_FILE } from '../../src/owner/writes.ts';
import { ownerRpc } from '../../bench/replica-harness.ts';
import { startOwnerSite, type OwnerSite } from './site.ts';

let site: OwnerSite;
const tokens = { a: '', b: '' };
const APP = 'https://app.example/oauth/client.json';

before(async () => {
  site = await startOwnerSite('owner-retries-');
  tokens.a = site.mint(['taste:read', 'taste:write'], undefined, APP);
  tokens.b = site.mint(['taste:read', 'taste:write'], undefined, APP);
});
after(() => site.stop());

interface Result {
  isError?: boolean;
  content: { text: string }[];
  structuredContent?: { file: string; canonicalId: string; replayed?: boolean };
}

let ids = 0;
async function call(token: string, name: string, args: Record<string, unknown>): Promise<Result> {
  const response = await ownerRpc(site.base, token, 'tools/call', { name, arguments: args }, ++ids);
  assert.equal(response.status, 200);
  return ((await response.json()) as { result: Result }).result;
}

const album = (title: string) => ({ title, type: 'album', artist: 'Two Installs', year: 2021, addedAt: '2026-11-04' });

test('two installs of one app (one client_id) reusing a requestId each write their own record', async () => {
  const first = await call(tokens.a, 'taste.log', { collection: 'music', fields: album('Install A'), requestId: 'shared-1' });
  assert.equal(first.isError, undefined, first.content[0]?.text);
  const second = await call(tokens.b, 'taste.log', { collection: 'music', fields: album('Install B'), requestId: 'shared-1' });
  assert.equal(second.isError, undefined, second.content[0]?.text);
  assert.notEqual(second.structuredContent!.replayed, true, 'not "Already applied" with install A\'s record');
  assert.notEqual(second.structuredContent!.file, first.structuredContent!.file);
  assert.match(readFileSync(join(site.content, second.structuredContent!.file), 'utf8'), /Install B/);

  const journal = readFileSync(join(site.stateDir, JOURNAL_FILE), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { requestId?: string; client: string; grant?: string; pending?: boolean });
  const applied = journal.filter((e) => e.requestId === 'shared-1' && !e.pending);
  assert.equal(applied.length, 2);
  assert.deepEqual(
    applied.map((e) => e.client),
    [APP, APP],
  );
  assert.ok(
    applied.every((e) => typeof e.grant === 'string' && e.grant.startsWith('grant-')),
    'the journal records the grant',
  );
  assert.notEqual(applied[0]!.grant, applied[1]!.grant);
});

test('the same requestId with the same arguments replays; with other arguments it is a conflict, and nothing is written', async () => {
  const fields = album('Once Only');
  const first = await call(tokens.a, 'taste.log', { collection: 'music', fields, requestId: 'same-1' });
  assert.equal(first.isError, undefined, first.content[0]?.text);
  const again = await call(tokens.a, 'taste.log', { collection: 'music', fields: { ...fields }, requestId: 'same-1' });
  assert.equal(again.structuredContent!.replayed, true);
  assert.equal(again.structuredContent!.file, first.structuredContent!.file);
  const before = readFileSync(join(site.stateDir, JOURNAL_FILE), 'utf8');
  const other = await call(tokens.a, 'taste.log', { collection: 'music', fields: album('Something Else'), requestId: 'same-1' });
  assert.equal(other.isError, true);
  assert.match(other.content[0]!.text, /conflict/);
  assert.equal(readFileSync(join(site.stateDir, JOURNAL_FILE), 'utf8'), before, 'nothing journaled, nothing written');
});
