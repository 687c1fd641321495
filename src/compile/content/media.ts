/**
 * The owner's image files: `content/media/` mirrors the public paths records name
 * (a photo's `src: /photos/2024/x.jpg` is the file `content/media/photos/2024/x.jpg`, a
 * flyer's `/flyers/y.jpg` is `content/media/flyers/y.jpg`). The build publishes each file
 * at that path (so the `src` the APIs answer resolves) and beside it sized WebP variants
 * under `/media/`, named after a hash of the original so they can be cached forever.
 * Remote (http/https) images are never fetched: a page links them instead of showing them.
 * Encoding is deterministic: the same file and the same sharp give the same bytes.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';
import sharp from 'sharp';
import { variantWidths, type MediaFile, type MediaIndex } from '../../site/media.ts';
import { MEDIA_FOLDER } from '../../paths.ts';
import { mediaVariantUrl } from '../../urls.ts';

/** The image files sharp reads; anything else in the folder is left alone. */
const IMAGE_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png', '.webp', '.avif', '.gif', '.tif', '.tiff']);

/** WebP quality of the variants: photographs stay clean at a third of JPEG's bytes. */
const WEBP_QUALITY = 78;

/** Every image file under `content/media/`, by the public path it is published at. */
function mediaFiles(contentDir: string): Map<string, string> {
  const root = join(contentDir, MEDIA_FOLDER);
  const found = new Map<string, string>();
  if (!existsSync(root)) return found;
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !IMAGE_EXTENSIONS.has(extname(entry.name).toLowerCase())) continue;
    const file = join(entry.parentPath, entry.name);
    found.set(`/${relative(root, file).split(sep).join('/')}`, file);
  }
  return new Map([...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const write = (clientDir: string, path: string, body: Uint8Array) => {
  mkdirSync(dirname(join(clientDir, path)), { recursive: true });
  writeFileSync(join(clientDir, path), body);
};

/**
 * Publishes every image of `content/media/` into `clientDir` — the original at its own
 * path, WebP variants at the widths of MEDIA_WIDTHS it can fill — and answers the index
 * pages read (through the image) to draw `<img srcset>`.
 */
export async function publishMedia(contentDir: string, clientDir: string): Promise<MediaIndex> {
  const index: MediaIndex = {};
  for (const [path, file] of mediaFiles(contentDir)) {
    const bytes = readFileSync(file);
    const meta = await sharp(bytes).metadata();
    // EXIF orientation 5–8 turns the picture a quarter: its shown width is the stored height.
    const turned = (meta.orientation ?? 1) >= 5;
    const original = { width: turned ? meta.height : meta.width, height: turned ? meta.width : meta.height };
    const entry: MediaFile = { hash: createHash('sha256').update(bytes).digest('hex').slice(0, 12), ...original };
    write(clientDir, path, bytes);
    for (const width of variantWidths(entry)) {
      const body = await sharp(bytes).rotate().resize({ width }).webp({ quality: WEBP_QUALITY }).toBuffer();
      write(clientDir, mediaVariantUrl(path, entry.hash, width), body);
    }
    index[path] = entry;
  }
  return index;
}
