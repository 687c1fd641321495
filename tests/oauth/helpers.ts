/**
 * The owner lane under test: `oidc-provider` as the owner's identity provider (its
 * development sign-in form takes any account name as the subject: "owner" is the owner,
 * anyone else is a second account), the runtime with an `OAuthServer` whose clock the
 * test moves, and a small browser — a cookie jar that follows redirects and submits the
 * provider's forms — to carry the owner through sign-in and consent. Everything listens
 * on 127.0.0.1 only.
 */
import { once } from 'node:events';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as oauth from 'oauth4webapi';
import Provider from 'oidc-provider';
import { oauthConfig } from '../../src/oauth/config.ts';
import { OAuthServer } from '../../src/oauth/server.ts';
import { SqliteOAuthStore } from '../../src/oauth/store.ts';
import { paths } from '../../src/paths.ts';
import { createDispatcher } from '../../src/runtime/dispatch.ts';
import { Generations } from '../../src/runtime/generations.ts';
import { createNodeServer, type Dispatcher } from '../../src/runtime/node.ts';
import { TEST_KEEP_ALIVE_MS } from '../helpers/keep-alive.ts';
import { DISPATCH_TABLE } from '../../src/runtime/routes.ts';
import { ServingRuntime } from '../../src/runtime/serving.ts';
import { OAUTH_URLS } from '../../src/urls.ts';

export const OWNER = 'owner';
export const IDP_CLIENT_ID = 'collections-owner-lane';
export const IDP_CLIENT_SECRET = 'idp-client-secret';

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export interface Idp {
  issuer: string;
  stop(): Promise<void>;
}

/** oidc-provider with one confidential client: the site's callback. */
export async function startIdp(callbackUrl: string): Promise<Idp> {
  let handler: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void = (_req, res) => res.end();
  const server = createServer((req, res) => handler(req, res));
  const issuer = await listen(server);
  const provider = new Provider(issuer, {
    clients: [{ client_id: IDP_CLIENT_ID, client_secret: IDP_CLIENT_SECRET, redirect_uris: [callbackUrl], token_endpoint_auth_method: 'client_secret_post' }],
    cookies: { keys: ['test-cookie-key'] },
  });
  handler = provider.callback();
  return {
    issuer,
    stop: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

export interface Site {
  base: string;
  resource: string;
  oauth: OAuthServer;
  stateDir: string;
  /** Moves the authorization server's clock. */
  advance(ms: number): void;
  /** Closes the authorization server and opens a new one on the same state folder (a process restart). */
  restart(): void;
  stop(): Promise<void>;
}

/**
 * The runtime on a free port, with an authorization server configured for `idp` (or none).
 * With `content` (a content folder, copied), the process's generations serve it as a
 * server does, so the owner's writes (Micropub) are rebuilt and served; `restart` then
 * reaches only the generation being served.
 */
export async function startSite(
  options: { idp?: (callback: string) => Promise<Idp>; cimdAllowLoopback?: boolean; content?: string } = {},
): Promise<Site & { idp?: Idp }> {
  let runtime: ServingRuntime | undefined;
  let dispatcher: Dispatcher = createDispatcher(() => runtime!, DISPATCH_TABLE);
  const server = createNodeServer(
    {
      request: (req, res) => dispatcher.request(req, res),
      upgrades: (req) => dispatcher.upgrades(req),
      upgrade: (req, socket, head) => dispatcher.upgrade(req, socket, head),
    },
    { keepAliveTimeoutMs: TEST_KEEP_ALIVE_MS },
  );
  const base = await listen(server);
  const idp = options.idp ? await options.idp(`${base}${OAUTH_URLS.callback}`) : undefined;
  const stateDir = mkdtempSync(join(tmpdir(), 'oauth-state-'));
  let clock = Date.UTC(2026, 0, 1);
  const open = () =>
    new OAuthServer({
      config: oauthConfig({
        siteUrl: base,
        stateDir,
        cimdAllowLoopback: options.cimdAllowLoopback,
        idp: idp && { issuer: new URL(idp.issuer), clientId: IDP_CLIENT_ID, clientSecret: IDP_CLIENT_SECRET, subject: OWNER },
      }),
      store: new SqliteOAuthStore(stateDir),
      now: () => clock,
      // Every test registers from 127.0.0.1; the quota itself is tested on its own.
      registrationQuota: 1000,
    });
  let authorizationServer = open();
  let generations: Generations | undefined;
  const contentDir = options.content === undefined ? undefined : join(stateDir, 'content');
  if (contentDir) {
    cpSync(options.content!, contentDir, { recursive: true });
    generations = await Generations.open({ distDir: paths.dist, contentDir, oauth: authorizationServer });
    dispatcher = generations.dispatcher();
    runtime = generations.current();
  } else runtime = await ServingRuntime.open({ distDir: paths.dist, oauth: authorizationServer });
  const site = {
    base,
    idp,
    resource: `${base}${OAUTH_URLS.ownerMcp}`,
    stateDir,
    get oauth() {
      return authorizationServer;
    },
    advance: (ms: number) => {
      clock += ms;
    },
    restart: () => {
      authorizationServer.close();
      authorizationServer = open();
      (runtime as { oauth: OAuthServer }).oauth = authorizationServer;
    },
    stop: async () => {
      server.closeAllConnections();
      server.close();
      if (generations) await generations.shutdown();
      else await runtime!.close();
      authorizationServer.close();
      await idp?.stop();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
  return site;
}

/** A cookie jar per origin, and a browser that follows redirects until told to stop. */
export class Browser {
  private readonly jar = new Map<string, Map<string, string>>();

  private cookiesFor(url: URL): string {
    return [...(this.jar.get(url.origin) ?? new Map<string, string>())].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(url: URL, response: Response): void {
    const cookies = this.jar.get(url.origin) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const expired = attributes.some((a) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a));
      if (expired) cookies.delete(name);
      else cookies.set(name, pair!.slice(eq + 1).trim());
    }
    this.jar.set(url.origin, cookies);
  }

  /** One request with this browser's cookies, no redirect followed. */
  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const headers = new Headers(init.headers);
    const cookies = this.cookiesFor(target);
    if (cookies) headers.set('Cookie', cookies);
    const response = await fetch(target, { ...init, headers, redirect: 'manual' });
    this.keep(target, response);
    return response;
  }

  /** Follows redirects from `url` until one leaves for `stopAt` (returned as a URL) or a page answers (returned as a Response). */
  async follow(url: string, stopAt: string, init: RequestInit = {}): Promise<URL | Response> {
    let response = await this.request(url, init);
    let current = url;
    for (let hops = 0; hops < 20; hops++) {
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return response;
      const next = new URL(location, current);
      if (next.href.startsWith(stopAt)) return next;
      await response.body?.cancel();
      current = next.href;
      response = await this.request(current);
    }
    throw new Error('too many redirects');
  }
}

/** The `action` of the first form on a page, and its hidden inputs. */
export function formOf(html: string, base: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]*)"/.exec(html)?.[1];
  if (!action) throw new Error(`no form on the page: ${html.slice(0, 500)}`);
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/?>/g)) fields[match[1]!] = match[2]!;
  return { action: new URL(action.replace(/&amp;/g, '&'), base).href, fields };
}

