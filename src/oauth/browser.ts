/**
 * What ties a sign-in to the browser that started it. Starting a sign-in at the owner's
 * identity provider sets a random cookie and records only its SHA-256 with the
 * transaction; the callback, the consent form and the connected-clients form are
 * honoured only from a browser presenting it. So a callback URL or a consent token that
 * leaks (history, logs, a shoulder) is worthless in another browser, and a page of
 * another site cannot complete a flow in the owner's (login CSRF, RFC 6749 §10.12).
 * Forms also refuse a cross-site `Origin` or `Sec-Fetch-Site` before reading anything.
 */
import { randomBytes } from 'node:crypto';
import { LIMITS } from '../core/limits.ts';
import type { Answer, RequestFacts } from '../http/answer.ts';
import type { OAuthContext } from './context.ts';
import { cookie, cookieName, setCookie } from './http.ts';
import type { SignInChecks } from './sign-in.ts';
import { sha256 } from './store.ts';

const COOKIE = 'oauth-browser';

/** 256 random bits, base64url: codes, tokens, CSRF tokens, cookie values. */
export const secret = () => randomBytes(32).toString('base64url');

/** What a sign-in transaction always holds, beside what its purpose needs. */
export interface SignInBinding {
  checks: SignInChecks;
  /** SHA-256 of the browser's cookie value. */
  browser: string;
}

/**
 * Sends the browser to the owner's identity provider, remembering `purpose` (and the
 * checks and browser binding) under the sign-in's state for the callback. Throws when the
 * provider cannot be reached (discovery failed).
 */
export async function startSignIn<T extends object>(ctx: OAuthContext, purpose: T): Promise<Answer> {
  const started = await ctx.signIn!.start();
  const browser = secret();
  const transaction: T & SignInBinding = { ...purpose, checks: started.checks, browser: sha256(browser) };
  ctx.store.putTransaction(started.checks.state, 'sign-in', transaction, ctx.now() + LIMITS.oauthSignInSeconds * 1000);
  return {
    status: 302,
    headers: { Location: started.url, 'Cache-Control': 'no-store', 'Set-Cookie': setCookie(ctx.config.siteUrl, COOKIE, browser, LIMITS.oauthSignInSeconds) },
    body: null,
  };
}

/** The browser's binding cookie matches the one its transaction recorded. */
export function sameBrowser(ctx: OAuthContext, facts: RequestFacts, recorded: string): boolean {
  const value = cookie(facts.header('Cookie'), cookieName(ctx.config.siteUrl, COOKIE));
  return value !== undefined && sha256(value) === recorded;
}

/** The `Set-Cookie` that forgets the binding once its flow is over. */
export const forgetBrowser = (ctx: OAuthContext) => setCookie(ctx.config.siteUrl, COOKIE, '', 0);

/**
 * A form post from another site (the CSRF token already stops it; this says so early):
 * browsers send `Origin` on POSTs, and `Sec-Fetch-Site` where they know it.
 */
export function crossSite(ctx: OAuthContext, facts: RequestFacts): boolean {
  const origin = facts.header('Origin');
  if (origin !== null && origin !== new URL(ctx.config.siteUrl).origin) return true;
  const site = facts.header('Sec-Fetch-Site');
  return site !== null && site !== 'same-origin' && site !== 'none';
}
