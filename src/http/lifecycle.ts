/**
 * Lifecycle signals for operations being retired: `Deprecation` (RFC 9745, a structured
 * date `@<epoch seconds>`), `Sunset` (RFC 8594, an IMF-fixdate) and a `rel="deprecation"`
 * link to the explanation. One declarative schedule drives them; it is empty today.
 */
export interface LifecycleEntry {
  /** The path of the operation, e.g. `/api/movies.json`. */
  path: string;
  deprecatedAt: Date;
  sunsetAt?: Date;
  /** Where clients read what to do instead. */
  info: string;
}

export const SCHEDULE: readonly LifecycleEntry[] = [];

export function lifecycleHeaders(path: string, schedule: readonly LifecycleEntry[] = SCHEDULE): { headers: Record<string, string>; link?: string } {
  const entry = schedule.find((e) => e.path === path);
  if (!entry) return { headers: {} };
  const headers: Record<string, string> = { Deprecation: `@${Math.floor(entry.deprecatedAt.getTime() / 1000)}` };
  if (entry.sunsetAt) headers.Sunset = entry.sunsetAt.toUTCString();
  return { headers, link: `<${entry.info}>; rel="deprecation"; type="text/html"` };
}
