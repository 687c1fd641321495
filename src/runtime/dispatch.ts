/**
 * The dispatcher: one node:http request in, one answer out, whatever the request holds.
 * In order: the request target and Host are checked (a malformed one is a 400 problem,
 * never a thrown URL error), the route is found (404), the method checked (405 with
 * `Allow`; HEAD is served as GET without a body), the body read up to the route's bound
 * (or the smaller one it sets for this request's headers, `bodyMaxFor`): a body declared
 * larger is never read, one sent larger is read no further than its bound, and either
 * connection closes after the answer, the handler run, and any throw or rejection turned into one logged 500 problem that
 * says nothing of the cause. Every answer leaves with the security headers of its media
 * type (src/http/security.ts). Web-standard routes get a `Request` and have their
 * `Response` streamed back; a WebSocket handshake to a path that takes upgrades passes
 * the same checks, then its route takes the socket. The dispatcher is handed its routes
 * and how a refusal reaches a person (`DispatchTable`); the table is src/runtime/routes.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable, type Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { LIMITS } from '../core/limits.ts';
import type { Answer, RequestFacts } from '../http/answer.ts';
import { errorAnswer, problemAnswer } from '../http/problem.ts';
import { metered, settle } from '../http/rate-limit.ts';
import { secured, securityHeaders } from '../http/security.ts';
import { answerFor } from '../http/twin.ts';
import { closeAfter, endWithAnswer, readBody, write, type Dispatcher } from './node.ts';
import type { ProblemSite } from '../site/problem-page.ts';
import { allowedMethods, routeFor, type AnswerRoute, type Route } from './route.ts';
import type { ServingRuntime } from './serving.ts';

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

/**
 * The path of an origin-form target that `targetUrl` would return unchanged: a `/` and
 * then only letters, digits, `-`, `_`, `~`, `.` and `/`, with no dot segment (no `/.`),
 * so the URL parser has nothing to resolve, escape or cut (no `%`, `?`, `#`, `\`).
 * Undefined for any other target, which is parsed. A property holds it to `targetUrl`
 * (tests/http/target-path.test.ts).
 */
const PLAIN_PATH = /^\/[A-Za-z0-9\-_~./]*$/;
export function plainPath(target: string): string | undefined {
  return PLAIN_PATH.test(target) && !target.includes('/.') ? target : undefined;
}

/** Header names as node:http keys them: handlers ask for a few fixed names, each lowercased once (bounded, whatever asks). */
const lowered = new Map<string, string>();
function lowerName(name: string): string {
  let lower = lowered.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    if (lowered.size < 256) lowered.set(name, lower);
  }
  return lower;
}

/** What handlers read of a node:http request (a class: no closure is made per request). */
class NodeFacts implements RequestFacts {
  readonly method: string;
  readonly peer: string;
  readonly target: string;
  private readonly headers: IncomingMessage['headers'];
  private parsed: URL | undefined;

  constructor(req: IncomingMessage, method: string, url?: URL) {
    this.method = method;
    this.peer = req.socket.remoteAddress ?? '';
    this.target = req.url ?? '';
    this.headers = req.headers;
    this.parsed = url;
  }

  /**
   * Parsed when first read, since a replayed answer never reads it. Every handler is
   * given a target `admit` parsed; a replay only finds targets that were, so the root
   * stands in for one that does not parse, which no replay has remembered.
   */
  get url(): URL {
    return (this.parsed ??= targetUrl(this.target) ?? new URL(ORIGIN));
  }

  header(name: string): string | null {
    const value = this.headers[lowerName(name)];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }
}

/** The answer with the security headers of its path and media type (src/http/security.ts), added where missing. */
function withSecurity(answer: Answer, path: string, siteUrl: string): Answer {
  const headers = secured(answer.headers, path, siteUrl);
  return headers === answer.headers ? answer : { ...answer, headers };
}

/** RFC 9110 §8.6: the body's length as `Content-Length` declares it (Node has checked its syntax); undefined when sent in chunks. */
function declaredLength(req: IncomingMessage): number | undefined {
  const value = req.headers['content-length'];
  return value === undefined ? undefined : Number(value);
}

