/**
 * Static files from the client directory, answered with the headers the build put in
 * the manifest (or 304 when the client's copy is current), choosing between an HTML and a
 * JSON variant where a document has both. Bodies are read on first
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
   * The manifest path that answers a request: the path itself, or — for a document kept as
   * an HTML page and a JSON file, such as `/problems/<slug>` — the variant `Accept`
   * prefers (JSON unless HTML is asked for first).
   */
  resolve(pathname: string, accept: string | null): { path: string; negotiated: boolean } | undefined {
    const html = pathname.endsWith('/') ? pathname : `${pathname}/`;
    const json = pathname.endsWith('/') ? `${pathname}index.json` : `${pathname}.json`;
    const variants = [json, html].filter((p) => Object.hasOwn(this.manifest, p));
    if (variants.length === 2) {
      const chosen = negotiate(accept, ['application/json', 'text/html']) ?? 'application/json';
      return { path: chosen === 'text/html' ? html : json, negotiated: true };
    }
    if (Object.hasOwn(this.manifest, pathname)) return { path: pathname, negotiated: false };
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
