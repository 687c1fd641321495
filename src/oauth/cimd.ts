/**
 * Client ID Metadata Documents (MCP 2025-11-25 authorization; draft-ietf-oauth-client-id-
 * metadata-document): a `client_id` that is an https URL names a JSON document, published
 * by the client, holding its metadata. This server fetches it — the one outbound request
 * a stranger can make it send — so the fetch is fenced in, in order (2–4 by the one
 * guarded fetcher, src/net/fetch.ts, which the sync's feeds go through too):
 *
 * 1. the URL is https on port 443 with a path, no fragment, no credentials (http, and
 *    other ports, only on loopback and only when `OAUTH_CIMD_ALLOW_LOOPBACK=1`, for tests);
 * 2. the host's addresses are resolved at connect time and any loopback, private,
 *    link-local, shared, reserved or multicast address is refused (unless allowed), so
 *    neither a name pointing inward nor DNS rebinding between check and connect reaches
 *    an internal service (SSRF);
 * 3. no redirect is followed; only a 200 `application/json` answer counts;
 * 4. the body stops at `oauthCimdBytesMax` and the whole fetch at `oauthCimdTimeoutMs`,
 *    and at most `oauthCimdFetchesMax` fetches run at once (past it: refused, no fetch);
 * 5. the document's `client_id` must equal the URL, and its metadata passes the same
 *    checks as a registration (src/oauth/clients.ts): public client, redirect URI rules.
 *
 * Whatever the remote host answered is never told back (its status, its errors): one
 * description covers every failed fetch or unusable document, so the endpoints that
 * resolve a `client_id` cannot be used to probe public hosts. Who may make this fetch at
 * all is decided by the caller (src/oauth/server.ts): only with the owner lane set up,
 * and at the token and revocation endpoints only for a client holding a live code or grant.
 *
 * A fetched document is remembered for `oauthCimdCacheSeconds`, a failed fetch for
 * `oauthCimdFailureCacheSeconds` only (a host that was down is asked again soon), a
 * bounded number of them, keyed by the parsed URL (two spellings of one URL fetch once);
 * so an authorization and its token exchange fetch once, and a stream of requests
 * naming the same URL fetches once. Whether the document names the very `client_id`
 * given is checked on every use.
 */
import { isIP } from 'node:net';
import { LIMITS } from '../core/limits.ts';
import { FetchFailure, guardedFetch, isPublicAddress } from '../net/fetch.ts';
import { checkClientMetadata, type ClientLookup } from './clients.ts';

// The address fence lives with the one guarded fetcher (src/net/fetch.ts); re-exported for this module's readers.
export { isPublicAddress };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Remembered documents at most; past it the oldest is forgotten. */
const CACHE_ENTRIES_MAX = 1000;

export interface MetadataDocumentOptions {
  allowLoopback: boolean;
  now: () => number;
  /** Default LIMITS.oauthCimdTimeoutMs. */
  timeoutMs?: number;
}

/** Why a client_id URL is refused before any fetch, or undefined. */
function urlProblem(url: URL, allowLoopback: boolean): string | undefined {
  const loopbackAllowed = allowLoopback && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(loopbackAllowed && url.protocol === 'http:')) return 'must be an https URL';
  // An https URL on port 443 has an empty port; any other port would let a client_id knock on arbitrary services.
  if (url.port !== '' && !loopbackAllowed) return 'must use the https port (443)';
  if (url.pathname === '/' || url.pathname === '') return 'must have a path';
  if (url.hash !== '' || url.username !== '' || url.password !== '') return 'must have no fragment and no credentials';
  if (!allowLoopback && isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0 && !isPublicAddress(url.hostname.replace(/^\[|\]$/g, '')))
    return 'names a private address';
  return undefined;
}

/**
 * The body of a bounded, redirect-free GET through the guarded fetcher: a string, or an
 * Error saying why not (code `EPRIVATE` when the fence refused the host).
 */
