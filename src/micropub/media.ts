/**
 * What the media endpoint (Micropub §3.6) accepts, read from an upload's bytes rather than
 * from anything the client says about them: a multipart body with exactly one `file` part
 * (and, as §2.1 allows, an `access_token` field), holding a JPEG, PNG, WebP or GIF image —
 * known by its magic number, not its `Content-Type` or file name — which sharp, the
 * library the build makes its variants with (src/compile/content/media.ts), can read, of
 * at most `micropubMediaBytesMax` bytes and `micropubMediaPixelsMax` pixels. What passes
 * is safe to hand to the next build; what does not is refused with the reason.
 */
import type { Metadata } from 'sharp';
import { LIMITS } from '../core/limits.ts';

/** An image type the endpoint keeps: its media type, the extension it is stored under, and sharp's name for its format. */
export interface ImageType {
  mediaType: 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif';
  extension: 'jpg' | 'png' | 'webp' | 'gif';
  format: 'jpeg' | 'png' | 'webp' | 'gif';
}

const ascii = (bytes: Uint8Array, at: number, text: string) => [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));

/**
 * The type of an image by its first bytes: JPEG `FF D8 FF` (JFIF/Exif SOI marker), PNG's
 * eight-byte signature (PNG §5.2), `GIF87a`/`GIF89a`, and WebP's `RIFF….WEBP` container.
 * Undefined for anything else.
 */
export function sniffImage(bytes: Uint8Array): ImageType | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { mediaType: 'image/jpeg', extension: 'jpg', format: 'jpeg' };
  if ([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b)) return { mediaType: 'image/png', extension: 'png', format: 'png' };
  if (ascii(bytes, 0, 'GIF87a') || ascii(bytes, 0, 'GIF89a')) return { mediaType: 'image/gif', extension: 'gif', format: 'gif' };
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) return { mediaType: 'image/webp', extension: 'webp', format: 'webp' };
  return undefined;
}

interface Refusal {
  ok: false;
  status: 400 | 413 | 415;
  description: string;
}

export type MediaUpload = { ok: true; bytes: Uint8Array; bodyToken: string | undefined } | Refusal;
export type CheckedImage = { ok: true; bytes: Uint8Array; type: ImageType } | Refusal;

const refuse = (status: 400 | 413 | 415, description: string): Refusal => ({ ok: false, status, description });

/** The one file of a multipart upload, and the form's token; the body is already within its bound. Nothing is decoded: `checkImage` does that, once the token is checked. */
export async function readUpload(contentType: string, body: Uint8Array): Promise<MediaUpload> {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'Content-Type': contentType } }).formData();
  } catch {
    return refuse(400, 'The multipart body could not be read.');
  }
  const files = form.getAll('file');
  const tokens = form.getAll('access_token');
  if (tokens.length > 1 || tokens.some((t) => typeof t !== 'string')) return refuse(400, 'access_token is sent once, as text.');
  if (files.length !== 1 || typeof files[0] === 'string') return refuse(400, 'Send exactly one file, in a multipart part named "file" (Micropub §3.6).');
  return { ok: true, bytes: new Uint8Array(await (files[0] as File).arrayBuffer()), bodyToken: tokens[0] as string | undefined };
}

/** The image checks, in order: size, magic number, sharp reads it as that format, pixel count. */
export async function checkImage(bytes: Uint8Array): Promise<CheckedImage> {
  if (bytes.length > LIMITS.micropubMediaBytesMax) return refuse(413, `The file is larger than ${LIMITS.micropubMediaBytesMax} bytes (micropubMediaBytesMax).`);
  const type = sniffImage(bytes);
  if (!type) return refuse(415, 'The file is not a JPEG, PNG, WebP or GIF image (its bytes, not its Content-Type, decide).');
  let meta: Metadata;
  try {
    // Headers only: sharp reads the dimensions without decoding the pixels. Loaded at the
    // first upload: a server that takes none does not load libvips.
    const { default: sharp } = await import('sharp');
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return refuse(400, `The file starts as a ${type.format.toUpperCase()} image but cannot be read as one.`);
  }
  if (meta.format !== type.format || !meta.width || !meta.height)
    return refuse(400, `The file starts as a ${type.format.toUpperCase()} image but cannot be read as one.`);
  if (meta.width * meta.height > LIMITS.micropubMediaPixelsMax)
    return refuse(413, `The image is ${meta.width}×${meta.height} pixels, more than ${LIMITS.micropubMediaPixelsMax} (micropubMediaPixelsMax).`);
  return { ok: true, bytes, type };
}
