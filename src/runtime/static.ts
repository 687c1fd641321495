/**
 * Static files from the client directory, answered with the headers the build put in
 * the manifest (or 304 when the client's copy is current), choosing between an HTML and a
 * JSON variant where a document has both, and between a page and its Markdown twin
 * (`<page>/index.md`). Each variant keeps its own strong ETag, and the answer says
 * `Vary: Accept`. Bodies are read on first
 * request and kept: a generation's files never change (a rebuild writes new ones).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest } from '../compile/compile.ts';
import type { Answer, RequestFacts } from '../http/answer.ts';
import { conditionalAnswer } from '../http/conditional.ts';
import { negotiate } from '../http/negotiate.ts';

export class StaticFiles {
  private readonly manifest: Manifest;
  private readonly root: string;
  private readonly bodies = new Map<string, Buffer>();

  /** `root`: the folder the manifest's files are named from. */
  constructor(manifest: Manifest, root: string) {
    this.manifest = manifest;
    this.root = root;
  }

  /**
   * The manifest path that answers a request: the path itself, or — for a document kept in
   * several representations — the one `Accept` prefers: a JSON file and an HTML page
   * (`/problems/<slug>`: JSON unless HTML is asked for first), a page and its Markdown twin
   * (`/movies/` and `/movies/index.md`: HTML unless Markdown is preferred), or all three
   * (`/problems/`). The twin answers at the page's own path, or beside a JSON variant.
   */
  resolve(pathname: string, accept: string | null): { path: string; negotiated: boolean } | undefined {
    const has = (path: string) => Object.hasOwn(this.manifest, path);
    const html = pathname.endsWith('/') ? pathname : `${pathname}/`;
    const json = pathname.endsWith('/') ? `${pathname}index.json` : `${pathname}.json`;
    const twin = `${html}index.md`;
    const offered: [string, string][] = [];
    if (has(json)) offered.push(['application/json', json]);
    if (has(html)) offered.push(['text/html', html]);
    if (has(html) && has(twin) && (pathname === html || has(json))) offered.push(['text/markdown', twin]);
    if (offered.length >= 2) {
      const chosen = negotiate(accept, offered.map(([type]) => type)) ?? offered[0]![0];
      return { path: offered.find(([type]) => type === chosen)![1], negotiated: true };
    }
    if (has(pathname)) return { path: pathname, negotiated: false };
    return undefined;
  }

  answer(request: RequestFacts, resolved: { path: string; negotiated: boolean }): Answer {
    const pathname = resolved.path;
    const entry = this.manifest[pathname]!;
    let body = this.bodies.get(pathname);
    if (!body) {
      body = readFileSync(join(this.root, entry.file));
      this.bodies.set(pathname, body);
    }
    const preconditions = { ifNoneMatch: request.header('If-None-Match'), ifModifiedSince: request.header('If-Modified-Since') };
    const headers = { ...entry.headers, 'Content-Length': String(body.length), ...(resolved.negotiated ? { Vary: 'Accept' } : {}) };
    return conditionalAnswer(request.method, preconditions, headers, body);
  }
}
