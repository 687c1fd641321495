/**
 * The Cloudflare Pages worker (`dist/client/_worker.js`, Pages' advanced mode): the edge
 * answers a request from the static files only when one of them is exactly what the
 * runtime would answer, and sends everything else to the runtime at `ORIGIN_URL`.
 *
 * In order: a request with a query string, another method than GET or HEAD, or a
 * WebSocket upgrade goes to the origin; a collection list (`/api/<name>.json`) is its
 * page-one file only when `Accept` prefers JSON among what the list offers and
 * `API-Version` is absent or `1.0.0` (else the origin answers: CSV, GeoJSON, 400, 406); any
 * other path is resolved as the runtime resolves it (src/http/representations.ts: a page
 * or its Markdown twin, a JSON document or its HTML page), and answered from the assets
 * with the runtime's negotiation headers. A path no file answers goes to the origin, so
 * a missing page gets the runtime's own 404. The origin sees the request's method,
 * headers, body and the client's address appended to `X-Forwarded-For`, and its answer
 * (a WebSocket included) comes back untouched.
 *
 * The build bundles this file with the site's table (`__EDGE_TABLE__`): which paths are
 * files, which are lists and the `_headers` rules, whose header names say which of the
 * headers the host adds on its own (`Access-Control-Allow-Origin: *`, a default
 * `Referrer-Policy`…) to drop, so a file's headers at the edge are the runtime's.
 */
import { headerNamesAt, type HeaderRule } from '../compile/edge/header-rules.ts';
import { NEGOTIATED_HEADERS, negotiate } from '../http/negotiate.ts';
import { resolveRepresentation, type Representation } from '../http/representations.ts';

/** What the build tells the worker about the site (src/compile/edge/deploy.ts). */
export interface EdgeTable {
  /** Every URL path a static file answers (the header manifest's keys). */
  files: readonly string[];
  /** Collection list paths and the media types each offers, preferred first. */
  lists: Readonly<Record<string, readonly string[]>>;
  /** The `_headers` rules. */
  rules: readonly HeaderRule[];
  /** The REST contract version a list's `API-Version` may name. */
  apiVersion: string;
}

declare const __EDGE_TABLE__: EdgeTable;

/**
 * What Pages hands the worker on each request: `ORIGIN_URL`, a Pages variable (declared
 * with every other variable in src/config.ts, which this bundle does not import: the
 * worker reads it from here), and the static files' binding.
 */
interface Env {
  ORIGIN_URL?: string;
  ASSETS: { fetch(request: Request): Promise<Response> };
}

/** Headers the asset server computes from the bytes it serves, kept as it sends them. */
const HOST_COMPUTED = new Set(['etag', 'content-length', 'content-encoding', 'transfer-encoding', 'date']);

export function createEdge(table: EdgeTable) {
  const files = new Set(table.files);
  const has = (path: string) => files.has(path);

  /** The static file that answers exactly, or undefined when only the origin can. */
  function staticAnswer(request: Request, url: URL): Representation | undefined {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || url.search !== '' || request.headers.has('Upgrade')) return undefined;
    const accept = request.headers.get('Accept');
    const offered = table.lists[url.pathname];
    if (offered) {
      const version = request.headers.get('API-Version')?.trim() ?? '';
      const json = (version === '' || version === table.apiVersion) && negotiate(accept, offered) === 'application/json';
      return json && has(url.pathname) ? { path: url.pathname, negotiated: false } : undefined;
    }
    return resolveRepresentation(has, url.pathname, accept);
  }

  async function fromAssets(request: Request, url: URL, chosen: Representation, env: Env): Promise<Response> {
    const asset = await env.ASSETS.fetch(new Request(new URL(chosen.path, url), { method: request.method, headers: request.headers }));
    const expected = headerNamesAt(table.rules, chosen.path);
    const headers = new Headers();
    for (const [name, value] of asset.headers) if (expected.has(name) || HOST_COMPUTED.has(name)) headers.append(name, value);
    if (chosen.negotiated) for (const [name, value] of Object.entries(NEGOTIATED_HEADERS)) headers.set(name, value);
    return new Response(asset.body, { status: asset.status, statusText: asset.statusText, headers });
  }

  function toOrigin(request: Request, url: URL, env: Env): Promise<Response> {
    if (!env.ORIGIN_URL)
      return Promise.resolve(new Response('ORIGIN_URL is not set: this deployment has no runtime to send dynamic requests to.\n', { status: 502 }));
    const target = new URL(`${url.pathname}${url.search}`, env.ORIGIN_URL);
    const headers = new Headers(request.headers);
    const client = request.headers.get('CF-Connecting-IP');
    if (client) {
      const forwarded = request.headers.get('X-Forwarded-For');
      headers.set('X-Forwarded-For', forwarded ? `${forwarded}, ${client}` : client);
    }
    headers.set('X-Forwarded-Host', url.host);
    headers.set('X-Forwarded-Proto', url.protocol.slice(0, -1));
    const body = request.method === 'GET' || request.method === 'HEAD' ? null : request.body;
    return fetch(new Request(target, { method: request.method, headers, body, redirect: 'manual' }));
  }

  return {
    async fetch(request: Request, env: Env): Promise<Response> {
      const url = new URL(request.url);
      const chosen = staticAnswer(request, url);
      if (chosen) {
        const answer = await fromAssets(request, url, chosen, env);
        // A file the table names but the assets lack (a partial upload): the runtime still has it.
        if (answer.status === 200 || answer.status === 304) return answer;
      }
      return toOrigin(request, url, env);
    },
  };
}

export default createEdge(__EDGE_TABLE__);
