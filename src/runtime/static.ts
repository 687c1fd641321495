/**
 * Static files from the client directory, answered with the headers the build put in
 * the manifest (or 304 when the client's copy is current), choosing between an HTML and a
 * JSON variant where a document has both, and between a page and its Markdown twin
 * (`<page>/index.md`). Each variant keeps its own strong ETag, and a negotiated answer
 * carries NEGOTIATED_HEADERS (src/http/negotiate.ts). Bodies are read on first
 * request and kept: a generation's files never change (a rebuild writes new ones).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest } from '../compile/compile.ts';
import type { Answer, RequestFacts } from '../http/answer.ts';
import { conditionalAnswer } from '../http/conditional.ts';
import { NEGOTIATED_HEADERS } from '../http/negotiate.ts';
import { resolveRepresentation, type Representation } from '../http/representations.ts';

/** A file as it is answered: its body, and its headers plain and negotiated, each made on first request. */
interface Served {
  body: Buffer;
  plain?: Record<string, string>;
  negotiated?: Record<string, string>;
}

export class StaticFiles {
  private readonly manifest: Manifest;
  private readonly root: string;
  private readonly served = new Map<string, Served>();

  /** `root`: the folder the manifest's files are named from. */
  constructor(manifest: Manifest, root: string) {
    this.manifest = manifest;
    this.root = root;
  }

  /** The manifest path that answers a request (src/http/representations.ts). */
  resolve(pathname: string, accept: string | null): Representation | undefined {
    return resolveRepresentation((path) => Object.hasOwn(this.manifest, path), pathname, accept);
  }

  answer(request: RequestFacts, resolved: Representation): Answer {
    const pathname = resolved.path;
    const entry = this.manifest[pathname]!;
    let served = this.served.get(pathname);
    if (!served) {
      served = { body: readFileSync(join(this.root, entry.file)) };
      this.served.set(pathname, served);
    }
    const { body } = served;
    // The same headers object for every answer of a file: the node:http writer serializes its fields once.
    const headers = resolved.negotiated
      ? (served.negotiated ??= { ...entry.headers, 'Content-Length': String(body.length), ...NEGOTIATED_HEADERS })
      : (served.plain ??= { ...entry.headers, 'Content-Length': String(body.length) });
    const preconditions = { ifNoneMatch: request.header('If-None-Match'), ifModifiedSince: request.header('If-Modified-Since') };
    return conditionalAnswer(request.method, preconditions, headers, body, headers);
  }
}
