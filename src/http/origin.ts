/**
 * DNS-rebinding and cross-site protection for the MCP endpoints. The Streamable HTTP
 * transport (MCP 2025-11-25, "Security Warning"): "Servers MUST validate the `Origin`
 * header on all incoming connections to prevent DNS rebinding attacks … If the `Origin`
 * header is present and invalid, servers MUST respond with HTTP 403 Forbidden." A page of
 * another site that resolves its own name to this server's address sends its own `Host`
 * and `Origin`, so a request naming another host, or sent from another site's page, is
 * refused before anything is read. Loopback hosts are accepted: local tools (the MCP
 * Inspector, a desktop client) reach a server on the same machine through them.
 */

/** Loopback hosts, with an optional port. */
const LOOPBACK = /^(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;

/** Whether `Host` names the site (its public URL's host) or a loopback address. */
export function allowedHost(host: string | null, site: URL): boolean {
  const value = host ?? '';
  return value.toLowerCase() === site.host.toLowerCase() || LOOPBACK.test(value);
}

/** Whether an `Origin` is a loopback origin (a local tool's page). */
export function loopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK.test(url.host) && url.origin === origin;
  } catch {
    return false;
  }
}
