/**
 * Micropub (W3C Recommendation 2017-05-23) on the owner lane, issue 40: `POST /micropub`
 * creates, updates, deletes and undeletes posts — records of the collections, through
 * the owner's one write path (src/micropub/write.ts → src/owner/writes.ts) — and `GET
 * /micropub?q=…` answers `config`, `syndicate-to` and `source`. In order:
 *
 * 1. `OPTIONS`: the CORS preflight (any origin: a request proves itself with its bearer
 *    token, never a cookie, so a page of another site gains nothing by calling).
 * 2. The body: a JSON or form request within `micropubRequestBytesMax`, a multipart one
 *    within `micropubMultipartBytesMax` (413), of one of those three media types (415),
 *    read into one action (400 `invalid_request` for a malformed or oversized shape). A
 *    request without an `Authorization: Bearer` header is held to
 *    `micropubRequestBytesMax` whatever its type (`micropubBodyMax`): the dispatcher
 *    refuses a larger one from its headers, before reading it, so a stranger cannot make
 *    the server read 12 MiB to learn it has no token. (A token in a form body is small.)
 * 3. The token, in `Authorization: Bearer` or (POST only, §2.1) as `access_token` in a
 *    form body: in both at once → 400 `invalid_request`; in the query string → 400 (a URL
 *    is logged everywhere it passes); none → 401 `unauthorized`; not a live token of the
 *    owner lane → 401 `unauthorized` (src/oauth/verify.ts). A token is never logged or
 *    repeated in an answer.
 * 4. The scope the action needs (§3.8, IndieAuth scopes, src/oauth/scopes.ts): `create`
 *    (or `draft`, which creates private records only), `update`, `delete` (delete and
 *    undelete), any scope for a query → else 401 `insufficient_scope` naming it.
 * 5. The action: a photo without alt text → 400; a post type with no collection → 400
 *    naming the taken ones; a record the build or the schema refuses → 400; a record
 *    edited by hand since it was read → 409; writes not available here → 503. Creates
 *    answer 201 with `Location` (the record's page, served once the write is rebuilt and
 *    swapped, which the write waits for); updates 204 (201 with the new `Location` when
 *    an identity field moved the record); deletes and undeletes 204.
 *
 * Every answer is `no-store` JSON `{error, error_description}` when refused (§3.8).
 */
import { LIMITS } from '../src/core/limits.ts';
import type { Answer, RequestFacts } from '../src/http/answer.ts';
import { preflight } from '../src/http/cors.ts';
import type { MicropubContext } from '../src/micropub/context.ts';
import type { OAuthServer } from '../src/oauth/server.ts';
import { POST_TYPES } from '../src/micropub/types/index.ts';
import { bodyKind, parseBody, photoWithoutAlt, type BodyKind, type MicropubAction } from '../src/micropub/request.ts';
import { MicropubRefused, MicropubWriter } from '../src/micropub/write.ts';
import { heldScopes, SCOPE } from '../src/oauth/scopes.ts';
import { bearerToken } from '../src/oauth/verify.ts';
import type { WriteCaller } from '../src/owner/writes.ts';
import { MICROPUB_URLS } from '../src/urls.ts';

export const MICROPUB_ALLOW = 'GET, POST, OPTIONS';

export const MICROPUB_HEADERS = {
  'Cache-Control': 'no-store',
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Location, WWW-Authenticate',
} as const;

export function micropubJson(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  const bytes = Buffer.from(JSON.stringify(body));
  return { status, headers: { ...MICROPUB_HEADERS, 'Content-Type': 'application/json', 'Content-Length': String(bytes.length), ...headers }, body: bytes };
}

/** A refusal as Micropub §3.8 spells it. */
export function micropubError(status: number, error: string, description: string, headers: Record<string, string> = {}): Answer {
  return micropubJson(status, { error, error_description: description }, headers);
}

const empty = (status: number, headers: Record<string, string> = {}): Answer => ({
  status,
  headers: { ...MICROPUB_HEADERS, 'Content-Length': '0', ...headers },
  body: null,
});

