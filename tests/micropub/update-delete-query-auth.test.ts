/**
 * micropub.rocks' update (400–405), delete and undelete (500–503), query (600–603) and
 * authentication (800–805) cases against one site: each update is a `replace`, `add` or
 * `delete` on a film's properties (Micropub §3.4.2), read back with `q=source` and from
 * the content file; a deleted film leaves REST and comes back on undelete; tokens are
 * taken in the header or a form body, never both, never stored.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { client, served, sparklesWatch, startOwnerSite, type OwnerSite } from './site.ts';

let site: OwnerSite;
let mp: ReturnType<typeof client>;
let url: string;

before(async () => {
  site = await startOwnerSite('micropub-update-');
  mp = client(site, site.mint(['create', 'update', 'delete']));
  const created = await mp.json(sparklesWatch('Update Test Film', '2010', { category: ['Drama'], content: ['First words.'] }));
  assert.equal(created.status, 201);
  url = created.location!;
});
after(() => site.stop());

const source = async (properties = '') =>
  (await mp.query(`q=source&url=${encodeURIComponent(url)}${properties}`)).body as { properties: Record<string, unknown[]> };

test('400: replace a property (the review)', async () => {
  const answer = await mp.json({ action: 'update', url, replace: { content: ['Replaced words.'] } });
  assert.equal(answer.status, 204);
  assert.deepEqual((await source()).properties.content, ['Replaced words.']);
  assert.equal((await served(site, url))?.review, 'Replaced words.');
});

test('401 and 402: add a value to a property, and to one the post did not have', async () => {
  assert.equal((await mp.json({ action: 'update', url, add: { category: ['Mystery'] } })).status, 204);
  assert.deepEqual((await served(site, url))?.genres, ['Drama', 'Mystery']);
  // The post had no syndication: a Letterboxd link added is the film's letterboxdUri (what the Letterboxd import matches on).
  assert.equal((await mp.json({ action: 'update', url, add: { syndication: ['https://letterboxd.com/film/update-test-film/'] } })).status, 204);
  assert.equal((await served(site, url))?.letterboxdUri, 'https://letterboxd.com/film/update-test-film/');
});

test('403 and 404: remove a value, then the whole property (genres emptied); a scalar field is removed too (the owner lane’s update), a required one refused', async () => {
  assert.equal((await mp.json({ action: 'update', url, delete: { category: ['Drama'] } })).status, 204);
  assert.deepEqual((await served(site, url))?.genres, ['Mystery']);
  assert.equal((await mp.json({ action: 'update', url, delete: ['category'] })).status, 204);
  assert.deepEqual((await served(site, url))?.genres, []);
  // Micropub §3.3: a property deleted is removed from the post; the one writer's update removes fields (issue 39).
  assert.equal((await mp.json({ action: 'update', url, delete: ['rating'] })).status, 204);
  assert.equal((await served(site, url))?.rating, undefined);
  // The film's name is the record's title, which the schema requires: refused, nothing changed.
  const required = await mp.json({ action: 'update', url, delete: ['watch-of'] });
  assert.equal(required.status, 400);
  assert.equal(required.body.error, 'invalid_request');
  assert.equal((await served(site, url))?.title, 'Update Test Film');
  assert.equal((await mp.json({ action: 'update', url, replace: { rating: ['4'] } })).status, 204);
  assert.equal((await served(site, url))?.rating, 4);
});

test('405: an operation whose value is not an array is refused', async () => {
  const answer = await mp.json({ action: 'update', url, replace: { content: 'not an array' } });
  assert.equal(answer.status, 400);
  assert.equal(answer.body.error, 'invalid_request');
});

test('500–503: delete (form, JSON) takes the film off REST and its page; undelete (form, JSON) brings it back', async () => {
  assert.equal((await mp.form({ action: 'delete', url })).status, 204);
  assert.equal(await served(site, url), undefined);
  assert.equal((await fetch(url)).status, 404);
  assert.equal((await mp.form({ action: 'undelete', url })).status, 204);
  assert.equal((await served(site, url))?.title, 'Update Test Film');
  assert.equal((await mp.json({ action: 'delete', url })).status, 204);
  assert.equal(await served(site, url), undefined);
  assert.equal((await mp.json({ action: 'delete', url })).status, 204, 'deleting again answers the same');
  assert.equal((await mp.json({ action: 'undelete', url })).status, 204);
  assert.equal((await fetch(url)).status, 200);
});

test('600 and 601: q=config names the media endpoint, the post types and syndicate-to; q=syndicate-to', async () => {
  const config = await mp.query('q=config');
  assert.equal(config.status, 200);
  assert.equal(config.body['media-endpoint'], `${site.base}/micropub/media`);
  assert.deepEqual(config.body['syndicate-to'], []);
  assert.deepEqual(
    (config.body['post-types'] as { type: string }[]).map((t) => t.type),
    ['event', 'watch', 'read', 'checkin', 'listen'],
  );
  assert.deepEqual((await mp.query('q=syndicate-to')).body, { 'syndicate-to': [] });
  assert.equal((await mp.query('q=nonsense')).status, 400);
});

test('602 and 603: q=source with all properties, then with properties[]', async () => {
  const all = (await mp.query(`q=source&url=${encodeURIComponent(url)}`)).body as { type: string[]; properties: Record<string, unknown[]> };
  assert.deepEqual(all.type, ['h-entry']);
  assert.equal((all.properties['watch-of']![0] as { properties: { name: string[] } }).properties.name[0], 'Update Test Film');
  const some = await source('&properties[]=rating&properties[]=content');
  assert.deepEqual(Object.keys(some.properties).sort(), ['content', 'rating']);
  assert.equal((await mp.query(`q=source&url=${encodeURIComponent(`${site.base}/movies/itm_000000000000000000000000`)}`)).status, 400);
});

test('800–802: a token in the header or in a form body; the token is never stored', async () => {
  const token = site.mint(['create']);
  const anonymous = client(site, undefined);
  const fields = {
    h: 'event',
    name: 'Token in body',
    start: '2026-11-01',
    category: 'meetup',
    locality: 'Leeds',
    'country-name': 'United Kingdom',
    access_token: token,
  };
  const inBody = await anonymous.form(fields);
  assert.equal(inBody.status, 201, JSON.stringify(inBody.body));
  const inHeader = await client(site, token).form({ ...fields, name: 'Token in header', access_token: '' }, { Authorization: `Bearer ${token}` });
  assert.equal(inHeader.status, 400, 'an access_token field beside the header is two tokens');
  const header = await client(site, token).form({
    h: 'event',
    name: 'Token in header',
    start: '2026-11-02',
    category: 'meetup',
    locality: 'Leeds',
    'country-name': 'United Kingdom',
  });
  assert.equal(header.status, 201);
  const written = readFileSync(join(site.content, 'events', 'token-in-body.yaml'), 'utf8');
  assert.ok(!written.includes(token) && !written.includes('access_token'), written);
});

test('803–805: no token 401 unauthorized; a bad one 401; one without the scope 401 insufficient_scope; header and body at once 400', async () => {
  const post = { type: ['h-entry'], properties: sparklesWatch('Refused', '2000').properties };
  const none = await client(site, undefined).json(post);
  assert.equal(none.status, 401);
  assert.equal(none.body.error, 'unauthorized');
  const bad = await client(site, 'not-a-token').json(post);
  assert.equal(bad.status, 401);
  assert.equal(bad.body.error, 'unauthorized');
  const readOnly = await client(site, site.mint(['taste:read'])).json(post);
  assert.equal(readOnly.status, 401);
  assert.equal(readOnly.body.error, 'insufficient_scope');
  assert.match(readOnly.body.error_description as string, /create scope/);
  const noDelete = await client(site, site.mint(['create'])).json({ action: 'delete', url });
  assert.equal(noDelete.body.error, 'insufficient_scope');
  const token = site.mint(['create']);
  const both = await client(site, token).form({ h: 'entry', content: 'x', access_token: token });
  assert.equal(both.status, 400);
  assert.ok(!JSON.stringify(both.body).includes(token), 'the token is never echoed');
  const inUrl = await client(site, token).query(`q=config&access_token=${token}`);
  assert.equal(inUrl.status, 400);
});

test('draft: a token with only the draft scope creates private records, which no public surface serves', async () => {
  const drafted = await client(site, site.mint(['draft'])).json(sparklesWatch('A Draft Film', '1995'));
  assert.equal(drafted.status, 201);
  assert.equal(await served(site, drafted.location!), undefined);
  assert.match(readFileSync(join(site.content, 'movies', 'a-draft-film.yaml'), 'utf8'), /visibility: private/);
});
