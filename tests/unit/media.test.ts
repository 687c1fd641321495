/**
 * The owner's image files (src/compile/content/media.ts, src/site/media.ts): each file of
 * `content/media/` is published at its own path with WebP variants that are never
 * enlarged and come out byte for byte the same on every build; a record naming a file
 * the folder lacks is a warning, not a failure, and its page draws nothing; a remote
 * image is never drawn; a photo without alt text fails the build, naming the field.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import sharp from 'sharp';
import { compile, ContentError } from '../../src/compile/compile.ts';
import { publishMedia } from '../../src/compile/content/media.ts';
import { Image } from '../../src/core/image.ts';
import { pictureOf, variantWidths } from '../../src/site/media.ts';
import { mediaVariantUrl } from '../../src/urls.ts';

const PHOTO = (src: string, alt = '\n  alt: A drawn square') =>
  `- title: Square\n  src: ${src}${alt}\n  takenAt: 2024-01-01T10:00:00Z\n  width: 3000\n  height: 2000\n`;

async function site(files: Record<string, string | Buffer>): Promise<string> {
  const content = join(mkdtempSync(join(tmpdir(), 'media-')), 'content');
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(join(content, path, '..'), { recursive: true });
    writeFileSync(join(content, path), body);
  }
  return content;
}

const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#c0392b' } })
    .jpeg()
    .toBuffer();

test('every image of content/media is published at its path with WebP variants, the same bytes on every build', async () => {
  const content = await site({ 'media/photos/a.jpg': await jpeg(900, 600), 'media/notes.txt': 'not an image' });
  const [one, two] = [join(content, '../one'), join(content, '../two')];
  const index = await publishMedia(content, one);
  await publishMedia(content, two);
  assert.deepEqual(Object.keys(index), ['/photos/a.jpg']);
  const file = index['/photos/a.jpg']!;
  assert.equal(file.width, 900);
  assert.equal(file.height, 600);
  assert.deepEqual(variantWidths(file), [400, 800, 900]);
  assert.ok(readFileSync(join(one, 'photos/a.jpg')).equals(readFileSync(join(content, 'media/photos/a.jpg'))), 'the original is published at its own path');
  for (const width of variantWidths(file)) {
    const path = mediaVariantUrl('/photos/a.jpg', file.hash, width).slice(1);
    const bytes = readFileSync(join(one, path));
    assert.ok(bytes.equals(readFileSync(join(two, path))), `${path}: deterministic`);
    const meta = await sharp(bytes).metadata();
    assert.equal(meta.format, 'webp');
    assert.equal(meta.width, width);
  }
});

test('variants are never enlarged; a small original gets one at its own width', () => {
  assert.deepEqual(variantWidths({ width: 300 }), [300]);
  assert.deepEqual(variantWidths({ width: 400 }), [400]);
  assert.deepEqual(variantWidths({ width: 600 }), [400, 600]);
  assert.deepEqual(variantWidths({ width: 5000 }), [400, 800, 1200]);
});

test('a picture has the record’s alt, every variant in srcset and the size of the largest; a missing file or a remote image draws nothing', () => {
  const lookup = (path: string) => (path === '/p/a.jpg' ? { hash: 'abc', width: 1000, height: 500 } : undefined);
  const picture = pictureOf('photos', { src: '/p/a.jpg', alt: 'A red square' }, lookup)!;
  assert.equal(picture.alt, 'A red square');
  assert.equal(picture.width, 1000);
  assert.equal(picture.height, 500);
  assert.equal(picture.srcset, '/media/p/a.abc.400w.webp 400w, /media/p/a.abc.800w.webp 800w, /media/p/a.abc.1000w.webp 1000w');
  assert.equal(pictureOf('photos', { src: '/p/missing.jpg', alt: 'x' }, lookup), undefined);
  assert.equal(
    pictureOf('photos', { src: 'https://images.example.net/a.jpg', alt: 'x' }, () => ({ hash: 'h', width: 10, height: 10 })),
    undefined,
  );
  assert.equal(pictureOf('concerts', { artist: 'Band', venue: 'Hall', flyer: '/p/a.jpg' }, lookup)!.alt, 'Flyer for Band at Hall');
});

test('a record naming a file content/media lacks builds with a warning; the image knows the files it has', async () => {
  const content = await site({
    'photos/p.yaml': PHOTO('/photos/a.jpg') + PHOTO('/photos/gone.jpg').replace('Square', 'Gone'),
    'media/photos/a.jpg': await jpeg(500, 400),
  });
  const out = join(content, '../out');
  const media = await publishMedia(content, join(out, 'client'));
  const result = compile({ contentDir: content, imagePath: join(out, 'site.db'), clientDir: join(out, 'client'), secret: 's', media });
  assert.equal(result.counts.photos, 2);
  const missing = result.warnings.filter((w) => w.includes('media/'));
  assert.equal(missing.length, 1);
  assert.match(missing[0]!, /content\/photos\/p\.yaml\[1\]: src: no file media\/photos\/gone\.jpg; the page shows no image$/);
  const image = new Image(join(out, 'site.db'));
  try {
    assert.deepEqual(image.media('/photos/a.jpg'), media['/photos/a.jpg']);
    assert.equal(image.media('/photos/gone.jpg'), undefined);
  } finally {
    image.close();
  }
});

test('a build names the first ten records without their image file, then counts the rest', async () => {
  const content = await site({ 'photos/p.yaml': Array.from({ length: 12 }, (_, i) => PHOTO(`/photos/${i}.jpg`).replace('Square', `Square ${i}`)).join('') });
  const out = join(content, '../out');
  const result = compile({ contentDir: content, imagePath: join(out, 'site.db'), clientDir: join(out, 'client'), secret: 's', media: {} });
  const missing = result.warnings.filter((w) => w.includes('media/'));
  assert.equal(missing.length, 11);
  assert.equal(missing.at(-1), '…and 2 more records whose image file is not in media/');
});

test('a photo without alt text fails the build, naming the file and the field', async () => {
  for (const alt of ['', '\n  alt: "  "']) {
    const content = await site({ 'photos/p.yaml': PHOTO('/photos/a.jpg', alt) });
    const out = join(content, '../out');
    assert.throws(
      () => compile({ contentDir: content, imagePath: join(out, 'site.db'), clientDir: join(out, 'client'), secret: 's' }),
      (error: unknown) => error instanceof ContentError && /photos\/p\.yaml\[0\]: alt: /.test(error.message),
    );
  }
});
