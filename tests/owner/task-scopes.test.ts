/**
 * The owner lane's metadata and scopes as SPEC §5 words them (issue 26 item 6): task
 * scopes `taste:log`, `taste:rate` and `taste:stance`, one per write tool, advertised beside
 * `taste:read`; `taste:write` still grants all three and is what a 403 challenge names; a
 * token granted one task scope works for its tool only; the authorization server's
 * `agent_auth` block states its identity and credential types; each owner tool declares
 * the scope it needs in its descriptor (`securitySchemes`, mirrored in `_meta`).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { SOURCES_TABLE } from '../../src/core/image.ts';
import { OAUTH_URLS } from '../../src/urls.ts';
import { ownerRpc } from '../../bench/replica-harness.ts';
import { startOwnerSite, type OwnerSite } from './site.ts';

let site: OwnerSite;
const tokens = { log: '', rate: '', stance: '' };

before(async () => {
  site = await startOwnerSite('owner-task-scopes-');
  tokens.log = site.mint(['taste:log']);
  tokens.rate = site.mint(['taste:rate']);
  tokens.stance = site.mint(['taste:stance']);
});
after(() => site.stop());

let ids = 0;
const rpc = (token: string, method: string, params?: unknown) => ownerRpc(site.base, token, method, params, ++ids);

const cidOf = (file: string, entry: number | null) =>
  (site.generations.current().image.db.prepare(`SELECT cid FROM ${SOURCES_TABLE} WHERE file = ? AND entry IS ?`).get(file, entry) as { cid: string }).cid;

test('the protected resource advertises the task scopes beside taste:read, and taste:write', async () => {
  const metadata = (await (await fetch(`${site.base}${OAUTH_URLS.protectedResource}`)).json()) as { scopes_supported: string[] };
  for (const scope of ['taste:read', 'taste:log', 'taste:rate', 'taste:stance', 'taste:write']) assert.ok(metadata.scopes_supported.includes(scope), scope);
  const server = (await (await fetch(`${site.base}${OAUTH_URLS.authorizationServer}`)).json()) as {
    scopes_supported: string[];
    agent_auth: Record<string, string>;
  };
  assert.deepEqual([...server.scopes_supported].sort(), [...metadata.scopes_supported].sort());
  assert.equal(server.agent_auth.identity_type, 'service_auth');
  assert.equal(server.agent_auth.credential_type, 'access_token');
});

test('a token granted one task scope works for that tool only; the others are 403 insufficient_scope naming taste:write', async () => {
  const calls = {
    log: {
      name: 'taste.log',
      arguments: { collection: 'music', fields: { title: 'Task Scoped', type: 'album', artist: 'Scopes', year: 2022, addedAt: '2026-11-06' } },
    },
    rate: { name: 'taste.rate', arguments: { collection: 'movies', canonicalId: cidOf('movies/arrival.md', null), rating: 4 } },
    stance: { name: 'music.set_stance', arguments: { canonicalId: cidOf('music/albums.yaml', 1), stance: 'like' } },
  } as const;
  for (const [scope, token] of Object.entries(tokens) as [keyof typeof tokens, string][]) {
    const listed = await rpc(token, 'tools/list');
    assert.equal(listed.status, 200, `${scope}: a task scope reads`);
    for (const [tool, params] of Object.entries(calls) as [keyof typeof calls, (typeof calls)[keyof typeof calls]][]) {
      const response = await rpc(token, 'tools/call', params);
      if (tool === scope) {
        assert.equal(response.status, 200, `${scope} calls ${params.name}`);
        const result = ((await response.json()) as { result: { isError?: boolean; content: { text: string }[] } }).result;
        assert.equal(result.isError, undefined, result.content[0]?.text);
      } else {
        assert.equal(response.status, 403, `taste:${scope} may not call ${params.name}`);
        const challenge = response.headers.get('www-authenticate')!;
        assert.match(challenge, /scope="taste:write", error="insufficient_scope"/, challenge);
        assert.equal(((await response.json()) as { error: string }).error, 'insufficient_scope');
      }
    }
  }
  assert.match(readFileSync(join(site.content, 'music/albums.yaml'), 'utf8'), /stance: like/);
});

test('each owner tool declares the scope it needs; taste.get_for_edit its owner-only taste:read', async () => {
  const listed = (await (await rpc(tokens.log, 'tools/list')).json()) as {
    result: { tools: { name: string; securitySchemes?: { type: string; scopes: string[] }[]; _meta?: { securitySchemes?: unknown } }[] };
  };
  const byName = new Map(listed.result.tools.map((tool) => [tool.name, tool]));
  const expected: Record<string, string[][]> = {
    'taste.get_for_edit': [['taste:read']],
    'taste.log': [['taste:log'], ['taste:write']],
    'taste.rate': [['taste:rate'], ['taste:write']],
    'music.set_stance': [['taste:stance'], ['taste:write']],
  };
  for (const [name, scopes] of Object.entries(expected)) {
    const tool = byName.get(name)!;
    assert.deepEqual(
      tool.securitySchemes?.map((s) => s.scopes),
      scopes,
      name,
    );
    assert.ok(tool.securitySchemes!.every((s) => s.type === 'oauth2'));
    assert.deepEqual(tool._meta?.securitySchemes, tool.securitySchemes, `${name}: mirrored in _meta`);
  }
  assert.equal(byName.get('taste.find')!.securitySchemes, undefined, 'a public read tool declares no owner-only scope: it reads the public corpus');
});
