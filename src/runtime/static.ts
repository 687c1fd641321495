/**
 * Static files from the client directory, answered with the headers the build put in
 * the manifest (or 304 when the client's tag still matches). Bodies are read on first
 * request and kept: the files never change under a running process.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest } from '../compile/compile.ts';
import { ifNoneMatchMatches, notModified } from '../http/conditional.ts';

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

  serve(request: Request, pathname: string): Response {
    const entry = this.manifest[pathname]!;
    if (ifNoneMatchMatches(request.headers.get('If-None-Match'), entry.headers.ETag ?? '')) return notModified(entry.headers);
    let body = this.bodies.get(pathname);
    if (!body) {
      body = readFileSync(join(this.clientDir, entry.file));
      this.bodies.set(pathname, body);
    }
    const headers = { ...entry.headers, 'Content-Length': String(body.length) };
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
  }
}
