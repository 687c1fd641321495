/**
 * The service's own documents over the wire: problem registry (HTML and JSON), service
 * metadata, status and the RFC 9727 API catalog, and that their links resolve; and agent
 * discovery over HTTP — the Agent Skills index (digests checked on the bytes served, front
 * matter read with js-yaml) and the resource catalog, both reached from those links.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, test } from 'node:test';
import yaml from 'js-yaml';
import { restCollections } from '../../src/collections/index.ts';
import { PROBLEMS } from '../../src/core/problems.ts';
import { contractFetch } from '../helpers/contract.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

let server: RunningServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());
const get = (path: string, headers: Record<string, string> = {}) => contractFetch(server.base + path, { headers });

test('every problem type resolves: JSON by default, HTML for browsers', async () => {
  for (const [slug, p] of Object.entries(PROBLEMS)) {
    const asJson = await get(`/problems/${slug}`);
    assert.equal(asJson.status, 200, slug);
    assert.equal(asJson.headers.get('content-type'), 'application/json');
    assert.equal(asJson.headers.get('vary'), 'Accept');
    const doc = (await asJson.json()) as Record<string, unknown>;
    assert.deepEqual([doc.type, doc.status, doc.title], [`/problems/${slug}`, p.status, p.title]);
    const asHtml = await get(`/problems/${slug}`, { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    assert.equal(asHtml.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(await asHtml.text(), new RegExp(`<code>${slug}</code>`));
  }
  const index = (await (await get('/problems/')).json()) as { problems: { slug: string }[] };
  assert.deepEqual(
    index.problems.map((p) => p.slug),
    Object.keys(PROBLEMS),
  );
  const html = await (await get('/problems/', { Accept: 'text/html' })).text();
  for (const slug of Object.keys(PROBLEMS)) assert.ok(html.includes(`href="/problems/${slug}"`), slug);
});

test('service metadata lists every collection and links to the other documents', async () => {
  const meta = (await (await get('/api/meta.json')).json()) as {
    version: string;
    links: Record<string, string>;
    collections: { name: string; path: string; count: number }[];
  };
  assert.equal(meta.version, '1.0.0');
  assert.deepEqual(
    meta.collections.map((c) => c.name),
    restCollections.map((c) => c.name),
  );
  for (const c of meta.collections) {
    const list = (await (await get(`${c.path}?limit=1`)).json()) as { meta: { totalCount: number } };
    assert.equal(list.meta.totalCount, c.count, c.name);
  }
  for (const [name, href] of Object.entries(meta.links)) {
    if (name === 'openapi' || name === 'openapiYaml') continue; // checked with the OpenAPI contract
    if (name === 'sql') continue; // QUERY only; tests/sql and tests/http/sql.test.ts
    if (name === 'graphql' || name === 'graphqlSchema') continue; // its own contract: tests/graphql
    if (name === 'search') continue; // needs q; tests/http/search.test.ts
    if (name === 'mcp') continue; // JSON-RPC over POST; tests/mcp
    if (name === 'rpc') continue; // POST batches and WebSocket sessions; tests/rpc
    assert.equal((await get(href)).status, 200, `${name} ${href}`);
  }
});

test('status reports the version and the data as-of time of this process', async () => {
  const r = await get('/api/status.json');
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('cache-control'), 'no-store');
  const body = (await r.json()) as { status: string; version: string; dataAsOf: string; collections: Record<string, { count: number; asOf: string }> };
  assert.equal(body.status, 'ok');
  assert.equal(body.version, '1.0.0');
  assert.deepEqual(
    Object.keys(body.collections),
    restCollections.map((c) => c.name),
  );
  assert.equal(
    body.dataAsOf,
    Object.values(body.collections)
      .map((c) => c.asOf)
      .sort()
      .at(-1),
  );
});

test('the API catalog is an RFC 9727 linkset pointing at the description, docs, metadata and status', async () => {
  const r = await get('/.well-known/api-catalog');
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('content-type'), 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
  const { linkset } = (await r.json()) as { linkset: Record<string, unknown>[] };
  const entry = linkset[0] as Record<string, { href: string }[]>;
  for (const rel of ['service-desc', 'service-doc', 'service-meta', 'status']) assert.ok(entry[rel]?.length, rel);
  for (const rel of ['service-doc', 'service-meta', 'status']) assert.equal((await get(entry[rel]![0]!.href)).status, 200, rel);
});

/** Every href a link context of the API catalog gives, by relation. */
async function catalogHrefs(): Promise<Map<string, Set<string>>> {
  const { linkset } = (await (await get('/.well-known/api-catalog')).json()) as { linkset: Record<string, unknown>[] };
  const byRel = new Map<string, Set<string>>();
  for (const context of linkset) {
    for (const [rel, targets] of Object.entries(context)) {
      if (!Array.isArray(targets)) continue;
      for (const t of targets as { href: string }[]) byRel.set(rel, (byRel.get(rel) ?? new Set()).add(t.href));
    }
  }
  return byRel;
}

