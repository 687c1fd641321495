/**
 * The ui:// views in a real browser (Chromium from npm, see ../helpers/browser.ts): each
 * view is loaded as MCP Apps hosts load it — the resource's HTML in a sandboxed iframe —
 * under a minimal host written here that answers `ui/initialize` and then sends the
 * result of a real render tool call. The view must render the records (the map draws the
 * server's base map, the land as one path, and a pin per place at the point the server
 * gave it), report its size, log no error, and make no request at all.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.ts';
import { connect, serve, type Served } from './helpers.ts';

let served: Served;
let client: Client;
let browser: Browser;
before(async () => {
  served = await serve({ mcpQuota: 1_000_000, mcpWorkBudget: 1_000_000, restQuota: 1_000_000 });
  client = await connect(served.base, { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await client?.close();
  await served?.close();
});

const ids = async (collection: string, n: number) =>
  ((await (await fetch(new URL(`/api/${collection}.json?limit=${n}`, served.base))).json()) as { data: { canonicalId: string }[] }).data.map(
    (d) => d.canonicalId,
  );

for (const [tool, collection] of [
  ['places.render_map', 'places'],
  ['sports.render_events', 'sporting-events'],
  ['taste.render_recommendations', 'movies'],
] as const) {
  test(`${tool}: its view renders the records in Chromium with no request leaving the page`, async () => {
    const result = (await client.callTool({ name: tool, arguments: { ids: await ids(collection, 4) } })) as unknown as {
      structuredContent: { records: { title: string }[] };
      _meta: { ui: { resourceUri: string } };
    };
    const html = ((await client.readResource({ uri: result._meta.ui.resourceUri })).contents[0] as { text: string }).text;
    const context = await browser.newContext();
    const requests: string[] = [];
    const errors: string[] = [];
    context.on('request', (request) => requests.push(request.url()));
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.setContent('<!doctype html><title>host</title><iframe id="view" sandbox="allow-scripts" style="width:520px;height:600px"></iframe>');
    requests.length = 0;
    await page.evaluate(
      ({ html, result }) => {
        const frame = document.getElementById('view') as HTMLIFrameElement;
        const log: unknown[] = [];
        (window as unknown as { hostLog: unknown[] }).hostLog = log;
        window.addEventListener('message', (event) => {
          if (event.source !== frame.contentWindow) return;
          const message = event.data as { id?: number; method?: string; params?: unknown };
          log.push(message.method);
          const reply = (m: object) => frame.contentWindow!.postMessage({ jsonrpc: '2.0', ...m }, '*');
          if (message.method === 'ui/initialize')
            reply({
              id: message.id,
              result: { protocolVersion: '2026-01-26', hostInfo: { name: 'test-host', version: '1' }, hostCapabilities: {}, hostContext: {} },
            });
          if (message.method === 'ui/notifications/initialized') reply({ method: 'ui/notifications/tool-result', params: result });
        });
        frame.srcdoc = html;
      },
      { html, result },
    );
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    for (const record of result.structuredContent.records) await frame.getByText(record.title, { exact: false }).first().waitFor();
    const log = (await page.evaluate(() => (window as unknown as { hostLog: string[] }).hostLog)) as string[];
    assert.deepEqual(log.slice(0, 2), ['ui/initialize', 'ui/notifications/initialized']);
    assert.ok(log.includes('ui/notifications/size-changed'));
    if (tool === 'places.render_map') {
      // The server's base map is drawn under the pins, and each pin sits at the point the server computed for it.
      const { basemap } = result.structuredContent as unknown as { basemap: { land: string; points: { x: number; y: number }[] } };
      assert.equal(await frame.locator('svg circle.pin').count(), result.structuredContent.records.length);
      const land = await frame.locator('svg path.land').getAttribute('d');
      assert.ok(land && land.length > 0, 'path.land has a non-empty d');
      assert.equal(land, basemap.land);
      const pins = await frame
        .locator('svg circle.pin')
        .evaluateAll((circles) => circles.map((c) => ({ x: Number(c.getAttribute('cx')), y: Number(c.getAttribute('cy')) })));
      assert.deepEqual(pins, basemap.points);
      assert.ok(await frame.locator('svg path.land + *').count(), 'the land is drawn first, under the route and pins');
    }
    assert.deepEqual(errors, []);
    assert.deepEqual(
      requests.filter((url) => !url.startsWith('about:') && !url.startsWith('data:')),
      [],
      'no request left the page',
    );
    await context.close();
  });
}
