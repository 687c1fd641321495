/**
 * Client ID Metadata Documents (MCP 2025-11-25 authorization; draft-ietf-oauth-client-id-
 * metadata-document): a `client_id` that is an https URL names a JSON document, published
 * by the client, holding its metadata. This server fetches it — the one outbound request
 * a stranger can make it send — so the fetch is fenced in, in order:
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
import type { LookupFunction } from 'node:net';
import { lookup as dnsLookup } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { LIMITS } from '../core/limits.ts';
import { embeddedIPv4 } from './address.ts';
import { checkClientMetadata, type ClientLookup } from './clients.ts';

/** Addresses no client metadata may be fetched from (RFC 6890 special-purpose registries). */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  // IPv4-compatible (::/96, deprecated) and IPv4-translated (::ffff:0:0:0/96), NAT64 (global and local-use), 6to4 and
  // site-local (fec0::/10, deprecated) are refused whole: each can carry or route to an inner IPv4 address.
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6');

/** Whether `address` is one a metadata document may be fetched from: public, and so is any IPv4 address inside it (IPv4-mapped ones included). */
export const isPublicAddress = (address: string): boolean => {
  const family = isIP(address);
  if (family === 0 || BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6')) return false;
  const inner = family === 6 ? embeddedIPv4(address) : undefined;
  return inner === undefined || !BLOCKED.check(inner, 'ipv4');
};

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

/** A DNS lookup that fails for names resolving to any non-public address: checked at connect time. */
const publicOnly: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as { address: string; family: number }[];
    if (list.length === 0 || !list.every((a) => isPublicAddress(a.address))) {
      return callback(Object.assign(new Error('its host resolves to a private address'), { code: 'EPRIVATE' }), '', 0);
    }
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};

/** The body of a bounded, redirect-free GET: a string, or an Error saying why not. */
function fetchDocument(url: URL, allowLoopback: boolean, timeoutMs: number): Promise<string | Error> {
  return new Promise((resolve) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: 'GET',
      headers: { Accept: 'application/json' },
      lookup: allowLoopback ? undefined : publicOnly,
      timeout: timeoutMs,
    });
    const timer = setTimeout(() => request.destroy(new Error('timed out')), timeoutMs);
    const done = (result: string | Error) => {
      clearTimeout(timer);
      resolve(result);
    };
    // Only this module's own messages leave it: a network error's text could describe the network.
    request.on('error', (error: Error & { code?: string }) =>
      done(error.code === 'EPRIVATE' || error.message === 'timed out' ? error : new Error('could not be reached')),
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('response', (response: IncomingMessage) => {
      if (response.statusCode !== 200) {
        response.resume();
        request.destroy();
        return done(new Error(`the answer was ${response.statusCode}; redirects are not followed`));
      }
      if (!/^application\/([a-z.+-]*\+)?json\s*(;|$)/i.test(response.headers['content-type'] ?? '')) {
        request.destroy();
        return done(new Error('the answer is not application/json'));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > LIMITS.oauthCimdBytesMax) {
          request.destroy();
          return done(new Error(`the answer is larger than ${LIMITS.oauthCimdBytesMax} bytes`));
        }
        chunks.push(chunk);
      });
      response.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
      response.on('error', () => done(new Error('could not be read')));
    });
    request.end();
  });
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
