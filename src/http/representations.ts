/**
 * Which static file answers a URL, shared by the runtime (src/runtime/static.ts) and the
 * edge worker (src/edge/worker.ts), so both choose the same representation for the same
 * request: the path itself, or — for a document kept in several representations — the one
 * `Accept` prefers: a JSON file and an HTML page (`/problems/<slug>`: JSON unless HTML is
 * asked for first), a page and its Markdown twin (`/movies/` and `/movies/index.md`: HTML
 * unless Markdown is preferred), or all three (`/problems/`). The twin answers at the
 * page's own path, or beside a JSON variant. Pure: no Node APIs.
 */
import { negotiate } from './negotiate.ts';

export interface Representation {
  /** The manifest path of the file that answers. */
  path: string;
  /** Whether `Accept` chose it among several (the answer then carries NEGOTIATED_HEADERS). */
  negotiated: boolean;
}

/** The file answering `pathname` for this `Accept`, given which manifest paths exist. */
export function resolveRepresentation(has: (path: string) => boolean, pathname: string, accept: string | null): Representation | undefined {
  const html = pathname.endsWith('/') ? pathname : `${pathname}/`;
  const json = pathname.endsWith('/') ? `${pathname}index.json` : `${pathname}.json`;
  const twin = `${html}index.md`;
  const offered: [string, string][] = [];
  if (has(json)) offered.push(['application/json', json]);
  if (has(html)) offered.push(['text/html', html]);
  if (has(html) && has(twin) && (pathname === html || has(json))) offered.push(['text/markdown', twin]);
  if (offered.length >= 2) {
    const chosen =
      negotiate(
        accept,
        offered.map(([type]) => type),
      ) ?? offered[0]![0];
    return { path: offered.find(([type]) => type === chosen)![1], negotiated: true };
  }
  if (has(pathname)) return { path: pathname, negotiated: false };
  return undefined;
}
