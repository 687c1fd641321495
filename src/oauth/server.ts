/**
 * The owner lane's authorization server as one value per process: its configuration,
 * its store (opened once — grants are not per build generation, so every `Runtime` of
 * the process is handed the same `OAuthServer`), its clock, the owner's sign-in and the
 * registration quota. Routes (src/runtime/routes.ts) call its methods; the protected
 * resource (`/owner/mcp`) calls `authorizeBearer` per request (or `verifyAccessToken`
 * for the token alone). `close()` closes the store.
 */
import { LIMITS } from '../core/limits.ts';
import type { Answer, RequestFacts } from '../http/answer.ts';
import { preflight } from '../http/cors.ts';
import { RateLimiter, settle, type CounterStore, type Quota } from '../http/rate-limit.ts';
import { OAUTH_URLS } from '../urls.ts';
import { quotaKey } from './address.ts';
import { authorize, callback, consent } from './authorize.ts';
import { metadataDocuments } from './cimd.ts';
import { clientsPage, revokeFromPage } from './connected.ts';
import { register, registeredClient, type ClientLookup } from './clients.ts';
import { oauthConfigFrom, type OAuthConfig, type OAuthSettings } from './config.ts';
import type { OAuthContext } from './context.ts';
import { oauthError } from './http.ts';
import { errorPage } from './pages.ts';
import { authorizationServerMetadata, metadataAnswer, protectedResourceMetadata } from './metadata.ts';
import { OwnerSignIn } from './sign-in.ts';
import { SqliteOAuthStore, type OAuthStore } from './store.ts';
import { revoke, token } from './token.ts';
import { authorizeBearer, verifyAccessToken, type BearerDecision, type TokenVerification } from './verify.ts';

export interface OAuthServerOptions {
  config: OAuthConfig;
  /** Default: `SqliteOAuthStore` in `config.stateDir`. */
  store?: OAuthStore;
  /** Milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
  /** How a `client_id` that is a URL becomes a client; default: fetched as a Client ID Metadata Document (src/oauth/cimd.ts). */
  metadataDocument?: (clientId: string) => Promise<ClientLookup>;
  /** Registrations per source address and window; default LIMITS.oauthRegistrationsPerWindow. */
  registrationQuota?: number;
  /** Authorization requests per source address and window; default LIMITS.oauthAuthorizationsPerWindow. */
  authorizationQuota?: number;
  /** Where the registration quota counts (Redis when replicas share quotas); in process by default. */
  registrationCounters?: CounterStore;
  /** Where the authorization quota counts, likewise. */
  authorizationCounters?: CounterStore;
}

/**
 * The endpoints a client calls itself — metadata, registration, token, revocation — may
 * be called from any origin (browser-based MCP clients): they take no cookies and every
 * request carries its own proof (a code and verifier, a refresh token), so
 * `Access-Control-Allow-Origin: *` exposes nothing. The browser pages (authorize,
 * consent, callback, connected clients) get no CORS at all.
 */
const CORS = { 'Access-Control-Allow-Origin': '*' } as const;
const CORS_REQUEST_HEADERS = 'Accept, Content-Type, MCP-Protocol-Version';

const withCors = (answer: Answer): Answer => ({ ...answer, headers: { ...answer.headers, ...CORS } });

/** A metadata-document client this server will not fetch for (see `client` in the constructor). */
const UNKNOWN_DOCUMENT_CLIENT: ClientLookup = {
  error: 'unknown',
  description: 'No client with this client_id is known here; start with an authorization request.',
};

/** Expired codes, tokens and transactions are forgotten at most this often, on a registration or a token request. */
const PURGE_EVERY_MS = 10 * 60 * 1000;

export class OAuthServer {
  readonly context: OAuthContext;
  private readonly registrations: RateLimiter;
  private readonly authorizations: RateLimiter;
  private purgedAt = 0;

  constructor(options: OAuthServerOptions) {
    const { config } = options;
    const store = options.store ?? new SqliteOAuthStore(config.stateDir);
    const now = options.now ?? Date.now;
    const documents = options.metadataDocument ?? metadataDocuments({ allowLoopback: config.cimdAllowLoopback, now });
    this.context = {
      config,
      store,
      now,
      signIn: config.idp && new OwnerSignIn(config.idp, `${config.siteUrl}${OAUTH_URLS.callback}`),
      client: async (clientId, use = 'authorize') => {
        // Registered ids never hold "://": anything that does is a Client ID Metadata Document URL.
        if (!clientId.includes('://')) return registeredClient(store, clientId, now());
        // A stranger may not make this server fetch a URL: not while no grant can be issued
        // at all, and not at the token and revocation endpoints for a client that holds nothing here.
        if (!config.idp) return UNKNOWN_DOCUMENT_CLIENT;
        if (use === 'token' && !store.hasLiveGrant(clientId) && !store.hasLiveCode(clientId, now())) return UNKNOWN_DOCUMENT_CLIENT;
        return documents(clientId);
      },
    };
    this.registrations = new RateLimiter({
      store: options.registrationCounters,
      limit: options.registrationQuota ?? LIMITS.oauthRegistrationsPerWindow,
      windowSeconds: LIMITS.oauthRegistrationWindowSeconds,
      policy: 'oauth-registration',
      now,
    });
    this.authorizations = new RateLimiter({
      store: options.authorizationCounters,
      limit: options.authorizationQuota ?? LIMITS.oauthAuthorizationsPerWindow,
      windowSeconds: LIMITS.oauthAuthorizationWindowSeconds,
      policy: 'oauth-authorization',
      now,
    });
  }

