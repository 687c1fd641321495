/**
 * The owner lane's pages have Markdown twins, as every HTML page does (issue 26 item 3):
 * the consent form, the connected-clients list and the sign-in errors answer
 * `Accept: text/markdown` with Markdown that says the same (parsed with remark), browsers
 * and programs keep the HTML, with `Vary: Accept`. Checked on the templates themselves and
 * through the real server, whose owner lane has no identity provider here ("not set up").
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HtmlValidate } from 'html-validate';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString } from 'mdast-util-to-string';
import { answerFor } from '../../src/http/twin.ts';
import { consentPage, errorPage } from '../../src/oauth/pages.ts';
import { OAUTH_URLS } from '../../src/urls.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const text = (body: Uint8Array | null) => Buffer.from(body ?? new Uint8Array()).toString('utf8');

let server: RunningServer;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

test('the consent page’s twin names the client, every scope and both answers; browsers get the form', async () => {
  const page = consentPage({
    clientName: 'Notes <app>',
    clientId: 'client-1',
    redirectUri: 'https://app.example/cb',
    redirectHost: 'app.example',
    warnings: [],
    scopes: [
      { name: 'taste:read', words: 'Read your taste' },
      { name: 'taste:write', words: 'Log, rate and take stances' },
    ],
    csrf: 'c',
    action: OAUTH_URLS.authorize,
  });
  const twin = answerFor('text/markdown', page);
  assert.equal(twin.status, 200);
  assert.equal(twin.headers['Content-Type'], 'text/markdown; charset=utf-8');
  assert.equal(twin.headers.Vary, 'Accept');
  assert.equal(twin.headers['Content-Length'], String(twin.body!.byteLength));
  const tree = fromMarkdown(text(twin.body));
  const said = toString(tree);
  assert.equal(tree.children[0]?.type, 'heading');
  for (const words of ['Authorize an application', 'Notes <app>', 'client-1', 'app.example', 'taste:read', 'Log, rate and take stances', 'Approve', 'Deny'])
    assert.ok(said.includes(words), words);
  for (const accept of [BROWSER_ACCEPT, 'text/html', '*/*', null]) {
    const html = answerFor(accept, page);
    assert.equal(html.headers['Content-Type'], 'text/html; charset=utf-8', String(accept));
    assert.match(text(html.body), /<form method="post"/);
  }
  const report = await new HtmlValidate({ extends: ['html-validate:recommended'], rules: { 'doctype-style': 'off' } }).validateString(
    text(answerFor(BROWSER_ACCEPT, page).body),
  );
  assert.ok(report.valid, JSON.stringify(report.results.flatMap((r) => r.messages.map((m) => m.message))));
});

test('a sign-in error keeps its status and headers in its twin', () => {
  const page = errorPage(503, 'Sign-in unavailable', 'The identity provider could not be reached; try again later.', { 'Retry-After': '60' });
  const twin = answerFor('text/markdown', page);
  assert.equal(twin.status, 503);
  assert.equal(twin.headers['Retry-After'], '60');
  assert.equal(text(twin.body), '# Sign-in unavailable\n\nThe identity provider could not be reached; try again later.\n');
});

test('through the server: the owner lane’s pages answer Markdown to agents and HTML to browsers', async () => {
  for (const path of [OAUTH_URLS.clients, `${OAUTH_URLS.authorize}?client_id=x`]) {
    const twin = await fetch(`${server.base}${path}`, { headers: { Accept: 'text/markdown' } });
    assert.equal(twin.status, 404, path);
    assert.equal(twin.headers.get('content-type'), 'text/markdown; charset=utf-8', path);
    assert.equal(twin.headers.get('vary'), 'Accept', path);
    assert.match(await twin.text(), /^# The owner lane is not set up\n\n.*OWNER_OIDC_ISSUER/s, path);
    const page = await fetch(`${server.base}${path}`, { headers: { Accept: BROWSER_ACCEPT } });
    assert.equal(page.status, 404, path);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8', path);
    assert.match(await page.text(), /<h1>The owner lane is not set up<\/h1>/, path);
  }
});
