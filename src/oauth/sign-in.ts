/**
 * The owner's sign-in at their own OpenID Connect provider, through `openid-client`:
 * authorization code with PKCE (S256) and a nonce. The provider is found by discovery
 * on first use (not at start-up, so a provider that is down does not stop the site) and
 * remembered; a failed discovery is tried again on the next sign-in. `openid-client`
 * verifies the ID token — signature, issuer, audience, nonce, expiry — and the state;
 * this module then says whose account signed in, and the caller compares it with
 * `OWNER_SUBJECT`. Plain-http providers are accepted only on loopback addresses (the
 * development provider of `npm run owner:idp` and tests).
 */
import * as client from 'openid-client';
import type { OwnerIdentityProvider } from './config.ts';

/** What the browser's trip to the provider needs remembered until it comes back. */
export interface SignInChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

export class OwnerSignIn {
  private readonly idp: OwnerIdentityProvider;
  private readonly callbackUrl: string;
  private config: Promise<client.Configuration> | undefined;

  constructor(idp: OwnerIdentityProvider, callbackUrl: string) {
    this.idp = idp;
    this.callbackUrl = callbackUrl;
  }

  /** The `sub` of the one account that is the owner. */
  get subject(): string {
    return this.idp.subject;
  }

  private configuration(): Promise<client.Configuration> {
    this.config ??= (async () => {
      const auth = this.idp.clientSecret === undefined ? client.None() : client.ClientSecretPost(this.idp.clientSecret);
      const insecure = this.idp.issuer.protocol === 'http:' && LOOPBACK.has(this.idp.issuer.hostname);
      return client.discovery(
        this.idp.issuer,
        this.idp.clientId,
        { redirect_uris: [this.callbackUrl] },
        auth,
        insecure ? { execute: [client.allowInsecureRequests] } : undefined,
      );
    })();
    this.config.catch(() => (this.config = undefined));
    return this.config;
  }

  /** Where to send the browser, and the checks to keep for its return. */
  async start(): Promise<{ url: string; checks: SignInChecks }> {
    const config = await this.configuration();
    const checks = { state: client.randomState(), nonce: client.randomNonce(), codeVerifier: client.randomPKCECodeVerifier() };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.callbackUrl,
      scope: 'openid',
      response_type: 'code',
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, checks };
  }

  /**
   * Completes the sign-in from the callback's query: the verified subject, or throws
   * (the provider's error, a bad ID token, a replayed or forged response).
   */
  async finish(query: URLSearchParams, checks: SignInChecks): Promise<string> {
    const config = await this.configuration();
    const current = new URL(this.callbackUrl);
    current.search = query.toString();
    const tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedNonce: checks.nonce,
      expectedState: checks.state,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('The identity provider returned no ID token.');
    return claims.sub;
  }
}
