/**
 * micropub.rocks' media endpoint cases (700 JPEG, 701 PNG, 702 GIF) against one site:
 * each upload is kept under the content's media folder, named after its bytes, through the
 * owner's writer (journaled), and answered `201` with the URL the build publishes it at;
 * `q=config` names the endpoint; a photo post then cites that URL with its alt text.
 * The refusals: a file whose bytes are no image whatever its Content-Type, a broken image,
 * no token, a token without the `media` scope, two files, a body that is not multipart.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { publishMedia } from '../../src/compile/content/media.ts';
import { JOURNAL_FILE } from '../../src/owner/writes.ts';
import { MEDIA_FOLDER } from '../../src/paths.ts';
import { MICROPUB_URLS } from '../../src/urls.ts';
import { client, sparklesWatch, startOwnerSite, type OwnerSite } from './site.ts';

let site: OwnerSite;
let mp: ReturnType<typeof client>;
let mediaEndpoint: string;

before(async () => {
  site = await startOwnerSite('micropub-media-');
  mp = client(site, site.mint(['create', 'media']));
  mediaEndpoint = `${site.base}${MICROPUB_URLS.media}`;
});
after(() => site.stop());

const image = (format: 'jpeg' | 'png' | 'gif' | 'webp', colour = '#c0392b') =>
  sharp({ create: { width: 8, height: 6, channels: 3, background: colour } })
    [format]()
    .toBuffer();

const formWith = (files: [string, Uint8Array, string, string][], fields: [string, string][] = []) => {
  const form = new FormData();
  for (const [name, bytes, type, filename] of files) form.append(name, new Blob([new Uint8Array(bytes)], { type }), filename);
  for (const [name, value] of fields) form.append(name, value);
  return form;
};

const upload = (bytes: Uint8Array, type: string, filename: string, headers?: Record<string, string>) =>
  mp.multipart(formWith([['file', bytes, type, filename]]), headers, mediaEndpoint);

/** The content file a published URL comes from (src/compile/content/media.ts). */
const fileOf = (location: string) => join(site.content, MEDIA_FOLDER, ...new URL(location).pathname.split('/').filter(Boolean));
const journalLines = () => readFileSync(join(site.stateDir, JOURNAL_FILE), 'utf8').split('\n').filter(Boolean);

const cases = [
  { id: 700, format: 'jpeg', type: 'image/jpeg', extension: 'jpg' },
  { id: 701, format: 'png', type: 'image/png', extension: 'png' },
  { id: 702, format: 'gif', type: 'image/gif', extension: 'gif' },
] as const;

for (const { id, format, type, extension } of cases) {
  test(`${id}: a ${format.toUpperCase()} upload is kept under its hash and answered 201 with the URL the build publishes it at`, async () => {
    const bytes = await image(format);
    const answer = await upload(bytes, type, `photo.${extension}`);
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    const year = new Date().getUTCFullYear();
    assert.match(answer.location!, new RegExp(`^${site.base}/uploads/${year}/[0-9a-f]{32}\\.${extension}$`));
    assert.equal(answer.body.url, answer.location);
    assert.deepEqual(new Uint8Array(readFileSync(fileOf(answer.location!))), new Uint8Array(bytes));
    // Journaled by the one writer: the intent, then its outcome.
    const lines = journalLines().filter((line) => line.includes(new URL(answer.location!).pathname));
    assert.equal(lines.length, 2);
    assert.match(lines[0]!, /"tool":"micropub.media"/);
    assert.match(lines[0]!, /"pending":true/);
  });
}

test('a retried upload (the same bytes) answers the same Location and writes nothing', async () => {
  const bytes = await image('png', '#2980b9');
  const first = await upload(bytes, 'image/png', 'a.png');
  const journaled = journalLines().length;
  const again = await upload(bytes, 'application/octet-stream', 'other-name.bin');
  assert.equal(again.status, 201);
  assert.equal(again.location, first.location);
  assert.equal(journalLines().length, journaled);
});

test('a WebP is taken too; the type comes from the bytes, not from the Content-Type or the file name', async () => {
  const answer = await upload(await image('webp'), 'image/jpeg', 'photo.jpg');
  assert.equal(answer.status, 201);
  assert.match(answer.location!, /\.webp$/);
});

test('a file whose bytes are not an image is refused 415, whatever it claims; a broken image 400; nothing is written', async () => {
  const before = journalLines().length;
  const text = await upload(new TextEncoder().encode('<svg onload="alert(1)"></svg>'), 'image/jpeg', 'photo.jpg');
  assert.equal(text.status, 415);
  assert.equal(text.body.error, 'invalid_request');
  const png = await image('png');
  const broken = await upload(png.subarray(0, 24), 'image/png', 'photo.png');
  assert.equal(broken.status, 400);
  assert.equal(journalLines().length, before);
});

test('no token is 401; a token without the media scope is 401 insufficient_scope; the token may travel in the form', async () => {
  const bytes = await image('jpeg', '#16a085');
  const none = await upload(bytes, 'image/jpeg', 'a.jpg', {});
  assert.equal(none.status, 401);
  assert.equal(none.body.error, 'unauthorized');
  const createOnly = site.mint(['create']);
  const scoped = await upload(bytes, 'image/jpeg', 'a.jpg', { Authorization: `Bearer ${createOnly}` });
  assert.equal(scoped.status, 401);
  assert.equal(scoped.body.error, 'insufficient_scope');
  // §2.1: a form body may carry the token (the body is then bounded as a form's: micropubRequestBytesMax).
  const inForm = await mp.multipart(formWith([['file', bytes, 'image/jpeg', 'a.jpg']], [['access_token', site.mint(['media'])]]), {}, mediaEndpoint);
  assert.equal(inForm.status, 201);
});

test('two files, a file in another part, or a body that is not multipart are refused', async () => {
  const bytes = await image('jpeg');
  const two = await mp.multipart(
    formWith([
      ['file', bytes, 'image/jpeg', 'a.jpg'],
      ['file', bytes, 'image/jpeg', 'b.jpg'],
    ]),
    undefined,
    mediaEndpoint,
  );
  assert.equal(two.status, 400);
  const misnamed = await mp.multipart(formWith([['photo', bytes, 'image/jpeg', 'a.jpg']]), undefined, mediaEndpoint);
  assert.equal(misnamed.status, 400);
  const json = await fetch(mediaEndpoint, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  assert.equal(json.status, 415);
});

test('q=config names the media endpoint; a photo post cites an upload with its alt text, and one without alt is refused', async () => {
  const config = await mp.query('q=config');
  assert.equal(config.body['media-endpoint'], mediaEndpoint);
  const uploaded = (await upload(await image('jpeg', '#8e44ad'), 'image/jpeg', 'poster.jpg')).location!;
  const bare = await mp.json(sparklesWatch('Media Test Film', '2003', { photo: [uploaded] }));
  assert.equal(bare.status, 400);
  assert.match(String(bare.body.error_description), /alt/);
  const described = await mp.json(sparklesWatch('Media Test Film', '2003', { photo: [{ value: uploaded, alt: 'A purple square' }] }));
  assert.equal(described.status, 201);
});

test('the build publishes an upload at its Location', async () => {
  const location = (await upload(await image('png', '#f1c40f'), 'image/png', 'y.png')).location!;
  const out = mkdtempSync(join(tmpdir(), 'micropub-media-publish-'));
  try {
    const index = await publishMedia(site.content, out);
    const path = new URL(location).pathname;
    assert.ok(existsSync(join(out, ...path.split('/').filter(Boolean))));
    assert.ok(index[path]);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
