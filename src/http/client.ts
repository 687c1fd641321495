/**
 * Who is asking, for quotas: the socket's peer address, unless that peer is a configured
 * trusted proxy, in which case the right-most X-Forwarded-For address that is not itself
 * a trusted proxy (the left-most entries are whatever the client chose to write).
 */
export function clientAddress(peer: string, forwardedFor: string | null, trustedProxies: ReadonlySet<string>): string {
  if (!trustedProxies.has(peer) || !forwardedFor) return peer;
  const hops = forwardedFor
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) if (!trustedProxies.has(hops[i]!)) return hops[i]!;
  return peer;
}