test('agent discovery over HTTP: the skills index and the resource catalog are linked from the API catalog and /api/meta.json', async () => {
  const meta = (await (await get('/api/meta.json')).json()) as { links: Record<string, string> };
  const hrefs = await catalogHrefs();
  const linked = new Set([...hrefs.values()].flatMap((s) => [...s]));
  const skillsIndex = Object.values(meta.links).find((href) => href === '/.well-known/agent-skills/index.json');
  assert.ok(skillsIndex, 'meta.json links the Agent Skills index at its well-known path');
  const catalog = meta.links.resourceCatalog;
  assert.ok(catalog, 'meta.json links the resource catalog');
  for (const href of [skillsIndex, catalog]) {
    assert.ok(linked.has(href), `the API catalog links ${href}`);
    // contractFetch checks status, headers and body against the OpenAPI description.
    const r = await get(href);
    assert.equal(r.status, 200, href);
    assert.equal(r.headers.get('content-type'), 'application/json');
    assert.match(r.headers.get('etag') ?? '', /^"/);
    assert.ok(r.headers.get('cache-control'));
    assert.equal((await get(href, { 'If-None-Match': r.headers.get('etag')! })).status, 304, `${href} answers preconditions`);
  }
});

test('the Agent Skills index: each SKILL.md is served as Markdown, its front matter matches, and its bytes have the digest the index gives', async () => {
  const index = (await (await get('/.well-known/agent-skills/index.json')).json()) as {
    $schema: string;
    skills: { name: string; type: string; description: string; url: string; digest: string }[];
  };
  assert.equal(index.$schema, 'https://schemas.agentskills.io/discovery/0.2.0/schema.json');
  assert.ok(index.skills.length > 0);
  for (const skill of index.skills) {
    assert.match(skill.name, /^[a-z0-9]+(-[a-z0-9]+)*$/);
    assert.equal(skill.type, 'skill-md');
    const url = new URL(skill.url, `${server.base}/.well-known/agent-skills/index.json`);
    assert.equal(url.pathname, `/.well-known/agent-skills/${skill.name}/SKILL.md`, 'the conventional artifact path');
    const r = await get(url.pathname);
    assert.equal(r.status, 200, skill.name);
    assert.equal(r.headers.get('content-type'), 'text/markdown; charset=utf-8');
    const bytes = Buffer.from(await r.arrayBuffer());
    assert.equal(`sha256:${createHash('sha256').update(bytes).digest('hex')}`, skill.digest, `${skill.name}: the digest is of the bytes served`);
    const front = /^---\n([\s\S]*?)\n---\n/.exec(bytes.toString('utf8'));
    assert.ok(front, `${skill.name} starts with front matter`);
    assert.deepEqual(yaml.load(front[1]!), { name: skill.name, description: skill.description });
    const head = await fetch(server.base + url.pathname, { method: 'HEAD' });
    assert.equal(head.status, 200);
  }
  assert.equal((await get('/.well-known/agent-skills/no-such-skill/SKILL.md')).status, 404);
});

test('the resource catalog: every href answers in one of the media types it names, every collection and skill is in it', async () => {
  const catalog = (await (await get('/.well-known/resource-catalog.json')).json()) as {
    resources: {
      id: string;
      kind: string;
      mediaTypes: string[];
      href?: string;
      uri?: string;
      tool?: { name: string; arguments: Record<string, string> };
      digest?: string;
    }[];
  };
  const ids = catalog.resources.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length, 'ids are unique');
  for (const c of restCollections)
    assert.ok(
      catalog.resources.some((r) => r.kind === 'collection' && r.href === `/api/${c.name}.json` && r.tool),
      c.name,
    );
  const index = (await (await get('/.well-known/agent-skills/index.json')).json()) as { skills: { url: string; digest: string }[] };
  for (const skill of index.skills)
    assert.ok(
      catalog.resources.some((r) => r.kind === 'skill' && r.href === skill.url && r.digest === skill.digest && r.uri?.startsWith('skill://')),
      skill.url,
    );
  for (const resource of catalog.resources) {
    assert.ok(resource.href ?? resource.uri, resource.id);
    if (resource.href === undefined) continue;
    const r = await fetch(server.base + resource.href);
    await r.arrayBuffer();
    assert.equal(r.status, 200, resource.href);
    const type = r.headers.get('content-type')!;
    assert.ok(
      resource.mediaTypes.some((m) => type === m || type.startsWith(`${m};`) || m.startsWith(`${type};`)),
      `${resource.href}: ${type} is one of ${resource.mediaTypes.join(', ')}`,
    );
  }
});
