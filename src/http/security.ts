import { URLS } from '../urls.ts';
/**
 * Security response headers, one rule for every answer: the runtime adds them to what it
 * computes, and the build writes the same ones into the header manifest and the CDN's
 * `_headers` file, so a CDN serving `dist/client` alone sends what the runtime sends.
 * Every answer gets `nosniff` (an API body must never be sniffed into HTML); HTML
 * documents also get a Content-Security-Policy that allows only the site itself, no
 * framing (`frame-ancestors 'none'`: no page is meant to be embedded), a referrer policy
 * and a Permissions-Policy denying features the site never uses. HSTS is sent only when
 * the site's public URL is https (on http it would be ignored, and on localhost harmful).
 */

/** The policy of every HTML page: scripts, styles, images, fonts and workers from this origin only. */
const PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The page policy with more `form-action` sources: for a page whose form is answered by a
 * redirect elsewhere (the OAuth consent form, answered by a redirect to the client),
 * since browsers apply `form-action` to every redirect that follows the submission.
 */
export const pagePolicy = (formAction: readonly string[] = []) => PAGE_POLICY.replace("form-action 'self'", ["form-action 'self'", ...formAction].join(' '));

/**
 * The GraphQL explorer's policy: Monaco and GraphiQL set style attributes and insert
 * `<style>` elements at run time, which a hash cannot cover, and GraphiQL's stylesheet
 * embeds its fonts as `data:` URLs; nothing is loaded from another origin. No other page
 * needs either.
 */
const EXPLORER_POLICY = PAGE_POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'").replace("font-src 'self'", "font-src 'self' data:");

/** The paths of the explorer, the one page whose policy differs from PAGE_POLICY. */
const EXPLORER_PATHS: ReadonlySet<string> = new Set([`${URLS.graphql}/`, URLS.graphql]);

/** Features no page of the site uses (W3C Permissions Policy). */
const PERMISSIONS_POLICY = 'accelerometer=(), browsing-topics=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()';

/** Two years, the HSTS preload list's minimum; no includeSubDomains: other hosts under the owner's domain are not ours to constrain. */
const HSTS = 'max-age=63072000';

const isHtml = (contentType: string | undefined) => contentType !== undefined && /^\s*text\/html\b/i.test(contentType);

/** The security headers of one kind of answer: over https or not, HTML with its policy or not. */
function headerSet(https: boolean, policy: string | undefined): Readonly<Record<string, string>> {
  const headers: Record<string, string> = { 'X-Content-Type-Options': 'nosniff' };
  if (https) headers['Strict-Transport-Security'] = HSTS;
  if (policy !== undefined) {
    headers['Content-Security-Policy'] = policy;
    headers['Referrer-Policy'] = 'strict-origin-when-cross-origin';
    headers['Permissions-Policy'] = PERMISSIONS_POLICY;
  }
  return Object.freeze(headers);
}

/** Every set there is, made once: they are asked for on every answer. */
const SETS = [false, true].map((https) => ({
  plain: headerSet(https, undefined),
  page: headerSet(https, PAGE_POLICY),
  explorer: headerSet(https, EXPLORER_POLICY),
}));

/** The security headers of an answer at `path` with this Content-Type, for a site published at `siteUrl`. */
export function securityHeaders(path: string, contentType: string | undefined, siteUrl: string | undefined): Readonly<Record<string, string>> {
  const sets = SETS[siteUrl?.startsWith('https:') ? 1 : 0]!;
  if (!isHtml(contentType)) return sets.plain;
  return EXPLORER_PATHS.has(path) ? sets.explorer : sets.page;
}

/**
 * `headers` with the security headers of an answer at `path` added where they are
 * missing. A header the answer already carries is kept: a page that states its own
 * policy (the OAuth consent page, `pagePolicy`), and every answer built with its
 * security headers once, when it was stored (REST lists, static files), which then
 * leaves here as it is, without a copy.
 */
export function secured(headers: Record<string, string>, path: string, siteUrl: string | undefined): Record<string, string> {
  const contentType = headers['Content-Type'] ?? headers['content-type'];
  const needed = securityHeaders(path, contentType, siteUrl);
  let missing = false;
  for (const name in needed) if (headers[name] === undefined) missing = true;
  if (!missing) return headers;
  return { ...needed, ...headers };
}