/** RFC 6750 §3: the challenge of a refused token, with the scope to ask for when one is missing. */
const challenge = (error?: string, scope?: string) => `Bearer${error ? ` error="${error}"` : ''}${scope ? `${error ? ',' : ''} scope="${scope}"` : ''}`;

/** The scope an action needs, and the scopes that give it. */
function scopeNeeded(request: MicropubAction | 'query'): string | undefined {
  if (request === 'query') return undefined;
  return request.action === 'create' ? SCOPE.create : request.action === 'update' ? SCOPE.update : SCOPE.delete;
}

/**
 * The most a request may carry, from its headers alone (step 2): a multipart upload only
 * under a token in the `Authorization` header; without one — no token, or `access_token`
 * in a form body — a form's or JSON's bound. The route hands it to the dispatcher
 * (`bodyMaxFor`), which reads no further.
 */
export function micropubBodyMax(request: RequestFacts): { bytes: number; limit: 'micropubRequestBytesMax' | 'micropubMultipartBytesMax' } {
  return bearerToken(request.header('Authorization')) === undefined
    ? { bytes: LIMITS.micropubRequestBytesMax, limit: 'micropubRequestBytesMax' }
    : { bytes: LIMITS.micropubMultipartBytesMax, limit: 'micropubMultipartBytesMax' };
}

/** A body past the bound of its type, and of its headers (`micropubBodyMax`): the 413 naming the limit it broke, or undefined. */
export function micropubTooLarge(facts: RequestFacts, kind: BodyKind, body: Uint8Array | null): Answer | undefined {
  const headed = micropubBodyMax(facts);
  const bound =
    kind === 'multipart' && headed.limit === 'micropubMultipartBytesMax' ? headed : { bytes: LIMITS.micropubRequestBytesMax, limit: 'micropubRequestBytesMax' };
  if (body === null || body.length <= bound.bytes) return undefined;
  const hint =
    kind === 'multipart' && headed.limit === 'micropubRequestBytesMax'
      ? ' without a token in the Authorization header; send it there (Authorization: Bearer) to upload files'
      : '';
  return micropubError(413, 'invalid_request', `The request body is larger than ${bound.bytes} bytes (${bound.limit})${hint}.`);
}

/** The verified caller, or the refusal (steps 3 and 4); the media endpoint (functions/micropub-media.ts) checks its token the same way. */
export function authorizeMicropub(
  oauth: OAuthServer,
  facts: RequestFacts,
  bodyToken: string | undefined,
  need: string | undefined,
): { caller: WriteCaller; scopes: Set<string> } | Answer {
  const header = facts.header('Authorization');
  if (facts.url.searchParams.has('access_token'))
    return micropubError(400, 'invalid_request', 'Send the access token in the Authorization header, never in the URL.');
  if (header !== null && bodyToken !== undefined)
    return micropubError(400, 'invalid_request', 'The access token was sent both in the Authorization header and in the body; send it once.');
  const token = bodyToken ?? (header === null ? undefined : bearerToken(header));
  if (token === undefined)
    return micropubError(401, 'unauthorized', 'This endpoint needs an access token (Authorization: Bearer, or access_token in a form body).', {
      'WWW-Authenticate': challenge(),
    });
  const verified = oauth.verifyAccessToken(token);
  if (!verified.ok) return micropubError(401, 'unauthorized', verified.description, { 'WWW-Authenticate': challenge('invalid_token') });
  const scopes = heldScopes(verified.scopes);
  // `draft` alone may create, as private records only (step 4).
  const allowed = need === undefined || scopes.has(need) || (need === SCOPE.create && scopes.has(SCOPE.draft));
  if (!allowed)
    return micropubError(401, 'insufficient_scope', `This request needs the ${need} scope; authorize again asking for it.`, {
      'WWW-Authenticate': challenge('insufficient_scope', need),
    });
  return { caller: { client: verified.clientId, grant: verified.grantId, scopes: verified.scopes }, scopes };
}