async function fetchDocument(url: URL, allowLoopback: boolean, timeoutMs: number): Promise<string | Error> {
  let response;
  try {
    response = await guardedFetch(
      { url, headers: { Accept: 'application/json' } },
      {
        allowPrivate: allowLoopback,
        bytesMax: LIMITS.oauthCimdBytesMax,
        connectTimeoutMs: timeoutMs,
        idleTimeoutMs: timeoutMs,
        totalTimeoutMs: timeoutMs,
        redirectsMax: 0,
        userAgent: 'collections (client_id metadata document)',
      },
    );
  } catch (error) {
    if (!(error instanceof FetchFailure)) throw error;
    return error.kind === 'private' ? Object.assign(new Error(error.message), { code: 'EPRIVATE' }) : error;
  }
  if (response.status !== 200) return new Error(`the answer was ${response.status}; redirects are not followed`);
  if (!/^application\/([a-z.+-]*\+)?json\s*(;|$)/i.test(response.headers['content-type'] ?? '')) return new Error('the answer is not application/json');
  return response.body.toString('utf8');
}

/** What fetching a document URL gave: a JSON object, or nothing usable. */
type Fetched = { document: object } | { failed: true };

/** A resolver of `client_id` URLs to clients, with its cache. */
export function metadataDocuments(options: MetadataDocumentOptions): (clientId: string) => Promise<ClientLookup> {
  const cache = new Map<string, { fetched: Promise<Fetched | 'private'>; until: number }>();
  const timeoutMs = options.timeoutMs ?? LIMITS.oauthCimdTimeoutMs;
  let fetching = 0;
  /** One description for every failure that depends on what the remote host answered. */
  const UNUSABLE =
    'could not be used: it must be served over https with a 200 application/json answer (no redirects), name its own URL as client_id, and describe a public client with acceptable redirect URIs';

  async function fetchCounted(url: URL): Promise<string | Error> {
    fetching++;
    try {
      return await fetchDocument(url, options.allowLoopback, timeoutMs);
    } finally {
      fetching--;
    }
  }

  async function resolve(clientId: string): Promise<ClientLookup> {
    const invalid = (why: string): ClientLookup => ({ error: 'invalid', description: `The client_id metadata document ${why}.` });
    let url: URL;
    try {
      url = new URL(clientId);
    } catch {
      return invalid('URL is not a URL');
    }
    const problem = urlProblem(url, options.allowLoopback);
    if (problem) return invalid(`URL ${problem}`);
    const fetched = await fetchOnce(url);
    if (fetched === 'busy') return { error: 'invalid', description: 'Too many client metadata documents are being fetched at once; try again shortly.' };
    // The fence's own verdict (the name resolves inward) is said; what a host answered is not.
    if (fetched === 'private') return invalid('URL names a host that resolves to a private address');
    if ('failed' in fetched) return invalid(UNUSABLE);
    const document = fetched.document;
    if ((document as { client_id?: unknown }).client_id !== clientId) return invalid(UNUSABLE);
    const checked = checkClientMetadata(document);
    if ('error' in checked) return invalid(UNUSABLE);
    const now = options.now();
    return { client: { clientId, metadata: checked.metadata, createdAt: now, expiresAt: Number.MAX_SAFE_INTEGER } };
  }

  async function fetchParsed(url: URL): Promise<Fetched | 'private'> {
    const body = await fetchCounted(url);
    if (body instanceof Error) return (body as Error & { code?: string }).code === 'EPRIVATE' ? 'private' : { failed: true };
    try {
      const document: unknown = JSON.parse(body);
      return typeof document === 'object' && document !== null && !Array.isArray(document) ? { document } : { failed: true };
    } catch {
      return { failed: true };
    }
  }

  /**
   * The fetch of one URL, remembered by its parsed form. The promise is remembered, so
   * requests naming a URL while it is being fetched share that one fetch; once it has
   * failed, it is remembered only for the failure's shorter while.
   */
  function fetchOnce(url: URL): Promise<Fetched | 'private'> | 'busy' {
    const key = url.href;
    const cached = cache.get(key);
    if (cached && cached.until > options.now()) return cached.fetched;
    // Past the cap nothing is fetched, and nothing is remembered: the next request may try.
    if (fetching >= LIMITS.oauthCimdFetchesMax) return 'busy';
    const fetched = fetchParsed(url);
    cache.delete(key);
    if (cache.size >= CACHE_ENTRIES_MAX) cache.delete(cache.keys().next().value!);
    const entry = { fetched, until: options.now() + LIMITS.oauthCimdCacheSeconds * 1000 };
    cache.set(key, entry);
    void fetched.then((outcome) => {
      if (typeof outcome === 'string' || 'failed' in outcome) entry.until = Math.min(entry.until, options.now() + LIMITS.oauthCimdFailureCacheSeconds * 1000);
    });
    return fetched;
  }

  return resolve;
}
