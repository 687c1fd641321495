/**
 * A real Micropub client against the endpoint: micropub-helper 1.6.2 (the library
 * Omnibear uses), all on 127.0.0.1. It discovers `micropub`, `authorization_endpoint`
 * and `token_endpoint` from the home page, as it does for any site; it sends no PKCE, so
 * it cannot authorize itself here, and is handed a token the test obtains by the PKCE
 * flow an app that can sign in uses. Through
 * it the test reads `q=config` and posts a film (`watch-of`) citing an image uploaded to
 * the media endpoint `q=config` names, which REST then serves.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { MICROPUB_URLS, OAUTH_URLS } from '../../src/urls.ts';
import { Agent, startAgentSite } from '../oauth/agent.ts';
import { Browser, signIn, type Site } from '../oauth/helpers.ts';
import { served, sparklesWatch } from './site.ts';

/** micropub-helper's surface as this test uses it (the package ships no types). */
interface MicropubHelper {
  options: { token: string };
  getEndpointsFromUrl(url: string): Promise<{ auth: string; token: string; micropub: string }>;
  query(type: string): Promise<Record<string, unknown>>;
  create(post: unknown, type?: 'json' | 'form' | 'multipart'): Promise<string | null>;
}
type MicropubHelperClass = new (settings: Record<string, string>) => MicropubHelper;

const Micropub = createRequire(import.meta.url)('micropub-helper') as MicropubHelperClass;

let site: Site & { idp?: { issuer: string } };
let agent: Agent;
let helper: MicropubHelper;

/**
 * A token as an app with PKCE obtains it (tests/micropub/indieauth.test.ts): registered,
 * `me` sent, the owner signed in at the identity provider and approving the consent page,
 * the code exchanged with its verifier.
 */
async function tokenFor(scope: string): Promise<string> {
  const client = await agent.register('Omnibear (micropub-helper)');
  const attempt = await agent.authorizationUrl(client, { scope, me: site.base, resource: null });
  const page = await signIn(new Browser(), attempt.url, 'owner', 'http://127.0.0.1:9/callback', site.idp!.issuer);
  assert.ok(page instanceof Response);
  const tokens = await agent.exchange(client, await agent.approved(client, attempt), attempt.verifier);
  assert.equal(tokens.me, `${site.base}/`);
  return tokens.access_token;
}

before(async () => {
  // The site serves a copy of the content through its generations: a post is written, rebuilt and served.
  ({ site, agent } = await startAgentSite({ content: 'content' }));
  helper = new Micropub({ clientId: 'https://omnibear.example/', redirectUri: 'https://omnibear.example/callback' });
});
after(() => site.stop());

test('micropub-helper discovers the endpoints from the home page', async () => {
  const endpoints = await helper.getEndpointsFromUrl(`${site.base}/`);
  assert.deepEqual(endpoints, {
    micropub: `${site.base}${MICROPUB_URLS.micropub}`,
    auth: `${site.base}${OAUTH_URLS.authorize}`,
    token: `${site.base}${OAUTH_URLS.token}`,
  });
});

test('with a token it reads q=config, uploads an image, and creates a film that is then served', async () => {
  helper.options.token = await tokenFor('create media');
  const config = await helper.query('config');
  assert.equal(config['media-endpoint'], `${site.base}${MICROPUB_URLS.media}`);
  assert.ok((config['post-types'] as { type: string }[]).some((t) => t.type === 'watch'));

  // The image goes up without the helper: its postMedia cannot send a file from Node 18 or
  // later (its form code takes Node's global FormData, which axios 0.18 cannot serialize,
  // and fails before any request); in a browser, as in Omnibear, it sends a File.
  const jpeg = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#e67e22' } })
    .jpeg()
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'photo.jpg');
  const uploaded = await fetch(config['media-endpoint'] as string, {
    method: 'POST',
    headers: { Authorization: `Bearer ${helper.options.token}` },
    body: form,
  });
  assert.equal(uploaded.status, 201);
  const photo = uploaded.headers.get('location')!;

  const location = await helper.create(
    sparklesWatch('Helper Client Film', '1999', { photo: [{ value: photo, alt: 'An orange square' }], category: ['Drama'] }),
    'json',
  );
  assert.ok(location?.startsWith(`${site.base}/movies/`), String(location));
  const record = await served(site, location!);
  assert.equal(record?.title, 'Helper Client Film');
  assert.equal(record?.year, 1999);
  assert.equal(record?.rating, 4.5);
  assert.deepEqual(record?.genres, ['Drama']);
});

test('its refusals reach the client as errors with the status: a token without the scope', async () => {
  helper.options.token = await tokenFor('media');
  await assert.rejects(helper.create(sparklesWatch('Helper Refused Film', '2000'), 'json'), (error: { status: number }) => error.status === 401);
});