/**
 * The request's body, read no further than `max` bytes and one past it, which tells the
 * handler the body was larger (it answers its own 413). A body declared larger is not read
 * at all: the handler is handed `max + 1` bytes at once. Either way the unread rest never
 * reaches the request: the connection closes after the answer (lingering, `closeAfter`),
 * so a client sending a gigabyte costs its headers, not the gigabyte.
 */
function boundedBody(req: IncomingMessage, res: ServerResponse, max: number): Uint8Array | Promise<Uint8Array | null> {
  if ((declaredLength(req) ?? 0) > max) {
    closeAfter(req, res);
    return new Uint8Array(max + 1);
  }
  return readBody(req, max + 1, () => closeAfter(req, res));
}

/** The route's answer; a Promise only when a body is read or the handler returns one (no microtask for a remembered answer). */
function run(
  route: Route & { kind: 'answer' },
  runtime: ServingRuntime,
  req: IncomingMessage,
  res: ServerResponse,
  request: RequestFacts,
): Answer | Promise<Answer> {
  if (route.bodyMax === undefined) return route.answer(runtime, request, null);
  // A route may bound this request's body tighter, from its headers (`bodyMaxFor`).
  const max = route.bodyMaxFor === undefined ? route.bodyMax : Math.min(route.bodyMax, route.bodyMaxFor(request));
  const body = boundedBody(req, res, max);
  return body instanceof Promise ? body.then((read) => route.answer(runtime, request, read)) : route.answer(runtime, request, body);
}

/** `run` under the collections quota (src/http/rate-limit.ts: a 304 spends nothing). */
function runMetered(
  route: Route & { kind: 'answer' },
  runtime: ServingRuntime,
  req: IncomingMessage,
  res: ServerResponse,
  request: RequestFacts,
): Answer | Promise<Answer> {
  return metered(runtime.quota, runtime.clientOf(request), () => run(route, runtime, req, res, request));
}

/**
 * Spends one unit of the collections quota, then runs `go`; or sends the 429. Synchronous
 * with the in-process store; a shared store's failure cannot reach here (it fails open).
 */
function underQuota(runtime: ServingRuntime, request: RequestFacts, go: () => void, refuse: (answer: Answer) => void, failed: (error: unknown) => void): void {
  const decided = settle(runtime.quota.take(runtime.clientOf(request)), (quota) => (quota.allowed ? go() : refuse(runtime.quota.refusal(quota))));
  if (decided instanceof Promise) decided.catch(failed);
}

/** A request past `admit`: its path, its URL where it was parsed (a plain path is not: `NodeFacts` parses it when read), its route. */
interface Admitted {
  path: string;
  url?: URL;
  route: Route;
}

/** The checks every request passes before its route is asked: target length and form, Host (`hostValid`, where it was checked), a route for the path. */
function admit(req: IncomingMessage, runtime: ServingRuntime, routes: readonly Route[], hostValid = validHost(req)): Admitted | Answer {
  const target = req.url ?? '';
  if (target.length > LIMITS.requestTargetBytesMax) {
    return problemAnswer('target-too-long', `The request target is longer than ${LIMITS.requestTargetBytesMax} bytes.`);
  }
  const plain = plainPath(target);
  const url = plain === undefined ? targetUrl(target) : undefined;
  if (plain === undefined && !url)
    return problemAnswer('bad-request', 'The request target is not an origin-form path (/path?query) or an absolute http(s) URL.');
  if (!hostValid) return problemAnswer('bad-request', 'An HTTP/1.1 request carries exactly one Host header, a valid host[:port].');
  const path = plain ?? url!.pathname;
  const route = routeFor(path, runtime, routes);
  if (!route) return problemAnswer('not-found', 'Nothing is published at this path.');
  return { path, url, route };
}

const isWebSocketHandshake = (req: IncomingMessage) => req.method === 'GET' && (req.headers.upgrade ?? '').toLowerCase() === 'websocket';

