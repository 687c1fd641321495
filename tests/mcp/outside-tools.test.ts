/**
 * Outside MCP tools against the real dispatcher, run with the project's pinned Node:
 * the MCP Inspector CLI lists and calls tools, and the `@modelcontextprotocol/conformance`
 * server scenarios that apply to a server with these tools pass. The scenarios left out
 * exercise fixtures of the SDK's "everything" test server or features this read-only
 * server does not offer; each is listed below with its reason.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { serve, type Served } from './helpers.ts';

const run = promisify(execFile);
const INSPECTOR = 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js';
const CONFORMANCE = 'node_modules/@modelcontextprotocol/conformance/dist/index.js';

/** The scenarios that apply to this server. */
const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection'];

/** The scenarios that do not apply, and why (checked: the suite lists no scenario missing from both lists). */
export const NOT_APPLICABLE: Record<string, string> = {
  'logging-set-level': 'No logging capability: a stateless server has no session to send log notifications on.',
  'completion-complete': 'No prompts or resource templates, so nothing to complete.',
  'tools-call-simple-text': 'Calls the fixture tool test_simple_text of the everything server.',
  'tools-call-image': 'Calls a fixture tool returning an image; no tool here returns images.',
  'tools-call-audio': 'Calls a fixture tool returning audio.',
  'tools-call-embedded-resource': 'Calls a fixture tool returning an embedded resource.',
  'tools-call-mixed-content': 'Calls a fixture tool returning mixed content.',
  'tools-call-with-logging': 'Calls a fixture tool that logs; no logging capability.',
  'tools-call-error': 'Calls the fixture tool test_error_handling; tool errors here are covered by tests/mcp/tools.test.ts.',
  'tools-call-with-progress': 'Calls a fixture tool sending progress; every tool here answers at once.',
  'tools-call-sampling': 'Server-initiated sampling needs a session; this server is stateless and read-only.',
  'tools-call-elicitation': 'Server-initiated elicitation needs a session; nothing here asks the user anything.',
  'elicitation-sep1034-defaults': 'Elicitation (as above).',
  'elicitation-sep1330-enums': 'Elicitation (as above).',
  'resources-read-text': 'Reads the fixture resource test://static-text; the ui:// and skill:// resources are read in tests/mcp/render.test.ts.',
  'resources-read-binary': 'Reads a fixture binary resource; there are none here.',
  'resources-templates-read': 'No resource templates.',
  'resources-subscribe': 'Resources never change under a running generation: no subscriptions (capability subscribe: false).',
  'resources-unsubscribe': 'No subscriptions (as above).',
  'prompts-list': 'No prompts capability: the skills extension carries the guides.',
  'prompts-get-simple': 'No prompts.',
  'prompts-get-with-args': 'No prompts.',
  'prompts-get-embedded-resource': 'No prompts.',
  'prompts-get-with-image': 'No prompts.',
  'json-schema-2020-12':
    'Looks for the fixture tool json_schema_2020_12_tool; the schemas here are checked with a 2020-12 validator in tests/mcp/tools.test.ts.',
  'server-sse-polling': 'Each request is answered with one JSON body: no SSE stream to poll or resume (stateless, no event store).',
  'server-sse-multiple-streams': 'No SSE streams (as above): the scenario runs no check against a JSON-answering server.',
};

let served: Served;
before(async () => {
  served = await serve({ mcpQuota: 1_000_000, mcpWorkBudget: 1_000_000 });
});
after(() => served.close());

test('the MCP Inspector CLI lists the tools and calls one', async () => {
  const url = `${served.base}/mcp`;
  const list = await run(process.execPath, [INSPECTOR, '--cli', url, '--transport', 'http', '--method', 'tools/list'], { maxBuffer: 16 * 1024 * 1024 });
  const { tools } = JSON.parse(list.stdout) as { tools: { name: string }[] };
  assert.ok(tools.some((t) => t.name === 'taste.find') && tools.some((t) => t.name === 'places.render_map'));
  const call = await run(
    process.execPath,
    [
      INSPECTOR,
      '--cli',
      url,
      '--transport',
      'http',
      '--method',
      'tools/call',
      '--tool-name',
      'taste.find',
      '--tool-arg',
      'collection=books',
      '--tool-arg',
      'limit=2',
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const result = JSON.parse(call.stdout) as { structuredContent: { canonicalIds: string[]; counts: { returnedCount: number } } };
  assert.equal(result.structuredContent.counts.returnedCount, 2);
  assert.equal(result.structuredContent.canonicalIds.length, 2);
});

test('the conformance suite: every scenario that applies passes; the others are listed with a reason', async () => {
  const listed = await run(process.execPath, [CONFORMANCE, 'list', '--server']);
  const scenarios = [...listed.stdout.matchAll(/^\s*- ([a-z0-9-]+) \[/gm)].map((m) => m[1]!);
  assert.ok(scenarios.length > 20);
  for (const name of scenarios) assert.ok(APPLICABLE.includes(name) || name in NOT_APPLICABLE, `conformance scenario ${name} is neither run nor explained`);
  const out = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  try {
    for (const scenario of APPLICABLE) {
      await run(process.execPath, [CONFORMANCE, 'server', '--url', `${served.base}/mcp`, '--scenario', scenario, '-o', out], {
        maxBuffer: 4 * 1024 * 1024,
      }).catch((error: { stdout?: string }) => assert.fail(`${scenario}: ${error.stdout ?? ''}`));
    }
    const checks = readdirSync(out).flatMap(
      (dir) => JSON.parse(readFileSync(join(out, dir, 'checks.json'), 'utf8')) as { id: string; status: string; errorMessage?: string }[],
    );
    for (const check of checks) assert.notEqual(check.status, 'FAILURE', `${check.id}: ${check.errorMessage ?? ''}`);
    assert.ok(checks.filter((c) => c.status === 'SUCCESS').length >= 5);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
