/**
 * What the home page tells IndieWeb clients (issue 40), as `<link>` elements and as the
 * `Link` header of its static file: where the owner's IndieAuth server describes itself
 * (`indieauth-metadata`: its RFC 8414 document, whose `issuer` is the site), the legacy
 * `authorization_endpoint` and `token_endpoint` rels that older clients (micropub-helper,
 * Micropublish) still read instead, and the Micropub endpoint (`micropub`). Both forms
 * come from this one list, so the header and the markup cannot disagree. Paths are
 * root-relative: RFC 8288 §3.2 and HTML resolve them against the page's URL.
 */
import { MICROPUB_URLS, OAUTH_URLS } from '../urls.ts';

export interface DiscoveryLink {
  rel: string;
  href: string;
}

export const HOME_LINKS: readonly DiscoveryLink[] = [
  { rel: 'indieauth-metadata', href: OAUTH_URLS.authorizationServer },
  { rel: 'authorization_endpoint', href: OAUTH_URLS.authorize },
  { rel: 'token_endpoint', href: OAUTH_URLS.token },
  { rel: 'micropub', href: MICROPUB_URLS.micropub },
];

/** The home page's `Link` header (RFC 8288): one link-value per rel. */
export const HOME_LINK_HEADER = HOME_LINKS.map((link) => `<${link.href}>; rel="${link.rel}"`).join(', ');
