/**
 * The connected-clients page (`/oauth/clients`): the owner, signed in through the same
 * identity provider, sees each live grant — the client, its scopes, when it was granted
 * and last used — and revokes a whole grant with one button (its tokens stop working at
 * once). A visit without a session starts a sign-in; the callback (src/oauth/authorize.ts)
 * opens a session only for `OWNER_SUBJECT`. The session is a cookie (`__Host-` on https,
 * HttpOnly, SameSite=Lax, 15 minutes) whose SHA-256 keys a server record holding the
 * form's CSRF token; the revoke form must carry that token, from this site.
 */
import { timingSafeEqual } from 'node:crypto';
import { LIMITS } from '../core/limits.ts';
import type { Answer, RequestFacts } from '../http/answer.ts';
import { OAUTH_URLS } from '../urls.ts';
import { crossSite, secret, startSignIn } from './browser.ts';
import type { OAuthContext } from './context.ts';
import { cookie, cookieName, formParams, NO_STORE, setCookie } from './http.ts';
import { errorPage, escape, htmlPage, notSetUpPage } from './pages.ts';
import { isScope, SCOPES } from './scopes.ts';
import type { GrantRecord } from './store.ts';

const SESSION_COOKIE = 'oauth-session';

interface Session {
  csrf: string;
}

/** After the owner signed in: a new session, and back to the page. */
export function openSession(ctx: OAuthContext): Answer {
  const id = secret();
  const session: Session = { csrf: secret() };
  ctx.store.putTransaction(id, 'session', session, ctx.now() + LIMITS.oauthSessionSeconds * 1000);
  return {
    status: 303,
    headers: { Location: OAUTH_URLS.clients, ...NO_STORE, 'Set-Cookie': setCookie(ctx.config.siteUrl, SESSION_COOKIE, id, LIMITS.oauthSessionSeconds) },
    body: null,
  };
}

function sessionOf(ctx: OAuthContext, facts: RequestFacts): Session | undefined {
  const id = cookie(facts.header('Cookie'), cookieName(ctx.config.siteUrl, SESSION_COOKIE));
  return id === undefined ? undefined : (ctx.store.getTransaction(id, 'session', ctx.now()) as Session | undefined);
}

const when = (ms: number | null) => (ms === null ? 'never' : new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z'));

function grantRow(grant: GrantRecord, csrf: string): string {
  const scopes = grant.scopes.map((s) => `<li>${escape(isScope(s) ? SCOPES[s] : s)} <code>${escape(s)}</code></li>`).join('');
  return `<li>
<h2>${escape(grant.clientName ?? grant.clientId)}</h2>
<p>Client <code>${escape(grant.clientId)}</code>; granted ${when(grant.createdAt)}; last used ${when(grant.lastUsedAt)}.</p>
<ul>${scopes}</ul>
<form method="post" action="${OAUTH_URLS.clients}">
<input type="hidden" name="csrf" value="${escape(csrf)}">
<input type="hidden" name="grant" value="${escape(grant.id)}">
<button type="submit">Revoke</button>
</form>
</li>`;
}

function listPage(ctx: OAuthContext, session: Session): Answer {
  const grants = ctx.store.listGrants();
  const body = grants.length === 0 ? '<p>No application is connected.</p>' : `<ul>\n${grants.map((g) => grantRow(g, session.csrf)).join('\n')}\n</ul>`;
  return htmlPage(200, 'Connected applications', body);
}

export async function clientsPage(ctx: OAuthContext, facts: RequestFacts): Promise<Answer> {
  if (!ctx.signIn) return notSetUpPage();
  const session = sessionOf(ctx, facts);
  if (session) return listPage(ctx, session);
  try {
    return await startSignIn(ctx, { purpose: 'clients' });
  } catch (error) {
    console.error(error);
    return errorPage(503, 'Sign-in unavailable', 'The identity provider could not be reached; try again later.', { 'Retry-After': '60' });
  }
}

const sameSecret = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export function revokeFromPage(ctx: OAuthContext, facts: RequestFacts, body: Uint8Array | null): Answer {
  if (!ctx.signIn) return notSetUpPage();
  if (crossSite(ctx, facts)) return errorPage(403, 'Refused', 'This form can only be sent from this site.');
  const session = sessionOf(ctx, facts);
  if (!session) return errorPage(403, 'Sign in again', 'Your session ended; open the connected applications page again.');
  const form = formParams(facts.header('Content-Type'), body, LIMITS.oauthFormBytesMax);
  if (!(form instanceof Map) || !sameSecret(form.get('csrf') ?? '', session.csrf))
    return errorPage(403, 'Refused', 'The form was not sent from the connected applications page.');
  const grant = form.get('grant');
  if (grant) ctx.store.revokeGrant(grant, ctx.now());
  return { status: 303, headers: { Location: OAUTH_URLS.clients, ...NO_STORE }, body: null };
}
