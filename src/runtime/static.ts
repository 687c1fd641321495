/**
 * Static files from the client directory, answered with the headers the build put in
 * the manifest (or 304 when the client's tag still matches). Bodies are read on first
 * request and kept: the files never change under a running process.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest } from '../compile/compile.ts';
import type { Answer, RequestFacts } from '../http/answer.ts';
import { conditionalAnswer } from '../http/conditional.ts';

export class StaticFiles {
  private readonly manifest: Manifest;
  private readonly clientDir: string;
  private readonly bodies = new Map<string, Buffer>();

  constructor(manifestPath: string, clientDir: string) {
    this.manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    this.clientDir = clientDir;
  }

  has(pathname: string): boolean {
    return Object.hasOwn(this.manifest, pathname);
  }

  answer(request: RequestFacts): Answer {
    const pathname = request.url.pathname;
    const entry = this.manifest[pathname]!;
    let body = this.bodies.get(pathname);
    if (!body) {
      body = readFileSync(join(this.clientDir, entry.file));
      this.bodies.set(pathname, body);
    }
    const preconditions = { ifNoneMatch: request.header('If-None-Match'), ifModifiedSince: request.header('If-Modified-Since') };
    return conditionalAnswer(request.method, preconditions, { ...entry.headers, 'Content-Length': String(body.length) }, body);
  }
}