/**
 * A Web request from node:http's, with the target resolved against the fixed origin and the
 * body already read (bounded); its signal aborts when the client leaves before the answer
 * is done (an abort builds a DOMException: not for every answer).
 */
function webRequest(req: IncomingMessage, res: ServerResponse, url: URL, body: Uint8Array | null): Request {
  const aborted = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) aborted.abort();
  });
  const signal = aborted.signal;
  // Node's view of the fields (`req.headers`), not the raw lines: a singleton field sent twice
  // (Content-Type, Authorization, Host…) is its first value there, as every handler reading
  // `RequestFacts` sees it, so a Web handler cannot read the same request differently.
  const headers = new Headers();
  for (const name in req.headers) {
    const value = req.headers[name];
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
  return new Request(url, { method, headers, body: method === 'GET' || body === null ? null : new Uint8Array(body), signal });
}

/** Writes a Web response, streaming its body with backpressure; a client that leaves cancels the stream. */
async function writeResponse(res: ServerResponse, response: Response, extra: Record<string, string>, head: boolean): Promise<void> {
  const headers: Record<string, string | string[]> = { ...extra };
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers);
  if (head || response.body === null) {
    await response.body?.cancel();
    res.end();
    return;
  }
  await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>), res).catch(() => {
    // The client left (or the stream failed after the head was sent): the socket is closed, nothing more to say.
  });
}

/** What the dispatcher is handed besides the generation: its routes, and how a refused request reaches a person. */
export interface DispatchTable {
  /** Matched in order: the first whose `matches` holds answers. */
  routes: readonly Route[];
  /** Where a refused request stands (a site page or an API surface), by the route that answers its path. */
  problemSiteOf: (runtime: ServingRuntime, pathname: string, routeName: string) => ProblemSite;
  /** A client error as the client prefers it: a page for a person, the problem unchanged for programs (functions/pages.ts). */
  humaneProblem: (runtime: ServingRuntime, accept: string | null, siteOf: () => ProblemSite, pathname: string, answer: Answer) => Answer;
}

