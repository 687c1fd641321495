/**
 * The render tools, the `ui://` views and the skills through the SDK client: render
 * results rehydrate records server-side from bounded IDs, drop and report unknown ones,
 * link their view by `_meta.ui.resourceUri`, and say the same in text; every view is
 * readable through resources/read as `text/html;profile=mcp-app`, self-contained under a
 * policy that allows nothing external; skills/list (a method the v1 SDK has no helper
 * for) lists skills whose SKILL.md resources match their digests.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { LIMITS } from '../../src/core/limits.ts';
import { connect, schemaErrors, serve, type Served } from './helpers.ts';

let served: Served;
let client: Client;
let tools: Map<string, Tool>;
before(async () => {
  served = await serve({ mcpQuota: 1_000_000, mcpWorkBudget: 1_000_000, restQuota: 1_000_000 });
  client = await connect(served.base, { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } });
  tools = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
});
after(async () => {
  await client.close();
  await served.close();
});

const ids = async (collection: string, n: number) =>
  ((await (await fetch(new URL(`/api/${collection}.json?limit=${n}`, served.base))).json()) as { data: { canonicalId: string }[] }).data.map(
    (d) => d.canonicalId,
  );

test('render tools rehydrate bounded IDs, drop unknown ones and link their ui:// view', async () => {
  const cases: [string, string, string][] = [
    ['places.render_map', 'places', 'books'],
    ['sports.render_events', 'sporting-events', 'places'],
    ['taste.render_recommendations', 'movies', ''],
  ];
  for (const [name, collection, wrong] of cases) {
    const tool = tools.get(name)!;
    const uri = (tool._meta as { ui: { resourceUri: string } }).ui.resourceUri;
    assert.match(uri, /^ui:\/\//);
    const good = await ids(collection, 3);
    const others = wrong ? await ids(wrong, 1) : [];
    const result = (await client.callTool({ name, arguments: { ids: [...good, ...others, 'itm_ffffffffffffffffffffffff'] } })) as unknown as {
      content: { text: string }[];
      structuredContent: { records: { canonicalId: string; title: string }[]; dropped: { canonicalId: string }[] };
      _meta: { ui: { resourceUri: string } };
    };
    assert.equal(await schemaErrors(tool.outputSchema!, result.structuredContent), undefined, name);
    assert.equal(result._meta.ui.resourceUri, uri);
    assert.deepEqual(
      result.structuredContent.records.map((r) => r.canonicalId),
      good,
    );
    assert.deepEqual(
      result.structuredContent.dropped.map((d) => d.canonicalId),
      [...others, 'itm_ffffffffffffffffffffffff'],
    );
    for (const record of result.structuredContent.records) assert.ok(result.content[0]!.text.includes(record.title), 'the text says the same');
    const { basemap } = result.structuredContent as unknown as {
      basemap?: { width: number; height: number; land: string; points: { x: number; y: number }[] };
    };
    if (name === 'places.render_map') {
      // The map's base map is computed on the server: land as one path, a point per record, inside the frame.
      assert.ok((tool.outputSchema!.properties as Record<string, unknown>).basemap, 'the output schema publishes the base map');
      assert.ok(basemap, 'the map result carries its base map');
      assert.match(basemap.land, /^M[\d.,\- LMZ]+Z$/);
      assert.equal(basemap.points.length, good.length);
      for (const p of basemap.points) assert.ok(p.x >= 0 && p.x <= basemap.width && p.y >= 0 && p.y <= basemap.height, 'each place is inside the frame');
      assert.ok(!result.content[0]!.text.includes(basemap.land.slice(0, 20)), 'the text fallback is the list, not the path');
    } else assert.equal(basemap, undefined, `${name} has no base map`);
    const tooMany = await client.callTool({
      name,
      arguments: { ids: Array.from({ length: LIMITS.mcpRenderIdsMax + 1 }, (_, i) => `itm_${String(i).padStart(24, '0')}`) },
    });
    assert.equal(tooMany.isError, true);
    // Record data sent by the client is not an argument: it is refused, never shown.
    const forged = await client.callTool({ name, arguments: { ids: good, records: [{ title: '<script>alert(1)</script>' }] } });
    assert.equal(forged.isError, true);
  }
});

test('the ui:// views are self-contained HTML under a policy that allows nothing external', async () => {
  const { resources } = await client.listResources();
  const views = resources.filter((r) => r.uri.startsWith('ui://'));
  assert.equal(views.length, 3);
  for (const view of views) {
    assert.equal(view.mimeType, 'text/html;profile=mcp-app');
    const read = await client.readResource({ uri: view.uri });
    const content = read.contents[0] as unknown as {
      text: string;
      mimeType: string;
      _meta: { ui: { csp: { connectDomains: string[]; resourceDomains: string[] } } };
    };
    assert.equal(content.mimeType, 'text/html;profile=mcp-app');
    assert.deepEqual(content._meta.ui.csp, { connectDomains: [], resourceDomains: [] });
    const html = content.text;
    const policy = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1]!;
    assert.match(policy, /default-src 'none'/);
    assert.match(policy, /connect-src 'none'/);
    assert.doesNotMatch(html, /\bsrc=|<link\b|https?:\/\/(?!www\.w3\.org\/2000\/svg)/, 'no external reference');
    const script = /<script>([\s\S]*)<\/script>/.exec(html)![1]!;
    assert.ok(policy.includes(`'sha256-${createHash('sha256').update(script).digest('base64')}'`), 'the script is allowed by its hash alone');
  }
  await assert.rejects(client.readResource({ uri: 'ui://collections/nope.html' }));
  assert.deepEqual((await client.listResourceTemplates()).resourceTemplates, []);
});

test('skills/list lists skills whose SKILL.md resources match their digests', async () => {
  const Skills = z.object({
    skills: z.array(
      z.object({
        uri: z.string(),
        name: z.string(),
        description: z.string(),
        tools: z.array(z.string()),
        resources: z.array(z.object({ uri: z.string(), digest: z.string(), size: z.number() })),
      }),
    ),
  });
  const { skills } = await client.request({ method: 'skills/list', params: {} }, Skills);
  assert.ok(skills.length >= 3);
  const toolNames = new Set(tools.keys());
  for (const skill of skills) {
    for (const tool of skill.tools) assert.ok(toolNames.has(tool), `${skill.name} uses ${tool}`);
    const read = await client.readResource({ uri: skill.uri });
    const text = (read.contents[0] as { text: string }).text;
    assert.match(text, new RegExp(`^---\\nname: ${skill.name}\\n`));
    assert.equal(skill.resources[0]!.digest, `sha256:${createHash('sha256').update(text).digest('hex')}`);
    assert.equal(skill.resources[0]!.size, Buffer.byteLength(text));
    const got = await client.request({ method: 'skills/get', params: { uri: skill.uri } }, z.object({ uri: z.string(), content: z.string() }));
    assert.equal(got.content, text);
  }
  await assert.rejects(client.request({ method: 'skills/get', params: { uri: 'skill://nope/SKILL.md' } }, z.object({})), /Skill not found/);
});
