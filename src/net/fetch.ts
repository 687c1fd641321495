/**
 * The one guarded fetcher for what others choose: a client_id metadata document
 * (src/oauth/cimd.ts) and the feeds and APIs a sync reads (src/sync/client.ts). Every
 * outbound request of the project goes through `guardedFetch`, which fences it in, in
 * order:
 *
 * 1. only http and https URLs, never with credentials in them;
 * 2. unless the caller allows private addresses, the host's addresses are resolved at
 *    connect time and any loopback, private, link-local, shared, reserved or multicast
 *    address is refused, so neither a name pointing inward nor DNS rebinding between a
 *    check and the connect reaches an internal service (SSRF);
 * 3. a connect timeout, an idle timeout (a server that stalls mid-body) and a total
 *    timeout over the whole exchange, redirects included;
 * 4. the body stops at `bytesMax` (decompressed bytes, when the caller accepts gzip), and
 *    a declared `Content-Length` past it is refused before any byte is read;
 * 5. at most `redirectsMax` redirects, each to the same host and never from https down
 *    to http (0: none is followed, and the redirect is the answer);
 * 6. a `User-Agent` naming the project (and the site, when the caller gives it).
 *
 * A failure is a `FetchFailure` with a kind and a message of this module's own: a network
 * error's text could describe the network, and a URL's query could hold a key, so neither
 * is ever repeated.
 */
import type { LookupFunction } from 'node:net';
import { lookup as dnsLookup } from 'node:dns';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { embeddedIPv4 } from '../oauth/address.ts';

/** Addresses nothing may be fetched from unless the caller allows it (RFC 6890 special-purpose registries). */
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

/** Whether `address` is one a fetch may go to: public, and so is any IPv4 address inside it (IPv4-mapped ones included). */
export const isPublicAddress = (address: string): boolean => {
  const family = isIP(address);
  if (family === 0 || BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6')) return false;
  const inner = family === 6 ? embeddedIPv4(address) : undefined;
  return inner === undefined || !BLOCKED.check(inner, 'ipv4');
};

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

export type FetchFailureKind = 'private' | 'unreachable' | 'timeout' | 'too-large' | 'redirect';

/** Why a guarded fetch gave no answer; its message is this module's own, never the network's nor the URL's query. */
export class FetchFailure extends Error {
  override readonly name = 'FetchFailure';
  readonly kind: FetchFailureKind;
  constructor(kind: FetchFailureKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

export interface GuardedPolicy {
  /** Let the fetch reach loopback and private addresses (tests; a mirror the owner names on their own network). */
  allowPrivate: boolean;
  bytesMax: number;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  totalTimeoutMs: number;
  /** 0: no redirect is followed; a 3xx is the answer. */
  redirectsMax: number;
  userAgent: string;
  /** Ask for gzip and inflate it (its inflated bytes count against `bytesMax`). */
  acceptGzip?: boolean;
}

export interface GuardedRequest {
  url: URL;
  method?: 'GET' | 'POST';
  headers?: Readonly<Record<string, string>>;
  /** A POST's body (form-encoded by the caller). */
  body?: string;
}

export interface GuardedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Where the answer came from, after redirects. */
  url: URL;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** `origin + path` of a URL, for messages: never its query (it may hold a key) nor credentials. */
export const shownUrl = (url: URL) => `${url.origin}${url.pathname}`;

/** One exchange, no redirect followed; rejects with a FetchFailure. */
function exchange(request: GuardedRequest, policy: GuardedPolicy, deadline: number): Promise<GuardedResponse> {
  const { url } = request;
  return new Promise((resolve, reject) => {
    let settled = false;
    const headers: Record<string, string> = { 'User-Agent': policy.userAgent, ...(policy.acceptGzip ? { 'Accept-Encoding': 'gzip' } : {}), ...request.headers };
    if (request.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(request.body));
    const outgoing = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: request.method ?? 'GET',
      headers,
      lookup: policy.allowPrivate ? undefined : publicOnly,
      timeout: policy.idleTimeoutMs,
      // One connection per exchange: a kept-alive socket would outlive the timers that fence it.
      agent: false,
    });
    const fail = (failure: FetchFailure) => {
      if (settled) return;
      settled = true;
      clearTimeout(total);
      clearTimeout(connect);
      outgoing.destroy();
      reject(failure);
    };
    const total = setTimeout(
      () => fail(new FetchFailure('timeout', `no complete answer within ${policy.totalTimeoutMs} ms`)),
      Math.max(0, deadline - Date.now()),
    );
    const connect = setTimeout(() => fail(new FetchFailure('timeout', `no connection within ${policy.connectTimeoutMs} ms`)), policy.connectTimeoutMs);
    outgoing.on('socket', (socket) => {
      if (!socket.connecting) clearTimeout(connect);
      else socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connect));
    });
    outgoing.on('timeout', () => fail(new FetchFailure('timeout', `the answer stalled for ${policy.idleTimeoutMs} ms`)));
    outgoing.on('error', (error: Error & { code?: string }) =>
      fail(
        error.code === 'EPRIVATE'
          ? new FetchFailure('private', 'its host resolves to a private address')
          : new FetchFailure('unreachable', 'could not be reached'),
      ),
    );
    outgoing.on('response', (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > policy.bytesMax && !REDIRECTS.has(status))
        return fail(new FetchFailure('too-large', `the answer is larger than ${policy.bytesMax} bytes`));
      let body: Readable = response;
      if (policy.acceptGzip && /^\s*(x-)?gzip\s*$/i.test(response.headers['content-encoding'] ?? '')) {
        const gunzip = createGunzip();
        gunzip.on('error', () => fail(new FetchFailure('unreachable', 'its compressed answer could not be read')));
        body = response.pipe(gunzip);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      body.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > policy.bytesMax) return fail(new FetchFailure('too-large', `the answer is larger than ${policy.bytesMax} bytes`));
        chunks.push(chunk);
      });
      body.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(total);
        clearTimeout(connect);
        resolve({ status, headers: response.headers, body: Buffer.concat(chunks), url });
      });
      response.on('error', () => fail(new FetchFailure('unreachable', 'the answer was cut off')));
      response.on('aborted', () => fail(new FetchFailure('unreachable', 'the answer was cut off')));
    });
    outgoing.end(request.body);
  });
}

