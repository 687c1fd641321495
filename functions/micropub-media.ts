/**
 * The Micropub media endpoint (W3C Recommendation 2017-05-23, §3.6) at `/micropub/media`,
 * which `q=config` names: a client uploads one image, the server keeps it where the build
 * publishes the owner's media and answers where it will be served, and the client then
 * posts that URL as a photo, with its alt text. In order:
 *
 * 1. `OPTIONS`: the CORS preflight, as `/micropub`'s.
 * 2. The body: `multipart/form-data` only (415), within `micropubMultipartBytesMax` under
 *    an `Authorization: Bearer` header and `micropubRequestBytesMax` without one (the
 *    dispatcher refuses a larger one from its headers, unread: `micropubBodyMax`), with
 *    exactly one part named `file` (400).
 * 3. The token, as `/micropub` takes it (functions/micropub.ts `authorizeMicropub`), and
 *    the `media` scope (401 `insufficient_scope`).
 * 4. The file (src/micropub/media.ts): at most `micropubMediaBytesMax` bytes (413), a
 *    JPEG, PNG, WebP or GIF by its magic number (415), readable as that format (400), at
 *    most `micropubMediaPixelsMax` pixels (413).
 * 5. The write, through the owner's one writer (src/owner/writes.ts `media`): named after
 *    its bytes' hash under `content/media/uploads/<year>/`, journaled, atomic, under the
 *    content lock; the same upload again writes nothing and gets the same answer.
 *    `201 Created` with `Location`: the absolute URL the build publishes it at
 *    (`uploadedMediaUrl`), served once the site is next built whole.
 */
import type { Answer, RequestFacts } from '../src/http/answer.ts';
import { preflight } from '../src/http/cors.ts';
import type { MicropubContext } from '../src/micropub/context.ts';
import { checkImage, readUpload } from '../src/micropub/media.ts';
import { bodyKind } from '../src/micropub/request.ts';
import { MicropubRefused, MicropubWriter } from '../src/micropub/write.ts';
import { SCOPE } from '../src/oauth/scopes.ts';
import { authorizeMicropub, MICROPUB_HEADERS, micropubError, micropubJson, micropubTooLarge } from './micropub.ts';

export const MICROPUB_MEDIA_ALLOW = 'POST, OPTIONS';

export type MicropubMediaHandler = (request: RequestFacts, body: Uint8Array | null) => Promise<Answer>;

export function createMicropubMediaHandler(context: MicropubContext, log: (error: unknown) => void = console.error): MicropubMediaHandler {
  const { oauth, owner } = context;
  const writer = oauth && owner ? new MicropubWriter(owner, oauth.config.siteUrl, oauth.config.stateDir) : undefined;

  async function upload(facts: RequestFacts, body: Uint8Array | null): Promise<Answer> {
    const contentType = facts.header('Content-Type');
    if (bodyKind(contentType) !== 'multipart')
      return micropubError(415, 'invalid_request', 'Upload the file as multipart/form-data, in a part named "file" (Micropub §3.6).');
    const oversized = micropubTooLarge(facts, 'multipart', body);
    if (oversized) return oversized;
    const read = await readUpload(contentType!, body ?? new Uint8Array());
    if (!read.ok) return micropubError(read.status, 'invalid_request', read.description);
    const auth = authorizeMicropub(oauth!, facts, read.bodyToken, SCOPE.media);
    if ('status' in auth) return auth;
    // The image is decoded only for a caller holding the scope.
    const image = await checkImage(read.bytes);
    if (!image.ok) return micropubError(image.status, 'invalid_request', image.description);
    const kept = await writer!.media(auth.caller, image.bytes, image.type);
    return micropubJson(201, { url: kept.url }, { Location: kept.url });
  }

  return async (facts, body) => {
    if (facts.method === 'OPTIONS') return preflight(MICROPUB_MEDIA_ALLOW, { headers: MICROPUB_HEADERS, allowHeaders: 'Authorization, Content-Type' });
    if (!writer) return micropubError(503, 'invalid_request', 'Uploading is not available on this server (it does not rebuild its content).');
    try {
      return await upload(facts, body);
    } catch (error) {
      if (error instanceof MicropubRefused) return micropubError(error.status, error.error, error.message);
      log(error);
      return micropubError(500, 'server_error', 'The file could not be kept; nothing was changed. Try again later.');
    }
  };
}
