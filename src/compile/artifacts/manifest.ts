/**
 * The header manifest: for every file a CDN or the runtime serves from the client
 * directory, the exact headers to send. Collection page-one files come with the headers
 * the compiler built for them; every other file (pages, assets) gets its media type, a
 * strong ETag of its bytes and a cache policy. Written with sorted keys, so the same
 * files give the same manifest.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { strongEtag } from '../../http/etag.ts';
import { PAGE_PREFERENCES } from '../../http/headers.ts';
import { securityHeaders } from '../../http/security.ts';
import type { Manifest, StaticFile } from '../compile.ts';
import { EDGE_FILES, writeEdgeFiles } from '../edge/deploy.ts';
import { MEDIA_VARIANTS } from '../../urls.ts';
import { HOME_LINK_HEADER } from '../../site/indieweb.ts';

const MEDIA_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.json': 'application/json',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

export const mediaTypeOf = (file: string) => MEDIA_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';

/** Astro's fingerprinted assets and the image variants (named after their original's hash) never change under the same name. */
const cacheControlOf = (path: string) =>
  path.startsWith('/_astro/') || path.startsWith(MEDIA_VARIANTS) ? 'public, max-age=31536000, immutable' : 'public, max-age=60, stale-while-revalidate=300';

/** `/index.html` is served at `/`, and `/x/index.html` at `/x/`. */
export const urlPathOf = (file: string) => `/${file}`.replace(/(^|\/)index\.html$/, '$1');

/** The entry of a file the compiler did not write (a page, an asset): its media type, a strong ETag of its bytes, a cache policy. */
export function fileEntry(path: string, file: string, body: Uint8Array): StaticFile {
  const type = mediaTypeOf(file);
  const headers = { 'Content-Type': type, ETag: strongEtag(body), 'Cache-Control': cacheControlOf(path), ...(isPage(type) ? PAGE_PREFERENCES : {}) };
  // The home page names the owner's IndieAuth server and Micropub endpoint in its header too (src/site/indieweb.ts).
  return { file, headers: path === '/' && type.startsWith('text/html') ? { ...headers, Link: HOME_LINK_HEADER } : headers };
}

const isPage = (type: string) => type.startsWith('text/html') || type.startsWith('text/markdown');

/** An entry with the security headers of its path and media type (src/http/security.ts), as both the runtime and a CDN send them. */
export function withSecurity(path: string, entry: StaticFile, siteUrl: string | undefined): StaticFile {
  return { ...entry, headers: { ...entry.headers, ...securityHeaders(path, entry.headers['Content-Type'], siteUrl) } };
}

/** Writes the manifest (sorted by path, so the same files give the same bytes) and the static hosts' files (src/compile/edge/deploy.ts); returns the sorted manifest. */
export function saveManifest(manifest: Manifest, manifestPath: string, clientDir: string): Manifest {
  const sorted = Object.fromEntries(Object.entries(manifest).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  writeFileSync(manifestPath, `${JSON.stringify(sorted, null, 1)}\n`);
  writeEdgeFiles(clientDir, sorted);
  return sorted;
}

/**
 * Writes the manifest and the static hosts' files. Every entry, compiled or found on
 * disk, carries the security headers of its path and media type (src/http/security.ts),
 * so a CDN and the runtime send the same ones.
 */
export function writeManifest(clientDir: string, compiled: Manifest, manifestPath: string, siteUrl: string | undefined): Manifest {
  const manifest: Manifest = { ...compiled };
  const known = new Set(Object.values(compiled).map((f) => f.file));
  const files = (readdirSync(clientDir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((d) => d.isFile())
    .map((d) => relative(clientDir, join(d.parentPath, d.name)).split(sep).join('/'))
    .filter((file) => !known.has(file) && !EDGE_FILE_NAMES.has(file));
  for (const file of files) {
    const path = urlPathOf(file);
    manifest[path] = fileEntry(path, file, readFileSync(join(clientDir, file)));
  }
  for (const [path, entry] of Object.entries(manifest)) manifest[path] = withSecurity(path, entry, siteUrl);
  return saveManifest(manifest, manifestPath, clientDir);
}

/** The host's own files (`_headers`, `_worker.js`, `_routes.json`): read by the host, never served. */
const EDGE_FILE_NAMES: ReadonlySet<string> = new Set(Object.values(EDGE_FILES));