/** `GET /micropub` and `POST /micropub` over one generation; `context` is the process's owner lane. */
export type MicropubHandler = (request: RequestFacts, body: Uint8Array | null) => Promise<Answer>;

export function createMicropubHandler(context: MicropubContext, log: (error: unknown) => void = console.error): MicropubHandler {
  const { oauth, owner } = context;
  const writer = oauth && owner ? new MicropubWriter(owner, oauth.config.siteUrl, oauth.config.stateDir) : undefined;

  async function query(facts: RequestFacts): Promise<Answer> {
    const auth = authorizeMicropub(oauth!, facts, undefined, undefined);
    if ('status' in auth) return auth;
    const q = facts.url.searchParams.get('q');
    if (q === 'config')
      return micropubJson(200, {
        // Absolute (§3.6.1: clients upload to it as given); served wherever this endpoint is.
        'media-endpoint': `${oauth!.config.siteUrl}${MICROPUB_URLS.media}`,
        'syndicate-to': [],
        'post-types': POST_TYPES.map((t) => ({ type: t.type, name: t.name, properties: [t.marker] })),
        q: ['config', 'source', 'syndicate-to'],
      });
    if (q === 'syndicate-to') return micropubJson(200, { 'syndicate-to': [] });
    if (q === 'source') {
      const names = facts.url.searchParams.getAll('properties[]').concat(facts.url.searchParams.getAll('properties'));
      return micropubJson(200, writer!.source(auth.caller, facts.url.searchParams.get('url') ?? undefined, names));
    }
    return micropubError(400, 'invalid_request', 'q must be config, source or syndicate-to.');
  }

  async function post(facts: RequestFacts, body: Uint8Array | null): Promise<Answer> {
    const contentType = facts.header('Content-Type');
    const kind = bodyKind(contentType);
    if (!kind) return micropubError(415, 'invalid_request', 'Send the request as application/x-www-form-urlencoded, multipart/form-data or application/json.');
    const oversized = micropubTooLarge(facts, kind, body);
    if (oversized) return oversized;
    const parsed = await parseBody(kind, contentType!, body ?? new Uint8Array());
    if (!parsed.ok) return micropubError(parsed.status, 'invalid_request', parsed.description);
    const { request } = parsed;
    const auth = authorizeMicropub(oauth!, facts, parsed.bodyToken, scopeNeeded(request));
    if ('status' in auth) return auth;
    const { caller, scopes } = auth;
    if (request.action === 'create') {
      const noAlt = photoWithoutAlt(request.entry, request.commands, request.files);
      if (noAlt) return micropubError(400, 'invalid_request', noAlt);
      const written = await writer!.create(caller, request.entry, !scopes.has(SCOPE.create));
      const ignored = [...written.ignored, ...Object.keys(request.files).filter((name) => !written.ignored.includes(name))];
      return micropubJson(201, { url: written.url, ...(ignored.length ? { ignored } : {}) }, { Location: written.url });
    }
    if (request.action === 'update') {
      const written = await writer!.update(caller, request.url, request);
      return written.moved ? micropubJson(201, { url: written.url }, { Location: written.url }) : empty(204);
    }
    await writer![request.action](caller, request.url);
    return empty(204);
  }

  return async (facts, body) => {
    if (facts.method === 'OPTIONS') return preflight(MICROPUB_ALLOW, { headers: MICROPUB_HEADERS, allowHeaders: 'Authorization, Content-Type' });
    if (!writer) return micropubError(503, 'invalid_request', 'Posting is not available on this server (it does not rebuild its content).');
    try {
      return facts.method === 'GET' || facts.method === 'HEAD' ? await query(facts) : await post(facts, body);
    } catch (error) {
      if (error instanceof MicropubRefused) return micropubError(error.status, error.error, error.message);
      log(error);
      return micropubError(500, 'server_error', 'The post could not be saved; nothing was changed. Try again later.');
    }
  };
}
