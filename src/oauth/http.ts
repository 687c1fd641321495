/**
 * The HTTP shapes of the owner lane, as small free functions: OAuth errors in the
 * RFC 6749 §5.2 JSON shape (`error`, `error_description`) with `Cache-Control: no-store`,
 * JSON answers, form bodies read strictly (RFC 6749 §3.1: "Request and response
 * parameters MUST NOT be included more than once"), redirects back to a client with the
 * RFC 9207 `iss` parameter, and the cookies that tie a browser to its sign-in.
 */
import type { Answer } from '../http/answer.ts';

/** The OAuth error codes this server answers with (RFC 6749 §4.1.2.1, §5.2; RFC 8707 §2; SPEC §7). */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_client_metadata'
  | 'invalid_grant'
  | 'invalid_scope'
  | 'invalid_target'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'unsupported_token_type'
  | 'access_denied'
  | 'server_error'
  | 'temporarily_unavailable';

/** RFC 6749 §5.1: token responses (and their errors) are never cached. */
export const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;

export function jsonAnswer(status: number, value: unknown, headers: Record<string, string> = {}): Answer {
  const body = Buffer.from(JSON.stringify(value));
  return { status, headers: { 'Content-Type': 'application/json', 'Content-Length': String(body.length), ...NO_STORE, ...headers }, body };
}

/** RFC 6749 §5.2: 400, or 401 for `invalid_client` (with a challenge, since the client tried to authenticate). */
export function oauthError(
  error: OAuthErrorCode,
  description: string,
  status = error === 'invalid_client' ? 401 : 400,
  headers: Record<string, string> = {},
): Answer {
  return jsonAnswer(status, { error, error_description: description }, headers);
}

export type Params = Map<string, string>;

/**
 * Parameters of a query string or form body: undefined when one is repeated (RFC 6749
 * §3.1); a parameter sent without a value is treated as omitted (RFC 6749 §3.1).
 */
export function strictParams(search: URLSearchParams): Params | undefined {
  const params: Params = new Map();
  for (const [name, value] of search) {
    if (params.has(name)) return undefined;
    if (value !== '') params.set(name, value);
  }
  return params;
}

const FORM = /^application\/x-www-form-urlencoded\s*(;|$)/i;

/** A form-encoded body, or the OAuth error to answer instead. */
export function formParams(contentType: string | null, body: Uint8Array | null, max: number): Params | Answer {
  if (!contentType || !FORM.test(contentType)) return oauthError('invalid_request', 'Send the parameters form-encoded (application/x-www-form-urlencoded).');
  if (body && body.length > max) return oauthError('invalid_request', `The body is larger than ${max} bytes.`, 413);
  const params = strictParams(new URLSearchParams(Buffer.from(body ?? new Uint8Array()).toString('utf8')));
  return params ?? oauthError('invalid_request', 'A parameter is given more than once.');
}

/**
 * The redirect of an authorization response to the client (RFC 6749 §4.1.2), with `iss`
 * (RFC 9207 §2). After a form POST it is a 303 (RFC 9700 §4.12: never a 307, which would
 * repeat the POST, with the owner's form fields, to the client).
 */
export function clientRedirect(
  redirectUri: string,
  issuer: string,
  params: Record<string, string | undefined>,
  headers: Record<string, string> = {},
  status: 302 | 303 = 302,
): Answer {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  url.searchParams.set('iss', issuer);
  return { status, headers: { Location: url.href, ...NO_STORE, ...headers }, body: null };
}

/** A cookie value from a `Cookie` header, or undefined. */
export function cookie(header: string | null, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The name and attributes of the owner lane's cookies: `__Host-` with `Secure` on https
 * (the browser then refuses them from any other host or path); on plain http (local
 * development) browsers refuse `Secure` and the prefix, so neither is used there.
 * HttpOnly, SameSite=Lax: sent on the top-level redirect back from the identity provider,
 * never on another site's subrequests or form posts.
 */
export function cookieName(siteUrl: string, name: string): string {
  return siteUrl.startsWith('https:') ? `__Host-${name}` : name;
}

export function setCookie(siteUrl: string, name: string, value: string, maxAgeSeconds: number): string {
  const secure = siteUrl.startsWith('https:') ? '; Secure' : '';
  return `${cookieName(siteUrl, name)}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`;
}
