/**
 * The authorization endpoint and the browser's round trip through the owner's sign-in.
 *
 * `GET /oauth/authorize`, checks in order: the lane is set up (else a "not set up" page);
 * no parameter is repeated; `client_id` names a live client; `redirect_uri` matches one
 * of its URIs exactly. Until here a failure is shown on a page. An exact match is not
 * enough to redirect an error, though: registration is anonymous (and a Client ID
 * Metadata Document names whatever redirect its author likes), so a matching URI may be
 * an attacker's page, and redirecting there would make this site an open redirector for
 * phishing (RFC 9700 §4.11.2). So errors go back to the client (RFC 6749 §4.1.2.1) only
 * when its redirect URI is trusted: the client holds a grant the owner approved, or the
 * owner is at the consent step. Otherwise the error is a page that names the client and
 * where it would have sent the browser. The checks after the redirect URI:
 * `response_type=code`; a `code_challenge` with `code_challenge_method=S256` (plain or
 * missing is refused: RFC 9700 §2.1.1); `scope` within the supported scopes;
 * `resource`, when given, the owner MCP URL (RFC 8707, else `invalid_target`); `me`, when
 * given (IndieAuth), the site's own URL (else `invalid_request`). Then the browser is
 * sent to the owner's identity provider.
 *
 * `GET /oauth/callback`: the provider's answer is matched to its sign-in by `state`
 * (single use) and to this browser by a cookie, so a callback URL pasted into another
 * browser does nothing; the ID token is verified (src/oauth/sign-in.ts) and only
 * `sub == OWNER_SUBJECT` continues — anyone else gets `access_denied` (sent to a trusted
 * client, else on a page). The owner sees the consent page, whose form carries a
 * single-use CSRF token.
 *
 * `POST /oauth/authorize` (the consent form): the CSRF token and the cookie must match,
 * and a cross-site `Origin` is refused. Deny → `access_denied`; Approve → a code (single
 * use, 60 s, bound to client, redirect URI, PKCE challenge, scope and resource) with
 * `state` and `iss` (RFC 9207).
 */
import { LIMITS } from '../core/limits.ts';
import type { Answer, RequestFacts } from '../http/answer.ts';
import { OAUTH_URLS } from '../urls.ts';
import { crossSite, forgetBrowser, sameBrowser, secret, startSignIn, type SignInBinding } from './browser.ts';
import { openSession } from './connected.ts';
import { clientLabel, type OAuthContext } from './context.ts';
import { clientRedirect, formParams, strictParams, type OAuthErrorCode } from './http.ts';
import { consentPage, errorPage, notSetUpPage } from './pages.ts';
import { isSiteProfile, profileUrl } from './profile.ts';
import { parseScopes, SCOPES, type Scope } from './scopes.ts';

/** A checked authorization request, as it travels through sign-in and consent. */
interface AuthorizationRequest {
  clientId: string;
  clientName: string;
  redirectUri: string;
  state: string | undefined;
  scopes: Scope[];
  resource: string;
  codeChallenge: string;
}

/** A sign-in is for an authorization request, or for the owner's connected-clients page. */
type SignInTransaction = ({ purpose: 'authorize'; request: AuthorizationRequest } | { purpose: 'clients' }) & SignInBinding;

interface ConsentTransaction {
  request: AuthorizationRequest;
  subject: string;
  browser: string;
}

/** RFC 7636 §4.2: BASE64URL(SHA256(verifier)) is always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

function invalidPage(message: string): Answer {
  return errorPage(400, 'This authorization request cannot be completed', message);
}

/** An error sent back to the client: only where the redirect URI is trusted (see the header). */
function back(
  ctx: OAuthContext,
  request: Pick<AuthorizationRequest, 'redirectUri' | 'state'>,
  error: OAuthErrorCode,
  description: string,
  headers?: Record<string, string>,
  status?: 302 | 303,
): Answer {
  return clientRedirect(request.redirectUri, ctx.config.siteUrl, { error, error_description: description, state: request.state }, headers, status);
}

/**
 * An error for a client whose redirect URI is not trusted yet: shown here, naming the
 * client and the host it would have sent the browser to, so the person sees who asked.
 */
function refusedPage(request: Pick<AuthorizationRequest, 'clientName' | 'redirectUri'>, error: OAuthErrorCode, description: string, status = 400): Answer {
  return errorPage(
    status,
    'This authorization request cannot be completed',
    `The application "${request.clientName}", which would send you on to ${redirectHost(request.redirectUri)}, made a request this site refuses (${error}): ${description} You were not sent on, since the owner has not approved this application.`,
  );
}

