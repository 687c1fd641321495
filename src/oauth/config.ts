/**
 * The owner lane's configuration, read from the environment once, at the edge, and
 * checked by a schema: a mistake (a half-configured identity provider, a state folder
 * inside `dist/`) stops the server at start-up with a message naming the variable,
 * rather than surfacing as a failed sign-in later. Everything downstream receives the
 * resolved `OAuthConfig`, so tests build one without touching the environment.
 *
 * The identity provider is all or nothing: `OWNER_OIDC_ISSUER`, `OWNER_OIDC_CLIENT_ID`
 * and `OWNER_SUBJECT` together (the secret is optional: a public client uses PKCE
 * alone). With none of them the metadata is still published and `/oauth/authorize` says
 * the lane is not set up, so no grant can ever be issued.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import { z } from 'zod';
import { OAUTH_URLS } from '../urls.ts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Where the site is served when `SITE_URL` is not set: the build's own default (src/compile/compile.ts). */
const DEFAULT_SITE_URL = 'http://localhost:4321';

export interface OwnerIdentityProvider {
  /** The owner's OpenID Connect provider, found by discovery. */
  issuer: URL;
  clientId: string;
  /** Absent: a public client (PKCE alone). */
  clientSecret: string | undefined;
  /** The `sub` of the one account that is the owner. */
  subject: string;
}

export interface OAuthConfig {
  /** The public base URL, without a trailing slash: the issuer of this authorization server. */
  siteUrl: string;
  /** The resource identifier of the owner MCP endpoint (RFC 8707, RFC 9728): its full URL. */
  resource: string;
  /** Absent: the owner lane is not set up. */
  idp: OwnerIdentityProvider | undefined;
  /** Where grants live (never inside `dist/`, never published). */
  stateDir: string;
  /** Whether Client ID Metadata Documents may be fetched from loopback and private addresses (tests only). */
  cimdAllowLoopback: boolean;
}

/** An unset variable and an empty one mean the same: not configured. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
const httpUrl = z.url({ protocol: /^https?$/ });

const ENV = z.object({
  SITE_URL: optional(httpUrl),
  OWNER_OIDC_ISSUER: optional(httpUrl),
  OWNER_OIDC_CLIENT_ID: optional(z.string().max(500)),
  OWNER_OIDC_CLIENT_SECRET: optional(z.string().max(2000)),
  OWNER_SUBJECT: optional(z.string().max(500)),
  STATE_DIR: optional(z.string()),
  OAUTH_CIMD_ALLOW_LOOPBACK: optional(z.enum(['0', '1'])),
});

export interface OAuthConfigInput {
  siteUrl: string;
  idp?: OwnerIdentityProvider;
  stateDir: string;
  cimdAllowLoopback?: boolean;
}

export function oauthConfig(input: OAuthConfigInput): OAuthConfig {
  const siteUrl = input.siteUrl.replace(/\/+$/, '');
  return { siteUrl, resource: `${siteUrl}${OAUTH_URLS.ownerMcp}`, idp: input.idp, stateDir: input.stateDir, cimdAllowLoopback: input.cimdAllowLoopback ?? false };
}

/** Whether `child` is `parent` or lies inside it. */
const inside = (child: string, parent: string) => {
  const path = relative(parent, child);
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
};

/** The configuration from the environment; throws an Error naming the variable at fault. */
export function oauthConfigFromEnv(env: NodeJS.ProcessEnv, distDir: string): OAuthConfig {
  const parsed = ENV.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Owner lane configuration: ${String(issue.path[0])} ${issue.message}`);
  }
  const vars = parsed.data;
  const stateDir = resolve(vars.STATE_DIR ?? 'state');
  if (inside(stateDir, resolve(distDir))) throw new Error('Owner lane configuration: STATE_DIR must not be inside the build output (dist/), which is published.');
  const idpVars = [vars.OWNER_OIDC_ISSUER, vars.OWNER_OIDC_CLIENT_ID, vars.OWNER_SUBJECT];
  const set = idpVars.filter((v) => v !== undefined).length;
  if (set !== 0 && set !== 3) throw new Error('Owner lane configuration: set OWNER_OIDC_ISSUER, OWNER_OIDC_CLIENT_ID and OWNER_SUBJECT together (or none of them).');
  // The ID token and the client secret travel over this connection: plain http only to this machine (development).
  if (vars.OWNER_OIDC_ISSUER !== undefined && new URL(vars.OWNER_OIDC_ISSUER).protocol === 'http:' && !LOOPBACK.has(new URL(vars.OWNER_OIDC_ISSUER).hostname)) {
    throw new Error('Owner lane configuration: OWNER_OIDC_ISSUER must be https (plain http only on localhost, 127.0.0.1 or [::1]).');
  }
  // With a lane set up, tokens, codes and the owner's session cookie travel to SITE_URL: plain http only to this machine.
  const siteUrl = vars.SITE_URL ?? DEFAULT_SITE_URL;
  if (set === 3 && new URL(siteUrl).protocol === 'http:' && !LOOPBACK.has(new URL(siteUrl).hostname)) {
    throw new Error('Owner lane configuration: SITE_URL must be https when the owner lane is set up (plain http only on localhost, 127.0.0.1 or [::1]).');
  }
  const idp =
    set === 3 ? { issuer: new URL(vars.OWNER_OIDC_ISSUER!), clientId: vars.OWNER_OIDC_CLIENT_ID!, clientSecret: vars.OWNER_OIDC_CLIENT_SECRET, subject: vars.OWNER_SUBJECT! } : undefined;
  return oauthConfig({ siteUrl, idp, stateDir, cimdAllowLoopback: vars.OAUTH_CIMD_ALLOW_LOOPBACK === '1' });
}
