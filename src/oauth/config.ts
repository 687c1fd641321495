/**
 * The owner lane's configuration, from the process's configuration (src/config.ts, which
 * checks each variable on its own) with the rules that tie the variables together: a
 * mistake (a half-configured identity provider, a state folder inside `dist/`) stops the
 * server at start-up with a message naming the variable, rather than surfacing as a
 * failed sign-in later. Everything downstream receives the resolved `OAuthConfig`, so
 * tests build one without touching the environment.
 *
 * The identity provider is all or nothing: `OWNER_OIDC_ISSUER`, `OWNER_OIDC_CLIENT_ID`
 * and `OWNER_SUBJECT` together (the secret is optional: a public client uses PKCE
 * alone). With none of them the metadata is still published and `/oauth/authorize` says
 * the lane is not set up, so no grant can ever be issued.
 */
import { isAbsolute, relative } from 'node:path';
import type { Config } from '../config.ts';
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

export interface OAuthConfigInput {
  siteUrl: string;
  idp?: OwnerIdentityProvider;
  stateDir: string;
  cimdAllowLoopback?: boolean;
}

export function oauthConfig(input: OAuthConfigInput): OAuthConfig {
  const siteUrl = input.siteUrl.replace(/\/+$/, '');
  return {
    siteUrl,
    resource: `${siteUrl}${OAUTH_URLS.ownerMcp}`,
    idp: input.idp,
    stateDir: input.stateDir,
    cimdAllowLoopback: input.cimdAllowLoopback ?? false,
  };
}

/** Whether `child` is `parent` or lies inside it. */
const inside = (child: string, parent: string) => {
  const path = relative(parent, child);
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
};

/** The variables the owner lane reads. */
export type OAuthSettings = Pick<
  Config,
  | 'SITE_URL'
  | 'OWNER_OIDC_ISSUER'
  | 'OWNER_OIDC_CLIENT_ID'
  | 'OWNER_OIDC_CLIENT_SECRET'
  | 'OWNER_SUBJECT'
  | 'STATE_DIR'
  | 'OAUTH_CIMD_ALLOW_LOOPBACK'
  | 'DIST_DIR'
>;

/** The lane's configuration from the process's; throws an Error naming the variable at fault. */
export function oauthConfigFrom(vars: OAuthSettings): OAuthConfig {
  const stateDir = vars.STATE_DIR;
  if (inside(stateDir, vars.DIST_DIR)) throw new Error('Owner lane configuration: STATE_DIR must not be inside the build output (dist/), which is published.');
  const idpVars = [vars.OWNER_OIDC_ISSUER, vars.OWNER_OIDC_CLIENT_ID, vars.OWNER_SUBJECT];
  const set = idpVars.filter((v) => v !== undefined).length;
  if (set !== 0 && set !== 3)
    throw new Error('Owner lane configuration: set OWNER_OIDC_ISSUER, OWNER_OIDC_CLIENT_ID and OWNER_SUBJECT together (or none of them).');
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
    set === 3
      ? {
          issuer: new URL(vars.OWNER_OIDC_ISSUER!),
          clientId: vars.OWNER_OIDC_CLIENT_ID!,
          clientSecret: vars.OWNER_OIDC_CLIENT_SECRET,
          subject: vars.OWNER_SUBJECT!,
        }
      : undefined;
  return oauthConfig({ siteUrl, idp, stateDir, cimdAllowLoopback: vars.OAUTH_CIMD_ALLOW_LOOPBACK });
}