/** A fetch fenced in as the header says; redirects followed within the policy. Rejects with a FetchFailure. */
export async function guardedFetch(request: GuardedRequest, policy: GuardedPolicy): Promise<GuardedResponse> {
  const deadline = Date.now() + policy.totalTimeoutMs;
  let current = request;
  const first = request.url;
  for (let redirects = 0; ; redirects++) {
    const { url } = current;
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new FetchFailure('redirect', `${url.protocol} URLs are not fetched`);
    if (url.username !== '' || url.password !== '') throw new FetchFailure('redirect', 'URLs with credentials are not fetched');
    if (!policy.allowPrivate) {
      const literal = url.hostname.replace(/^\[|\]$/g, '');
      if (isIP(literal) !== 0 && !isPublicAddress(literal)) throw new FetchFailure('private', 'it names a private address');
    }
    const response = await exchange(current, policy, deadline);
    const location = response.headers.location;
    if (!REDIRECTS.has(response.status) || policy.redirectsMax === 0 || location === undefined) return response;
    if (redirects >= policy.redirectsMax) throw new FetchFailure('redirect', `more than ${policy.redirectsMax} redirects`);
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new FetchFailure('redirect', 'it redirected to something that is not a URL');
    }
    // A redirect stays on the host first asked (a feed moved to another host is the owner's to follow, in sync.yaml).
    if (next.host !== first.host) throw new FetchFailure('redirect', `it redirected to another host (${next.host})`);
    if (first.protocol === 'https:' && next.protocol !== 'https:') throw new FetchFailure('redirect', 'it redirected from https to http');
    if ((current.method ?? 'GET') !== 'GET') throw new FetchFailure('redirect', 'a POST is not redirected');
    current = { url: next, ...(current.headers ? { headers: current.headers } : {}) };
  }
}
