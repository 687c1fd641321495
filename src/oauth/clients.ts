/**
 * Clients: dynamic registration (RFC 7591) of public clients only, and the checks every
 * client's metadata passes, whether it was registered here or published as a Client ID
 * Metadata Document (src/oauth/cimd.ts). In order: the body is JSON within its bound;
 * `token_endpoint_auth_method` is `none` (public clients get no secret and must use
 * PKCE); `grant_types` and `response_types` are within what this server does;
 * `redirect_uris` are present, few, without fragments (RFC 6749 §3.1.2), and each is
 * https, http on a loopback address (RFC 8252 §7.3), or a private-use scheme that is a
 * reverse-DNS name (RFC 8252 §7.1) — never `javascript:`, `data:`, `file:` or an
 * operating-system handler (`ms-*`, `search-ms`, `intent`), and never with userinfo
 * (`https://trusted.example@evil.example/`); `scope` names only known scopes. Any
 * failure is 400 `invalid_client_metadata` (SPEC §7: fix the registration, do not retry
 * unchanged), saying which member is at fault.
 *
 * A registration creates no account and expires after 90 days (SPEC §8); the response
 * says when, in `client_id_expires_at`.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { LIMITS } from '../core/limits.ts';
import type { Answer } from '../http/answer.ts';
import { jsonAnswer, oauthError } from './http.ts';
import { isScope } from './scopes.ts';
import type { ClientMetadata, ClientRecord, OAuthStore } from './store.ts';

/**
 * Schemes a redirect may never use, whatever the client claims: script execution, local
 * files, opaque data, and the operating system's own handlers (Windows `ms-*` and
 * `search-ms`, Android `intent`), which a browser hands to the system rather than to an app.
 */
const FORBIDDEN_SCHEMES = new Set([
  'javascript:',
  'data:',
  'file:',
  'vbscript:',
  'about:',
  'blob:',
  'filesystem:',
  'ws:',
  'wss:',
  'ftp:',
  'search-ms:',
  'intent:',
]);

/** RFC 8252 §7.1: a private-use scheme is a reverse-DNS name ("com.example.app"), so it holds a dot. */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;

/** `scheme://user@host`: a redirect whose authority has userinfo reads as one host and goes to another. */
const USERINFO = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Why a redirect URI is refused, or undefined when it is acceptable. */
export function redirectUriProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not an absolute URI';
  }
  if (url.hash !== '' || value.includes('#')) return 'has a fragment (RFC 6749 §3.1.2)';
  if (url.username !== '' || url.password !== '' || USERINFO.test(value)) return 'has userinfo (user@host): name the host alone';
  if (url.protocol === 'https:') return url.hostname === '' ? 'has no host' : undefined;
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname) ? undefined : 'uses http on a host that is not a loopback address (use https)';
  if (FORBIDDEN_SCHEMES.has(url.protocol) || url.protocol.startsWith('ms-')) return `uses the ${url.protocol} scheme`;
  // A private-use scheme (RFC 8252 §7.1), such as com.example.app:/callback.
  return PRIVATE_USE_SCHEME.test(url.protocol)
    ? undefined
    : 'uses a private-use scheme that is not a reverse-DNS name with a dot (RFC 8252 §7.1, e.g. com.example.app)';
}

const text = z.string().max(LIMITS.oauthMetadataCharsMax);

/** The registration request: unknown members are ignored (RFC 7591 §2), known ones checked. */
const METADATA = z.object({
  client_name: text.optional(),
  client_uri: z
    .url({ protocol: /^https?$/ })
    .max(LIMITS.oauthMetadataCharsMax)
    .optional(),
  redirect_uris: z.array(text).min(1).max(LIMITS.oauthRedirectUrisMax),
  grant_types: z
    .array(z.enum(['authorization_code', 'refresh_token']))
    .max(2)
    .optional(),
  response_types: z
    .array(z.enum(['code']))
    .max(1)
    .optional(),
  token_endpoint_auth_method: z.literal('none').optional(),
  scope: text.optional(),
});