/** A dispatcher serving the runtime `current()` returns when each request arrives, with the routes and refusals of `table`. */
export function createDispatcher(current: () => ServingRuntime, table: DispatchTable): Dispatcher {
  const { routes, problemSiteOf, humaneProblem } = table;
  const allows = new Map(routes.map((route) => [route, allowedMethods(route)]));
  const replayers = routes.filter((route) => route.kind === 'answer' && route.replay !== undefined) as (Route & AnswerRoute)[];

  /** A sender of answers to `req`: as the client prefers a refusal, secured, without a body for HEAD. */
  const sender = (runtime: ServingRuntime, req: IncomingMessage, res: ServerResponse, admitted: { path: string; route: Route } | Answer) => {
    const path = 'route' in admitted ? admitted.path : '';
    const accept = req.headers.accept ?? null;
    // Where a refusal stands decides its form (functions/pages.ts): a target refused before routing is read as a page's.
    const site = () => ('route' in admitted ? problemSiteOf(runtime, path, admitted.route.name) : 'unrouted');
    const shownPath = 'route' in admitted ? path : (/^\/[^?#]{0,200}/.exec(req.url ?? '')?.[0] ?? '/');
    return (answer: Answer) =>
      write(res, withSecurity(answerFor(accept, humaneProblem(runtime, accept, site, shownPath, answer)), path, runtime.siteUrl), req.method === 'HEAD');
  };

  /**
   * A GET or HEAD answered from what a route remembers, before its target is parsed or
   * routed (`Route.replay`): a remembered 200 is written as it is, anything else (a 304,
   * a 429) as every answer is. False, having done nothing, when no route remembers it.
   */
  const replayed = (runtime: ServingRuntime, req: IncomingMessage, res: ServerResponse): boolean => {
    const facts = new NodeFacts(req, 'GET');
    for (const route of replayers) {
      let answer: Answer | Promise<Answer> | undefined;
      try {
        answer = route.replay!(runtime, facts);
      } catch (error) {
        answer = errorAnswer(error);
      }
      if (answer === undefined) continue;
      const send = (result: Answer) =>
        result.status === 200 ? write(res, result, req.method === 'HEAD') : sender(runtime, req, res, { path: facts.url.pathname, route })(result);
      if (answer instanceof Promise) answer.then(send, (error: unknown) => (res.headersSent ? res.destroy() : send(errorAnswer(error))));
      else send(answer);
      return true;
    }
    return false;
  };

  const request = (req: IncomingMessage, res: ServerResponse) => {
    // The generation a request starts with answers all of it.
    const runtime = current();
    // An Upgrade this server does not take is answered as HTTP/1.1, then the connection
    // closes, since Node's parser does not read further requests reliably after one.
    if (req.headers.upgrade !== undefined) res.shouldKeepAlive = false;
    const hostValid = validHost(req);
    const target = req.url ?? '';
    // Only an origin-form target within the bound, with a valid Host: what `admit` would pass.
    if (
      hostValid &&
      (req.method === 'GET' || req.method === 'HEAD') &&
      target.charCodeAt(0) === 0x2f &&
      target.length <= LIMITS.requestTargetBytesMax &&
      replayed(runtime, req, res)
    )
      return;
    const admitted = admit(req, runtime, routes, hostValid);
    const send = sender(runtime, req, res, admitted);
    if (!('route' in admitted)) return send(admitted);
    const { path, url, route } = admitted;
    const method = req.method ?? '';
    const allow = allows.get(route)!;
    if (!allow.includes(method)) {
      return send(problemAnswer('method-not-allowed', `This resource takes ${allow.join(', ')}.`, { headers: { Allow: allow.join(', ') } }));
    }
    const request = new NodeFacts(req, method === 'HEAD' ? 'GET' : method, url);
    const failed = (error: unknown) => (res.headersSent ? res.destroy() : send(errorAnswer(error)));
    try {
      const metered = route.metered === true && method !== 'OPTIONS';
      if (route.kind === 'fetch') {
        const answer = async () => {
          const body = route.bodyMax === undefined ? null : await boundedBody(req, res, route.bodyMax);
          let web: Request | undefined;
          const exchange = { facts: request, body, request: () => (web ??= webRequest(req, res, request.url, body)) };
          const result = await route.fetch(runtime, exchange);
          if (result instanceof Response)
            await writeResponse(res, result, securityHeaders(path, result.headers.get('Content-Type') ?? undefined, runtime.siteUrl), req.method === 'HEAD');
          else send(result);
        };
        if (!metered) return void answer().catch(failed);
        return underQuota(runtime, request, () => void answer().catch(failed), send, failed);
      }
      const answer = (metered ? runMetered : run)(route, runtime, req, res, request);
      if (answer instanceof Promise) answer.then(send, failed);
      else send(answer);
    } catch (error) {
      failed(error);
    }
  };

  const upgrades = (req: IncomingMessage) => {
    if (!isWebSocketHandshake(req) || (req.url ?? '').length > LIMITS.requestTargetBytesMax) return false;
    const url = targetUrl(req.url ?? '');
    return url !== undefined && routeFor(url.pathname, current(), routes)?.upgrade !== undefined;
  };

  const upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const runtime = current();
    const admitted = admit(req, runtime, routes);
    if (!('route' in admitted)) return endWithAnswer(socket, admitted);
    const { url, route } = admitted;
    try {
      if (route.metered !== true) return route.upgrade!(runtime, req, socket, head);
      const refuse = (answer: Answer) => endWithAnswer(socket, answer);
      underQuota(
        runtime,
        new NodeFacts(req, 'GET', url),
        () => route.upgrade!(runtime, req, socket, head),
        refuse,
        (error) => refuse(errorAnswer(error)),
      );
    } catch (error) {
      endWithAnswer(socket, errorAnswer(error));
    }
  };

  return { request, upgrades, upgrade };
}