/** An error of an authorization request: to the client when its redirect URI is trusted (it holds a grant), else on a page. */
function answerError(
  ctx: OAuthContext,
  request: Pick<AuthorizationRequest, 'clientId' | 'clientName' | 'redirectUri' | 'state'>,
  error: OAuthErrorCode,
  description: string,
  status?: number,
): Answer {
  return ctx.store.hasLiveGrant(request.clientId) ? back(ctx, request, error, description) : refusedPage(request, error, description, status);
}

export async function authorize(ctx: OAuthContext, facts: RequestFacts): Promise<Answer> {
  if (!ctx.signIn) return notSetUpPage();
  const params = strictParams(facts.url.searchParams);
  if (!params) return invalidPage('A parameter is given more than once.');
  const clientId = params.get('client_id');
  if (!clientId) return invalidPage('The request has no client_id.');
  const lookup = await ctx.client(clientId);
  if ('error' in lookup) return invalidPage(lookup.description);
  const client = lookup.client;
  const registered = client.metadata.redirect_uris;
  const redirectUri = params.get('redirect_uri') ?? (registered.length === 1 ? registered[0] : undefined);
  if (redirectUri === undefined) return invalidPage('The request has no redirect_uri, and the client registered more than one.');
  if (!registered.includes(redirectUri)) return invalidPage('The redirect_uri is not one the client registered (they are compared exactly).');

  const state = params.get('state');
  const clientName = clientLabel(client);
  const fail = (error: OAuthErrorCode, description: string, status?: number) =>
    answerError(ctx, { clientId, clientName, redirectUri, state }, error, description, status);
  if (params.get('response_type') !== 'code') return fail('unsupported_response_type', 'response_type must be "code".');
  const challenge = params.get('code_challenge');
  const method = params.get('code_challenge_method');
  if (!challenge) return fail('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256.');
  if (method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256 (plain is not accepted).');
  if (!S256_CHALLENGE.test(challenge)) return fail('invalid_request', 'code_challenge is not a base64url SHA-256 value (43 characters).');
  const scopes = parseScopes(params.get('scope'));
  if (!scopes) return fail('invalid_scope', `scope may name only ${Object.keys(SCOPES).join(', ')}.`);
  const resource = params.get('resource') ?? ctx.config.resource;
  if (resource !== ctx.config.resource) return fail('invalid_target', `resource must be ${ctx.config.resource}.`);
  // IndieAuth §5.2: `me` is the user's URL as the client was given it; only the site's own owner signs in here.
  const me = params.get('me');
  if (me !== undefined && !isSiteProfile(me, ctx.config.siteUrl))
    return fail('invalid_request', `me names another site; this server signs in the owner of ${profileUrl(ctx.config.siteUrl)} only.`);

  const request: AuthorizationRequest = { clientId, clientName, redirectUri, state, scopes, resource, codeChallenge: challenge };
  try {
    return await startSignIn(ctx, { purpose: 'authorize', request });
  } catch (error) {
    console.error(error);
    return fail('temporarily_unavailable', "The owner's identity provider could not be reached; try again later.", 503);
  }
}

export async function callback(ctx: OAuthContext, facts: RequestFacts): Promise<Answer> {
  if (!ctx.signIn) return notSetUpPage();
  const query = facts.url.searchParams;
  const state = query.get('state');
  const transaction = state ? (ctx.store.getTransaction(state, 'sign-in', ctx.now()) as SignInTransaction | undefined) : undefined;
  if (!transaction) return invalidPage('This sign-in expired or was already used. Start again from your application.');
  // Checked before the state is spent, so a stranger holding the URL cannot spoil the owner's sign-in.
  if (!sameBrowser(ctx, facts, transaction.browser)) return invalidPage('This sign-in was started in another browser. Start again from your application.');
  if (ctx.store.takeTransaction(state!, 'sign-in', ctx.now()) === undefined)
    return invalidPage('This sign-in was already used. Start again from your application.');
  let subject: string | undefined;
  try {
    subject = query.has('error') ? undefined : await ctx.signIn.finish(query, transaction.checks);
  } catch (error) {
    console.error(error);
  }
  const owner = subject !== undefined && subject === ctx.signIn.subject;
  // Logged for the operator: how the owner learns the `sub` to set as OWNER_SUBJECT (a subject is an identifier, not a secret).
  if (subject !== undefined && !owner) console.warn(`owner lane: a sign-in by subject ${JSON.stringify(subject)}, which is not OWNER_SUBJECT, was refused`);
  if (transaction.purpose === 'clients')
    return owner ? openSession(ctx) : errorPage(403, 'Not the owner', 'Only the owner of this site can see its connected applications.');
  const { request } = transaction;
  if (subject === undefined)
    return answerError(ctx, request, 'access_denied', 'The owner did not sign in at the identity provider, or the sign-in could not be verified.', 403);
  if (!owner) return answerError(ctx, request, 'access_denied', 'Only the owner of this site can authorize applications.', 403);
  const csrf = secret();
  const consent: ConsentTransaction = { request, subject, browser: transaction.browser };
  ctx.store.putTransaction(csrf, 'consent', consent, ctx.now() + LIMITS.oauthSignInSeconds * 1000);
  return consentPage({
    clientName: request.clientName,
    clientId: request.clientId,
    redirectUri: request.redirectUri,
    redirectHost: redirectHost(request.redirectUri),
    warnings: consentWarnings(request.clientId, request.redirectUri),
    scopes: request.scopes.map((name) => ({ name, words: SCOPES[name] })),
    csrf,
    action: OAUTH_URLS.authorize,
  });
}

/** Where the browser goes after consent, as a person recognises it: a host, or a private-use scheme. */
function redirectHost(uri: string): string {
  const url = new URL(uri);
  return url.host || url.protocol;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * What the owner should look at twice before approving: a redirect to another host than
 * the one publishing the client's metadata document (anyone can publish a document naming
 * any redirect), to this computer only (any local program can listen there), or to an
 * app's private-use scheme (any app can claim one).
 */
export function consentWarnings(clientId: string, redirectUri: string): string[] {
  const redirect = new URL(redirectUri);
  const warnings: string[] = [];
  const web = redirect.protocol === 'https:' || redirect.protocol === 'http:';
  if (clientId.includes('://') && web) {
    const documentHost = new URL(clientId).hostname;
    if (redirect.hostname !== documentHost)
      warnings.push(
        `This application describes itself from ${documentHost}, but sends you on to ${redirect.host}, another host. Approve only if you expect that.`,
      );
  }
  if (web && LOOPBACK_HOSTS.has(redirect.hostname))
    warnings.push(
      `It sends you on to this computer only (${redirect.host}): any program running on this computer could listen there. Approve only if you just started this application here.`,
    );
  if (!web)
    warnings.push(
      `It sends you on to an app on this device (the ${redirect.protocol.slice(0, -1)} scheme), not to a website: any app installed here can claim that scheme.`,
    );
  return warnings;
}

export function consent(ctx: OAuthContext, facts: RequestFacts, body: Uint8Array | null): Answer {
  if (crossSite(ctx, facts)) return errorPage(403, 'Refused', 'The consent form can only be answered from this site.');
  const form = formParams(facts.header('Content-Type'), body, LIMITS.oauthFormBytesMax);
  if (!(form instanceof Map)) return invalidPage('The consent form was not sent as expected.');
  const csrf = form.get('csrf');
  const transaction = csrf ? (ctx.store.getTransaction(csrf, 'consent', ctx.now()) as ConsentTransaction | undefined) : undefined;
  if (!transaction || !sameBrowser(ctx, facts, transaction.browser))
    return invalidPage('This consent page expired or was already answered. Start again from your application.');
  // Spent only now, by its own browser; a second answer (a double click, a replay) finds nothing.
  if (ctx.store.takeTransaction(csrf!, 'consent', ctx.now()) === undefined) return invalidPage('This consent page was already answered.');
  const { request } = transaction;
  const clear = { 'Set-Cookie': forgetBrowser(ctx) };
  const decision = form.get('decision');
  if (decision !== 'approve') return back(ctx, request, 'access_denied', 'The owner denied this authorization.', clear, 303);
  const code = secret();
  ctx.store.putCode(code, {
    clientId: request.clientId,
    clientName: request.clientName,
    subject: transaction.subject,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge,
    scopes: request.scopes,
    resource: request.resource,
    expiresAt: ctx.now() + LIMITS.oauthCodeSeconds * 1000,
  });
  return clientRedirect(request.redirectUri, ctx.config.siteUrl, { code, state: request.state }, clear, 303);
}
