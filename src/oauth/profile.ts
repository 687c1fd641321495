/**
 * The owner's IndieAuth identity: the site itself. IndieAuth (Living Standard
 * 2024-07-11, §3.4 URL canonicalization) names a user by a profile URL with a path (at
 * least `/`), a lowercase host and no fragment; this server signs in one user, the owner
 * of `SITE_URL`, so the profile URL is the site's own, and a `me` naming any other is not
 * one this server can vouch for.
 */

/** The site's canonical profile URL: `SITE_URL` with a path, `https://example.com/`. */
export const profileUrl = (siteUrl: string): string => new URL(`${siteUrl.replace(/\/+$/, '')}/`).href;

/**
 * Whether `me`, as a client sends it, names this site: compared as canonical URLs (the
 * URL parser lowercases the host and adds the root path), a trailing slash aside, so
 * `https://Example.com` and `https://example.com/` are one profile.
 */
export function isSiteProfile(me: string, siteUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(me);
  } catch {
    return false;
  }
  if (url.hash !== '' || url.username !== '' || url.password !== '' || url.search !== '') return false;
  const trim = (href: string) => href.replace(/\/+$/, '');
  return trim(url.href) === trim(profileUrl(siteUrl));
}