const post = (fields: Record<string, string>, origin?: string): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(origin ? { Origin: origin } : {}) },
  body: new URLSearchParams(fields).toString(),
});

/**
 * Drives the browser from the client's authorization URL through the identity provider's
 * sign-in (as `account`) and consent, to whatever comes next: the site's consent page
 * (a Response), or a redirect to the client (a URL).
 */
export async function signIn(browser: Browser, authorizeUrl: string, account: string, redirectUri: string, idp: string): Promise<URL | Response> {
  let step = await browser.follow(authorizeUrl, redirectUri);
  for (let pages = 0; pages < 4; pages++) {
    if (step instanceof URL) return step;
    const html = await step.text();
    // A page of the provider has a form posting to its interaction endpoint; anything else is the site's.
    const form = /<form[^>]*action="([^"]*)"/.exec(html)?.[1] ?? '';
    if (!form.startsWith('/interaction/') && !form.startsWith(`${idp}/interaction/`)) return new Response(html, { status: step.status, headers: step.headers });
    const { action } = formOf(html, idp);
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    const fields: Record<string, string> = prompt === 'login' ? { prompt, login: account, password: 'any' } : { prompt: prompt ?? 'consent' };
    step = await browser.follow(action, redirectUri, post(fields));
  }
  throw new Error('the identity provider kept asking');
}

/** Answers the site's consent page with `decision`; returns where the browser is sent. */
export async function answerConsent(
  browser: Browser,
  page: Response | string,
  site: string,
  decision: 'approve' | 'deny',
  redirectUri: string,
): Promise<URL | Response> {
  const html = typeof page === 'string' ? page : await page.text();
  const { action, fields } = formOf(html, site);
  return browser.follow(action, redirectUri, post({ ...fields, decision }, new URL(site).origin));
}

/** oauth4webapi's discovery of this site from the resource URL, as an MCP client does it. */
export async function discover(site: Pick<Site, 'resource'>): Promise<oauth.AuthorizationServer> {
  const options = { [oauth.allowInsecureRequests]: true };
  const resource = await oauth.processResourceDiscoveryResponse(new URL(site.resource), await oauth.resourceDiscoveryRequest(new URL(site.resource), options));
  const issuer = new URL(resource.authorization_servers![0]!);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' }));
}