  /** The process's authorization server, configured from its variables (src/config.ts). */
  static fromConfig(settings: OAuthSettings, counters: { registration?: CounterStore; authorization?: CounterStore } = {}): OAuthServer {
    return new OAuthServer({ config: oauthConfigFrom(settings), registrationCounters: counters.registration, authorizationCounters: counters.authorization });
  }

  get config(): OAuthConfig {
    return this.context.config;
  }

  private purge(): void {
    const now = this.context.now();
    if (now - this.purgedAt < PURGE_EVERY_MS) return;
    this.purgedAt = now;
    this.context.store.purge(now);
  }

  /** The CORS preflight of a client-called endpoint taking `allow`. */
  preflight(allow: string): Answer {
    return preflight(allow, { headers: CORS, allowHeaders: CORS_REQUEST_HEADERS });
  }

  protectedResource(): Answer {
    return metadataAnswer(protectedResourceMetadata(this.config));
  }

  authorizationServer(): Answer {
    return metadataAnswer(authorizationServerMetadata(this.config));
  }

  /** `POST /oauth/register`, under the per-source registration quota (an IPv6 source counted by its /64: src/oauth/address.ts). */
  register(request: RequestFacts, body: Uint8Array | null, client: string): Answer | Promise<Answer> {
    return settle(this.registrations.take(quotaKey(client)), (quota) => withCors(this.registerNow(request, body, quota)));
  }

  private registerNow(request: RequestFacts, body: Uint8Array | null, quota: Quota): Answer {
    if (!quota.allowed) {
      return oauthError('invalid_request', 'Too many registrations from this address; retry later.', 429, {
        ...this.registrations.policyHeaders,
        'Retry-After': String(LIMITS.oauthRegistrationWindowSeconds),
        RateLimit: quota.header,
      });
    }
    this.purge();
    return register(this.context.store, this.context.now(), request.header('Content-Type'), body);
  }

  /** `GET /oauth/authorize`, under the per-source authorization quota when the source is known (an IPv6 one counted by its /64). */
  async authorize(request: RequestFacts, client?: string): Promise<Answer> {
    if (client !== undefined) {
      const quota = await this.authorizations.take(quotaKey(client));
      if (!quota.allowed) {
        const headers = { ...this.authorizations.policyHeaders, 'Retry-After': String(quota.reset), RateLimit: quota.header };
        return errorPage(
          429,
          'Too many authorization requests',
          'Too many authorization requests came from your network; wait a few minutes and start again from your application.',
          headers,
        );
      }
    }
    return authorize(this.context, request);
  }

  consent(request: RequestFacts, body: Uint8Array | null): Answer {
    return consent(this.context, request, body);
  }

  callback(request: RequestFacts): Promise<Answer> {
    return callback(this.context, request);
  }

  async token(request: RequestFacts, body: Uint8Array | null): Promise<Answer> {
    this.purge();
    return withCors(await token(this.context, request, body));
  }

  async revoke(request: RequestFacts, body: Uint8Array | null): Promise<Answer> {
    return withCors(await revoke(this.context, request, body));
  }

  /** The connected-clients page: GET lists, POST revokes a grant. */
  clients(request: RequestFacts, body: Uint8Array | null): Answer | Promise<Answer> {
    return request.method === 'POST' ? revokeFromPage(this.context, request, body) : clientsPage(this.context, request);
  }

  /** For the protected resource (`/owner/mcp`): who a bearer token speaks for, or why it is refused. */
  verifyAccessToken(token: string, resource: string = this.config.resource): TokenVerification {
    return verifyAccessToken(this.context, token, resource);
  }

  /**
   * For `/owner/mcp`: the bearer check of one request needing `scope` (`taste:read` for
   * reads, a write tool's task scope for its writes) — the verified token, or the 401/403
   * and its `WWW-Authenticate` value, naming `challengeScope` when given (`taste:write`).
   */
  authorizeBearer(authorization: string | null, scope: string, challengeScope?: string): BearerDecision {
    const resourceMetadata = `${this.config.siteUrl}${OAUTH_URLS.protectedResource}`;
    return authorizeBearer(this.context, authorization, {
      resource: this.config.resource,
      resourceMetadata,
      scope,
      ...(challengeScope ? { challengeScope } : {}),
    });
  }

  close(): void {
    this.context.store.close();
  }
}
