/**
 * A person in a real browser (headless Chromium): the owner opens the client's
 * authorization URL, signs in at the identity provider, reads the consent page and
 * presses Approve, and the browser is sent to the client's redirect URI with a code —
 * through the browser's own cookie, SameSite and Content-Security-Policy rules (a
 * `form-action` that blocked the redirect after the form would stop it here).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as oauth from 'oauth4webapi';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.ts';
import { OAUTH_URLS } from '../../src/urls.ts';
import { Agent, REDIRECT } from './agent.ts';
import { discover, OWNER, startIdp, startSite, type Site } from './helpers.ts';

let site: Site & { idp?: { issuer: string } };
let agent: Agent;
let browser: Browser;

before(async () => {
  site = await startSite({ idp: startIdp });
  agent = new Agent(site, await discover(site));
  browser = await launchBrowser();
});
after(async () => {
  await browser.close();
  await site.stop();
});

/** Signs in at the development provider as `account` and gets past its own consent prompt. */
async function signInAtProvider(page: import('playwright-core').Page, account: string): Promise<void> {
  await page.waitForSelector('input[name="login"]');
  await page.fill('input[name="login"]', account);
  await page.fill('input[name="password"]', 'any');
  await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
  if (await page.$('input[name="prompt"][value="consent"]')) await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
}

for (const [decision, expected] of [
  ['Approve', 'code'],
  ['Deny', 'error'],
] as const) {
  test(`the owner signs in and presses ${decision} in a real browser; the browser reaches the client with a ${expected}`, async () => {
    const client = await agent.register('Browser agent');
    const attempt = await agent.authorizationUrl(client);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const reached = page.waitForRequest((request) => request.url().startsWith(REDIRECT));
      await page.goto(attempt.url);
      await signInAtProvider(page, OWNER);
      assert.equal(await page.textContent('h1'), 'Authorize an application');
      assert.match((await page.textContent('main'))!, /Browser agent/);
      await page.click(`button:text("${decision}")`);
      const url = new URL((await reached).url());
      assert.ok(url.searchParams.get(expected), url.href);
      assert.equal(url.searchParams.get('state'), attempt.state);
      assert.equal(url.searchParams.get('iss'), site.base);
      if (decision === 'Approve') {
        const tokens = await agent.exchange(client, oauth.validateAuthResponse(agent.as, client, url, attempt.state), attempt.verifier);
        assert.ok(site.oauth.verifyAccessToken(tokens.access_token).ok);
      }
    } finally {
      await context.close();
    }
  });
}

test('the owner opens the connected-clients page in a real browser and revokes a grant with its button', async () => {
  const { client, tokens } = await agent.connect();
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${site.base}${OAUTH_URLS.clients}`);
    await signInAtProvider(page, OWNER);
    assert.equal(await page.textContent('h1'), 'Connected applications');
    const item = page.locator('li', { has: page.locator(`code:text-is("${client.client_id}")`) }).first();
    await Promise.all([page.waitForNavigation(), item.locator('button:text("Revoke")').click()]);
    assert.equal(new URL(page.url()).pathname, OAUTH_URLS.clients);
    assert.equal((await page.content()).includes(client.client_id), false);
    assert.equal(site.oauth.verifyAccessToken(tokens.access_token).ok, false);
  } finally {
    await context.close();
  }
});
