/**
 * An MCP-style client of the owner lane, built on oauth4webapi: it registers, builds
 * authorization URLs with PKCE, has the owner sign in and answer (through the test
 * browser), exchanges codes and refreshes, against one running site.
 */
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import { answerConsent, Browser, discover, OWNER, signIn, startIdp, startSite, type Site } from './helpers.ts';

/** What the agent needs to know of the site it connects to. */
export interface AgentSite {
  base: string;
  resource: string;
  idp?: { issuer: string };
}

export const insecure = { [oauth.allowInsecureRequests]: true };
/** The client's redirect URI: a loopback address nothing listens on; the browser stops before fetching it. */
export const REDIRECT = 'http://127.0.0.1:9/callback';

export interface Attempt {
  url: string;
  state: string;
  verifier: string;
}

/** The OAuth error a rejected promise carries. */
export async function oauthErrorOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof oauth.ResponseBodyError) return error.error;
    throw error;
  }
  assert.fail('expected an OAuth error');
}

export class Agent {
  readonly site: AgentSite;
  readonly as: oauth.AuthorizationServer;

  constructor(site: AgentSite, as: oauth.AuthorizationServer) {
    this.site = site;
    this.as = as;
  }

  async register(name = 'Test agent', redirectUris = [REDIRECT]): Promise<oauth.Client> {
    const metadata = {
      client_name: name,
      redirect_uris: redirectUris,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    };
    return (await oauth.processDynamicClientRegistrationResponse(await oauth.dynamicClientRegistrationRequest(this.as, metadata, insecure))) as oauth.Client;
  }

  async authorizationUrl(client: oauth.Client, overrides: Record<string, string | null> = {}): Promise<Attempt> {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(this.as.authorization_endpoint!);
    const params: Record<string, string | null> = {
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'taste:read taste:write',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      resource: this.site.resource,
      ...overrides,
    };
    for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
    return { url: url.href, state, verifier };
  }

  /** Signs in as `account` and, on the consent page, answers `decision`: where the browser ends. */
  async decide(attempt: Attempt, decision: 'approve' | 'deny', account = OWNER): Promise<URL> {
    const browser = new Browser();
    const page = await signIn(browser, attempt.url, account, REDIRECT, this.site.idp!.issuer);
    if (page instanceof URL) return page;
    assert.equal(page.status, 200, 'the consent page');
    const back = await answerConsent(browser, page, this.site.base, decision, REDIRECT);
    assert.ok(back instanceof URL, 'sent back to the client');
    return back;
  }

  /** The owner signs in and approves: the redirect's parameters, validated by oauth4webapi (state, iss). */
  async approved(client: oauth.Client, attempt: Attempt): Promise<URLSearchParams> {
    return oauth.validateAuthResponse(this.as, client, await this.decide(attempt, 'approve'), attempt.state);
  }

  async exchange(client: oauth.Client, params: URLSearchParams, verifier: string, resource: string = this.site.resource) {
    const response = await oauth.authorizationCodeGrantRequest(this.as, client, oauth.None(), params, REDIRECT, verifier, {
      ...insecure,
      additionalParameters: { resource },
    });
    return oauth.processAuthorizationCodeResponse(this.as, client, response);
  }

  async refresh(client: oauth.Client, token: string, resource: string = this.site.resource) {
    const response = await oauth.refreshTokenGrantRequest(this.as, client, oauth.None(), token, { ...insecure, additionalParameters: { resource } });
    return oauth.processRefreshTokenResponse(this.as, client, response);
  }

  async revoke(client: oauth.Client, token: string) {
    return oauth.processRevocationResponse(await oauth.revocationRequest(this.as, client, oauth.None(), token, insecure));
  }

  /** A grant straight from the owner: registration, sign-in, approval, code exchange. */
  async connect(scope = 'taste:read taste:write') {
    const client = await this.register();
    const attempt = await this.authorizationUrl(client, { scope });
    const params = await this.approved(client, attempt);
    return { client, attempt, params, tokens: await this.exchange(client, params, attempt.verifier) };
  }
}

/** A site with the test identity provider, and an agent that has read its metadata: where most OAuth tests start. */
export async function startAgentSite(options: { content?: string } = {}): Promise<{ site: Site & { idp?: { issuer: string } }; agent: Agent }> {
  const site = await startSite({ idp: startIdp, ...options });
  return { site, agent: new Agent(site, await discover(site)) };
}
