/**
 * The owner lane's MCP endpoint and its writes (issue 17, items 6–7), on the built
 * `dist/`, a copy of the content it was built from, a state folder of the test's own and
 * the process's generations (so each write rebuilds and swaps). Access tokens are minted
 * in the authorization server's store as the token endpoint would store them (the OAuth
 * flow that issues them is tested in tests/oauth/): an owner token with `taste:read` and
 * `taste:write`, one with `taste:read` only, and one issued for another resource.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import yaml from 'js-yaml';
import { SOURCES_TABLE } from '../../src/core/image.ts';
import { JOURNAL_FILE } from '../../src/owner/writes.ts';
import type { Generations } from '../../src/runtime/generations.ts';
import { OAUTH_URLS } from '../../src/urls.ts';
import { startOwnerSite, type OwnerSite } from './site.ts';

let site: OwnerSite;
let content: string;
let stateDir: string;
let generations: Generations;
let base: string;
const tokens = { write: '', read: '', foreign: '' };

before(async () => {
  site = await startOwnerSite('owner-mcp-');
  ({ content, stateDir, generations, base } = site);
  tokens.write = site.mint(['taste:read', 'taste:write']);
  tokens.read = site.mint(['taste:read']);
  tokens.foreign = site.mint(['taste:read', 'taste:write'], 'https://elsewhere.example/owner/mcp');
});

after(() => site.stop());

const METADATA = () => `${base}${OAUTH_URLS.protectedResource}`;

async function rpc(path: string, message: unknown, token?: string): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-11-25',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(message),
  });
}

let ids = 0;
interface CallResult {
  isError?: boolean;
  content: { text: string }[];
  structuredContent?: { collection: string; canonicalId: string; revision: string; file: string; swapped: boolean; replayed?: boolean };
}
async function call(name: string, args: Record<string, unknown>, token = tokens.write): Promise<CallResult> {
  const response = await rpc(OAUTH_URLS.ownerMcp, { jsonrpc: '2.0', id: ++ids, method: 'tools/call', params: { name, arguments: args } }, token);
  assert.equal(response.status, 200, await response.clone().text());
  return ((await response.json()) as { result: CallResult }).result;
}

const sourceOf = (file: string, entry: number | null) =>
  (generations.current().image.db.prepare(`SELECT cid FROM ${SOURCES_TABLE} WHERE file = ? AND entry IS ?`).get(file, entry) as { cid: string }).cid;

async function restItem(collection: string, q: string, canonicalId: string): Promise<Record<string, unknown> | undefined> {
  const response = await fetch(`${base}/api/${collection}.json?q=${encodeURIComponent(q)}&limit=50`);
  assert.equal(response.status, 200);
  const page = (await response.json()) as { data: Record<string, unknown>[] };
  return page.data.find((item) => item.canonicalId === canonicalId);
}

test('no token, a bad token or a token for another resource: 401 naming the resource metadata and taste:read', async () => {
  const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
  const none = await rpc(OAUTH_URLS.ownerMcp, list);
  assert.equal(none.status, 401);
  assert.equal(none.headers.get('www-authenticate'), `Bearer resource_metadata="${METADATA()}", scope="taste:read"`);
  for (const token of ['not-a-token', tokens.foreign]) {
    const refused = await rpc(OAUTH_URLS.ownerMcp, list, token);
    assert.equal(refused.status, 401);
    const challenge = refused.headers.get('www-authenticate')!;
    assert.ok(challenge.startsWith(`Bearer resource_metadata="${METADATA()}", scope="taste:read", error="invalid_token"`), challenge);
  }
  const foreign = await rpc(OAUTH_URLS.ownerMcp, list, tokens.foreign);
  assert.match(foreign.headers.get('www-authenticate')!, /another resource/);
});

test('a read token lists the public tools and the write tools and reads the public corpus; a write call without taste:write is 403 insufficient_scope', async () => {
  const listed = await rpc(OAUTH_URLS.ownerMcp, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, tokens.read);
  assert.equal(listed.status, 200);
  const names = ((await listed.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
  for (const name of ['taste.find', 'taste.get', 'taste.log', 'taste.rate', 'music.set_stance']) assert.ok(names.includes(name), name);
  const found = await call('taste.find', { collection: 'books', limit: 2 }, tokens.read);
  assert.equal(found.isError, undefined);
  const before = readFileSync(join(content, 'music/albums.yaml'), 'utf8');
  const refused = await rpc(
    OAUTH_URLS.ownerMcp,
    {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'music.set_stance', arguments: { canonicalId: sourceOf('music/albums.yaml', 1), stance: 'dislike' } },
    },
    tokens.read,
  );
  assert.equal(refused.status, 403);
  const challenge = refused.headers.get('www-authenticate')!;
  assert.ok(challenge.startsWith(`Bearer resource_metadata="${METADATA()}", scope="taste:write", error="insufficient_scope"`), challenge);
  assert.equal(readFileSync(join(content, 'music/albums.yaml'), 'utf8'), before, 'nothing was written');
});

test('the public /mcp ignores a token: the same answer with or without it, and no write tools', async () => {
  const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
  const anonymous = await rpc('/mcp', list);
  const withToken = await rpc('/mcp', list, tokens.write);
  assert.equal(withToken.status, 200);
  const a = await anonymous.text();
  assert.equal(await withToken.text(), a);
  assert.ok(!a.includes('taste.log') && !a.includes('music.set_stance'));
  const write = await rpc(
    '/mcp',
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'music.set_stance', arguments: { canonicalId: 'x', stance: 'love' } } },
    tokens.write,
  );
  assert.match(await write.text(), /Unknown tool/);
});

test('a batch is refused under a protocol version without batches exactly as /mcp refuses it; under 2025-03-26 (or no version header) it is answered', async () => {
  const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
  const batch = (path: string, version: string | undefined, token?: string) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        ...(version ? { 'MCP-Protocol-Version': version } : {}),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify([list, { ...list, id: 2 }]),
    });
  for (const version of ['2025-11-25', '1999-01-01']) {
    const owner = await batch(OAUTH_URLS.ownerMcp, version, tokens.read);
    const open = await batch('/mcp', version);
    assert.equal(open.status, 400, version);
    assert.equal(owner.status, open.status, version);
    assert.deepEqual(await owner.json(), await open.json(), version);
  }
  for (const version of ['2025-03-26', undefined]) {
    const owner = await batch(OAUTH_URLS.ownerMcp, version, tokens.read);
    assert.equal(owner.status, 200, String(version));
    assert.equal(((await owner.json()) as unknown[]).length, 2);
  }
});

test('music.set_stance edits only the stance line of the record in a list file; REST shows it; a retried requestId applies once', async () => {
  const file = join(content, 'music/albums.yaml');
  const before = readFileSync(file, 'utf8');
  const cid = sourceOf('music/albums.yaml', 1);
  const result = await call('music.set_stance', { canonicalId: cid, stance: 'dislike', requestId: 'stance-1' });
  assert.equal(result.isError, undefined, result.content[0]?.text);
  assert.equal(result.structuredContent!.canonicalId, cid);
  assert.equal(result.structuredContent!.swapped, true);
  const after = readFileSync(file, 'utf8');
  const lines = { before: before.split('\n'), after: after.split('\n') };
  assert.equal(lines.after.length, lines.before.length);
  const differing = lines.before.flatMap((line, i) => (line === lines.after[i] ? [] : [[line, lines.after[i]]]));
  assert.deepEqual(differing, [['  stance: love', '  stance: dislike']]);
  assert.equal((yaml.load(after) as { title: string; stance: string }[])[1]!.stance, 'dislike');
  assert.equal((await restItem('music', 'Kid A', cid))?.stance, 'dislike');

  // The same requestId again: the first result, nothing written again, one journal line.
  const again = await call('music.set_stance', { canonicalId: cid, stance: 'dislike', requestId: 'stance-1' });
  assert.equal(again.structuredContent!.replayed, true);
  assert.equal(again.structuredContent!.revision, result.structuredContent!.revision);
  assert.equal(readFileSync(file, 'utf8'), after);
  const journal = readFileSync(join(stateDir, JOURNAL_FILE), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { requestId?: string; client: string; change: unknown; canonicalId: string; at: string; pending?: boolean });
  // The intent, journaled before the file changed, then the same entry once the file held it.
  assert.deepEqual(
    journal.filter((e) => e.requestId === 'stance-1').map((e) => e.pending ?? false),
    [true, false],
  );
  const entries = journal.filter((e) => e.requestId === 'stance-1' && !e.pending);
  assert.equal(entries.length, 1);
  assert.deepEqual(entries[0]!.change, { stance: 'dislike' });
  assert.equal(entries[0]!.canonicalId, cid);
  assert.match(entries[0]!.client, /^client-/);
});

test('taste.rate sets rating and recommended in a Markdown file’s front matter only; the body stays byte for byte; a bad value is refused', async () => {
  const file = join(content, 'movies/arrival.md');
  const before = readFileSync(file, 'utf8');
  const cid = sourceOf('movies/arrival.md', null);
  const result = await call('taste.rate', { collection: 'movies', canonicalId: cid, rating: 3.5, recommended: true });
  assert.equal(result.isError, undefined, result.content[0]?.text);
  const after = readFileSync(file, 'utf8');
  assert.equal(after, before.replace('rating: 4.5\n', 'rating: 3.5\n').replace('\n---\n', '\nrecommended: true\n---\n'));
  const item = await restItem('movies', 'Arrival', cid);
  assert.equal(item?.rating, 3.5);
  assert.equal(item?.recommended, true);

  const wrong = await call('taste.rate', { collection: 'music', canonicalId: sourceOf('music/albums.yaml', 2), rating: 4 });
  assert.equal(wrong.isError, true);
  assert.match(wrong.content[0]!.text, /not valid for music/);
});

test('taste.log adds a record as a new content file, validated by the schema; REST lists it', async () => {
  const invalid = await call('taste.log', { collection: 'music', fields: { title: 'Untitled', type: 'symphony', artist: 'Nobody', addedAt: '2026-11-01' } });
  assert.equal(invalid.isError, true);
  assert.match(invalid.content[0]!.text, /type/);
  const result = await call('taste.log', {
    collection: 'music',
    fields: { title: 'Promises', type: 'album', artist: 'Floating Points', year: 2021, stance: 'love', addedAt: '2026-11-01' },
    requestId: 'log-1',
  });
  assert.equal(result.isError, undefined, result.content[0]?.text);
  const { file, canonicalId } = result.structuredContent!;
  assert.equal(file, 'music/promises.yaml');
  assert.ok(canonicalId);
  assert.deepEqual(yaml.load(readFileSync(join(content, file), 'utf8'), { schema: yaml.CORE_SCHEMA }), {
    title: 'Promises',
    type: 'album',
    artist: 'Floating Points',
    year: 2021,
    stance: 'love',
    addedAt: '2026-11-01',
  });
  assert.equal((await restItem('music', 'Promises', canonicalId))?.artist, 'Floating Points');
  const again = await call('taste.log', {
    collection: 'music',
    fields: { title: 'Promises', type: 'album', artist: 'Floating Points', year: 2021, stance: 'love', addedAt: '2026-11-01' },
    requestId: 'log-1',
  });
  assert.equal(again.structuredContent!.replayed, true);
  assert.equal(again.structuredContent!.canonicalId, canonicalId);

  // The same record again (a new requestId): the build refuses the duplicate, and the new file is taken back.
  const duplicate = await call('taste.log', {
    collection: 'music',
    fields: { title: 'Promises', type: 'album', artist: 'Floating Points', addedAt: '2026-11-02' },
    requestId: 'log-2',
  });
  assert.equal(duplicate.isError, true);
  assert.match(duplicate.content[0]!.text, /build refused/);
  assert.equal(existsSync(join(content, 'music/promises-2.yaml')), false);
  const withId = await call('taste.log', {
    collection: 'music',
    fields: { id: 'promises-live', title: 'Promises', type: 'album', artist: 'Floating Points', addedAt: '2026-11-02' },
  });
  assert.equal(withId.isError, undefined, withId.content[0]?.text);
  assert.equal(withId.structuredContent!.file, 'music/promises-2.yaml');
});

test('a hand edit of the record since the revision a write returned is detected, and the file is left as the hand made it', async () => {
  const file = join(content, 'music/albums.yaml');
  const cid = sourceOf('music/albums.yaml', 3);
  const first = await call('music.set_stance', { canonicalId: cid, stance: 'neutral' });
  assert.equal(first.isError, undefined, first.content[0]?.text);
  // The owner edits the record by hand (no rebuild yet).
  const handEdited = readFileSync(file, 'utf8').replace('  stance: neutral', '  stance: love  # changed my mind');
  writeFileSync(file, handEdited);
  const second = await call('music.set_stance', { canonicalId: cid, stance: 'dislike', revision: first.structuredContent!.revision });
  assert.equal(second.isError, true);
  assert.match(second.content[0]!.text, /conflict/);
  assert.equal(readFileSync(file, 'utf8'), handEdited);
  // Without a revision the write sees the file's stance differ from the served one, and names the file's revision.
  const blind = await call('music.set_stance', { canonicalId: cid, stance: 'like' });
  assert.equal(blind.isError, true);
  const current = /call again with revision (\S+)\.$/.exec(blind.content[0]!.text)?.[1];
  assert.ok(current, blind.content[0]!.text);
  assert.equal(readFileSync(file, 'utf8'), handEdited);
  // With the revision of the file as it is now, the write applies, keeping the hand's comment.
  const third = await call('music.set_stance', { canonicalId: cid, stance: 'like', revision: current });
  assert.equal(third.isError, undefined, third.content[0]?.text);
  assert.equal(readFileSync(file, 'utf8'), handEdited.replace('  stance: love  # changed my mind', '  stance: like  # changed my mind'));
});

test('Host and Origin (DNS-rebinding protection): another host or another site’s page is a 403 problem before the token is read; the site’s own origin and agents without one pass; a preflight follows the same rule', async () => {
  const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const send = (headers: Record<string, string>, method = 'POST') =>
    new Promise<{ status: number; headers: import('node:http').IncomingHttpHeaders; body: string }>((done, fail) => {
      // node:http, since fetch will not send a Host of the caller's choosing.
      const url = new URL(`${base}${OAUTH_URLS.ownerMcp}`);
      const req = request(
        url,
        {
          method,
          headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${tokens.write}`, ...headers },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => done({ status: res.statusCode!, headers: res.headers, body }));
        },
      );
      req.on('error', fail);
      req.end(method === 'POST' ? list : undefined);
    });
  const hostile: Record<string, string>[] = [
    { Origin: 'https://evil.example' },
    { Origin: 'http://localhost:6274' },
    { Origin: 'null' },
    { Host: 'evil.example' },
    { Host: 'evil.example', Origin: base },
  ];
  for (const headers of hostile) {
    const refused = await send(headers);
    assert.equal(refused.status, 403, JSON.stringify(headers));
    assert.match(refused.headers['content-type']!, /^application\/problem\+json/);
    assert.equal((JSON.parse(refused.body) as { type: string }).type.endsWith('/problems/forbidden-origin'), true);
    assert.equal(refused.headers['access-control-allow-origin'], undefined);
    assert.equal(refused.headers['www-authenticate'], undefined, 'refused before the token is read');
  }
  assert.equal((await send({ Origin: base })).status, 200);
  assert.equal((await send({})).status, 200);
  const preflight = { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, content-type' };
  assert.equal((await send({ ...preflight, Origin: 'https://evil.example' }, 'OPTIONS')).status, 403);
  const own = await send({ ...preflight, Origin: base }, 'OPTIONS');
  assert.equal(own.status, 204);
  assert.equal(own.headers.allow, 'POST, OPTIONS');
  assert.equal(own.headers['access-control-allow-origin'], undefined, 'no cross-origin browser client is invited');
});

test('taste.get_for_edit (taste:read) reads a record from its file with the revision a write checks: read, then write with it; a hand edit in between is caught', async () => {
  const cid = sourceOf('music/albums.yaml', 4);
  const read = await call('taste.get_for_edit', { collection: 'music', canonicalId: cid }, tokens.read);
  assert.equal(read.isError, undefined, read.content[0]?.text);
  const got = read.structuredContent as unknown as { revision: string; file: string; fields: { title: string; stance?: string } };
  assert.equal(got.file, 'music/albums.yaml');
  assert.equal(
    got.fields.title,
    (yaml.load(readFileSync(join(content, 'music/albums.yaml'), 'utf8'), { schema: yaml.CORE_SCHEMA }) as { title: string }[])[4]!.title,
  );
  const stance = got.fields.stance === 'dislike' ? 'love' : 'dislike';
  const written = await call('music.set_stance', { canonicalId: cid, stance, revision: got.revision });
  assert.equal(written.isError, undefined, written.content[0]?.text);
  const reread = await call('taste.get_for_edit', { collection: 'music', canonicalId: cid }, tokens.read);
  assert.equal((reread.structuredContent as unknown as { revision: string }).revision, written.structuredContent!.revision);
  assert.equal((reread.structuredContent as unknown as { fields: { stance: string } }).fields.stance, stance);
  // The stale revision is refused.
  const stale = await call('music.set_stance', { canonicalId: cid, stance: 'neutral', revision: got.revision });
  assert.equal(stale.isError, true);
  assert.match(stale.content[0]!.text, /conflict/);
  const missing = await call('taste.get_for_edit', { collection: 'music', canonicalId: 'itm_000000000000000000000000' }, tokens.read);
  assert.equal(missing.isError, true);
  assert.match(missing.content[0]!.text, /not-found/);
});