/** Validated metadata, or the reason it is refused. */
export function checkClientMetadata(input: unknown): { metadata: ClientMetadata } | { error: 'invalid_client_metadata'; description: string } {
  if (
    typeof input === 'object' &&
    input !== null &&
    'token_endpoint_auth_method' in input &&
    (input as Record<string, unknown>).token_endpoint_auth_method !== 'none'
  ) {
    return { error: 'invalid_client_metadata', description: 'Only public clients are registered: token_endpoint_auth_method must be "none" (use PKCE).' };
  }
  const parsed = METADATA.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? issue.path.join('.') : 'the body';
    return { error: 'invalid_client_metadata', description: `${where}: ${issue.message}` };
  }
  const m = parsed.data;
  for (const [i, uri] of m.redirect_uris.entries()) {
    // Named by position, not echoed: an error never repeats what the client sent.
    const problem = redirectUriProblem(uri);
    if (problem) return { error: 'invalid_client_metadata', description: `redirect_uris[${i}] ${problem}.` };
  }
  const grantTypes = m.grant_types ?? ['authorization_code', 'refresh_token'];
  if (!grantTypes.includes('authorization_code')) return { error: 'invalid_client_metadata', description: 'grant_types must include "authorization_code".' };
  if (m.scope !== undefined && !m.scope.split(' ').filter(Boolean).every(isScope))
    return { error: 'invalid_client_metadata', description: 'scope names a scope this server does not have (see scopes_supported).' };
  const metadata: ClientMetadata = {
    redirect_uris: [...new Set(m.redirect_uris)],
    grant_types: grantTypes,
    response_types: m.response_types ?? ['code'],
    token_endpoint_auth_method: 'none',
  };
  if (m.client_name !== undefined) metadata.client_name = m.client_name;
  if (m.client_uri !== undefined) metadata.client_uri = m.client_uri;
  if (m.scope !== undefined) metadata.scope = m.scope;
  return { metadata };
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/** `POST /oauth/register`: the body is already bounded by the route (one byte past the bound tells it was larger). */
export function register(store: OAuthStore, now: number, contentType: string | null, body: Uint8Array | null): Answer {
  if (body && body.length > LIMITS.oauthRegistrationBytesMax)
    return oauthError('invalid_client_metadata', `The registration body is larger than ${LIMITS.oauthRegistrationBytesMax} bytes.`, 413);
  if (!contentType || !/^application\/json\s*(;|$)/i.test(contentType))
    return oauthError('invalid_client_metadata', 'Send the client metadata as application/json (RFC 7591).');
  let input: unknown;
  try {
    input = JSON.parse(Buffer.from(body ?? new Uint8Array()).toString('utf8'));
  } catch {
    return oauthError('invalid_client_metadata', 'The body is not one JSON object.');
  }
  const checked = checkClientMetadata(input);
  if ('error' in checked) return oauthError(checked.error, checked.description);
  const client: ClientRecord = {
    clientId: `client_${randomBytes(16).toString('base64url')}`,
    metadata: checked.metadata,
    createdAt: now,
    expiresAt: now + LIMITS.oauthClientSeconds * 1000,
  };
  store.putClient(client);
  return jsonAnswer(201, {
    client_id: client.clientId,
    client_id_issued_at: seconds(client.createdAt),
    // Not an RFC 7591 member: when this registration stops working (SPEC §8: 90 days). Register again after it.
    client_id_expires_at: seconds(client.expiresAt),
    ...client.metadata,
  });
}

/** A client as the authorization and token endpoints see it. */
export type ClientLookup = { client: ClientRecord } | { error: 'unknown' | 'expired' | 'invalid'; description: string };

/** A registered client by its id, refusing an expired registration. */
export function registeredClient(store: OAuthStore, clientId: string, now: number): ClientLookup {
  const client = store.getClient(clientId);
  if (!client) return { error: 'unknown', description: 'No client is registered with this client_id; register at the registration endpoint.' };
  if (client.expiresAt <= now) return { error: 'expired', description: 'This client registration expired (registrations last 90 days); register again.' };
  return { client };
}
