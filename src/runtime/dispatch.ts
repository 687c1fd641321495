/**
 * The dispatcher: one node:http request in, one answer out, whatever the request holds.
 * In order: the request target and Host are checked (a malformed one is a 400 problem,
 * never a thrown URL error), the route is found (404), the method checked (405 with
 * `Allow`; HEAD is served as GET without a body), the body read up to the route's bound,
 * the handler run, and any throw or rejection turned into one logged 500 problem that
 * says nothing of the cause. Every answer leaves with the security headers of its media
 * type (src/http/security.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LIMITS } from '../core/limits.ts';
import type { Answer, RequestFacts } from '../http/answer.ts';
import { errorAnswer, problemAnswer } from '../http/problem.ts';
import { metered } from '../http/rate-limit.ts';
import { securityHeaders } from '../http/security.ts';
import { readBody, write } from './node.ts';
import { allowedMethods, routeFor, ROUTES, type Route } from './routes.ts';
import type { Runtime } from './runtime.ts';

/** Requests are parsed against a fixed origin: nothing the client sends (Host included) shapes the URL handlers read. */
const ORIGIN = 'http://runtime.invalid';

/**
 * RFC 9110 §7.2 / RFC 3986 §3.2.2: `Host = uri-host [ ":" port ]`, a reg-name, an IPv4
 * address or an IP literal in brackets. An empty value is allowed (§7.2: for targets
 * without an authority).
 */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]*)(?::(\d{1,5}))?$/;

/**
 * RFC 9112 §3.2: "A server MUST respond with a 400 (Bad Request) status code to any
 * HTTP/1.1 request message that lacks a Host header field and to any request message that
 * contains more than one Host header field line or a Host header field with an invalid
 * field value." (Node's own check answers without a problem body, so it is off.)
 */
function validHost(req: IncomingMessage): boolean {
  let hosts = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.length === 4 && req.rawHeaders[i]!.toLowerCase() === 'host') hosts++;
  if (hosts === 0) return req.httpVersionMajor === 1 && req.httpVersionMinor === 0;
  const match = hosts === 1 ? HOST.exec(req.headers.host ?? '') : null;
  return match !== null && (match[1] === undefined || Number(match[1]) <= 65535);
}

/**
 * The URL of a request target (RFC 9112 §3.2): origin-form (`/path?query`) as it is —
 * `//` is a path, not an authority — or absolute-form, whose path and query are used.
 * Anything else (asterisk-form, authority-form, garbage) is undefined.
 */
export function targetUrl(target: string): URL | undefined {
  try {
    if (target.startsWith('/')) return new URL(ORIGIN + target);
    if (/^https?:\/\//i.test(target)) {
      const absolute = new URL(target);
      return new URL(ORIGIN + absolute.pathname + absolute.search);
    }
  } catch {
    // Not a URL: answered as a malformed target below.
  }
  return undefined;
}

function facts(req: IncomingMessage, url: URL, method: string): RequestFacts {
  return {
    method,
    url,
    peer: req.socket.remoteAddress ?? '',
    header: (name) => {
      const value = req.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

function withSecurity(answer: Answer, path: string, siteUrl: string): Answer {
  const contentType = answer.headers['Content-Type'] ?? answer.headers['content-type'];
  return { ...answer, headers: { ...answer.headers, ...securityHeaders(path, contentType, siteUrl) } };
}

async function run(route: Route & { kind: 'answer' }, runtime: Runtime, req: IncomingMessage, request: RequestFacts): Promise<Answer> {
  const body = route.bodyMax === undefined ? null : await readBody(req, route.bodyMax + 1);
  return route.answer(runtime, request, body);
}

/** `run` under the collections quota (src/http/rate-limit.ts: a 304 spends nothing). */
async function runMetered(route: Route & { kind: 'answer' }, runtime: Runtime, req: IncomingMessage, request: RequestFacts): Promise<Answer> {
  return await metered(runtime.quota, runtime.clientOf(request), () => run(route, runtime, req, request));
}

/** A node:http request listener serving the runtime `current()` returns when the request arrives. */
export function createDispatcher(current: () => Runtime, routes: readonly Route[] = ROUTES): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    // The generation a request starts with answers all of it.
    const runtime = current();
    // No route upgrades (yet): the request is answered as HTTP/1.1, then the connection closes,
    // since Node's parser does not read further requests reliably after an Upgrade request.
    if (req.headers.upgrade !== undefined) res.shouldKeepAlive = false;
    const target = req.url ?? '';
    const url = target.length <= LIMITS.requestTargetBytesMax ? targetUrl(target) : undefined;
    const path = url?.pathname ?? '';
    const send = (answer: Answer) => write(res, withSecurity(answer, path, runtime.siteUrl), req.method === 'HEAD');
    if (target.length > LIMITS.requestTargetBytesMax) {
      return send(problemAnswer('target-too-long', `The request target is longer than ${LIMITS.requestTargetBytesMax} bytes.`));
    }
    if (!url) return send(problemAnswer('bad-request', 'The request target is not an origin-form path (/path?query) or an absolute http(s) URL.'));
    if (!validHost(req)) return send(problemAnswer('bad-request', 'An HTTP/1.1 request carries exactly one Host header, a valid host[:port].'));
    const route = routeFor(url.pathname, runtime, routes);
    if (!route) return send(problemAnswer('not-found', 'Nothing is published at this path.'));
    const method = req.method ?? '';
    const allow = allowedMethods(route);
    if (!allow.includes(method)) {
      return send(problemAnswer('method-not-allowed', `This resource takes ${allow.join(', ')}.`, { headers: { Allow: allow.join(', ') } }));
    }
    const request = facts(req, url, method === 'HEAD' ? 'GET' : method);
    const failed = (error: unknown) => (res.headersSent ? res.destroy() : send(errorAnswer(error)));
    try {
      const metered = route.metered === true && method !== 'OPTIONS';
      if (route.kind === 'page') {
        if (metered) {
          const quota = runtime.quota.take(runtime.clientOf(request));
          if (!quota.allowed) return send(runtime.quota.refusal(quota));
          for (const [name, value] of Object.entries({ ...runtime.quota.policyHeaders, RateLimit: quota.header })) res.setHeader(name, value);
        }
        for (const [name, value] of Object.entries(securityHeaders(path, 'text/html', runtime.siteUrl))) res.setHeader(name, value);
        const notFound = () => send(problemAnswer('not-found', 'Nothing is published at this path.'));
        runtime.pages(req, res, notFound, { core: runtime.core }).catch(failed);
        return;
      }
      (metered ? runMetered : run)(route, runtime, req, request).then(send, failed);
    } catch (error) {
      failed(error);
    }
  };
}
