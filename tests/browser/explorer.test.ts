/**
 * The GraphQL explorer in a real browser (Chromium from npm, see ../helpers/browser.ts)
 * against the real built server. A browser visit to `/graphql` opens GraphiQL, the default
 * query runs against the real endpoint and its answer (demo content) shows in the result
 * pane, and no request leaves the local server: every other host is aborted and reported.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** Schemes that never reach the network. */
const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'about:']);

let server: RunningServer;
let browser: Browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const isLocal = (address: string) => {
  const url = new URL(address);
  return LOCAL_SCHEMES.has(url.protocol) || LOCAL_HOSTS.has(url.hostname);
};

/** A page whose requests to other hosts are aborted and recorded, and whose errors are collected. */
async function guardedPage(): Promise<{ page: Page; external: string[]; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const external: string[] = [];
  const errors: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (isLocal(url)) return route.continue();
    external.push(url);
    return route.abort('blockedbyclient');
  });
  context.on('request', (request) => {
    if (!isLocal(request.url()) && !external.includes(request.url())) external.push(request.url());
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  page.on('worker', (worker) => worker.on('console', (message) => message.type() === 'error' && errors.push(`worker: ${message.text()}`)));
  return { page, external, errors };
}

test('a browser visit to /graphql opens the explorer; the default query shows demo data; nothing leaves localhost', { timeout: 120_000 }, async () => {
  const rest = (await (await fetch(`${server.base}/api/movies.json?limit=5`)).json()) as { data: { title: string }[] };
  const firstTitle = rest.data[0]!.title;
  const { page, external, errors } = await guardedPage();

  const visit = await page.goto(`${server.base}/graphql`);
  assert.equal(visit?.status(), 200);
  assert.match(visit!.headers()['content-type'] ?? '', /^text\/html/);
  assert.equal(await page.title(), 'GraphQL explorer');
  assert.equal(await page.locator('header a[href="/graphql/schema.graphql"]').count(), 1);

  // GraphiQL is mounted once its Monaco query editor holds the default query.
  const queryEditor = page.locator('.graphiql-query-editor .monaco-editor');
  await queryEditor.waitFor({ timeout: 60_000 });
  await page.locator('.graphiql-query-editor .view-lines', { hasText: 'FirstMovies' }).waitFor();
  // GraphiQL's run() does nothing, silently, until both editors exist
  // (`if (!queryEditor || !responseEditor) return;`), and the response editor mounts later.
  await page.locator('.graphiql-response .monaco-editor').waitFor();

  const answered = page.waitForResponse(
    (r) => r.url() === `${server.base}/graphql` && r.request().method() === 'POST' && (r.request().postData() ?? '').includes('FirstMovies'),
  );
  await page.locator('.graphiql-execute-button').click();
  const response = await answered;

  const sent = response.request().headers();
  assert.match(sent['content-type'] ?? '', /^application\/json/);
  assert.match(sent['accept'] ?? '', /application\/graphql-response\+json/);
  assert.equal(response.status(), 200);
  const body = (await response.json()) as {
    data?: { movies: { nodes: { title: string; year: number }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } };
    errors?: unknown[];
  };
  assert.equal(body.errors, undefined, JSON.stringify(body.errors));
  const nodes = body.data!.movies.nodes;
  assert.equal(nodes.length, 5);
  // Same question, same answer as REST: the first five movies in the default order.
  assert.deepEqual(
    nodes.map((n) => n.title),
    rest.data.map((m) => m.title),
  );
  assert.equal(body.data!.movies.pageInfo.hasNextPage, true);

  // The result pane shows the real data.
  const resultPane = page.locator('.graphiql-response .view-lines');
  await resultPane.filter({ hasText: firstTitle }).waitFor({ timeout: 15_000 });
  assert.match((await resultPane.innerText()).replace(/\u00a0/g, ' '), /"endCursor"/);

  assert.deepEqual(external, [], `requests left localhost: ${external.join(', ')}`);
  assert.deepEqual(errors, [], `errors in the page: ${errors.join('\n')}`);
  await page.context().close();
});
