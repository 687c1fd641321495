/**
 * A local HTTP server replaying hand-written, documentation-shaped answers for the sync
 * tests (no network): routes by method and path (the query is matched by the handler),
 * every request recorded with its headers, and handlers free to answer anything — a
 * feed, a `304`, a `429` with `Retry-After`, HTML with `200`, a body that stalls, a
 * redirect to another host.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';

export const FIXTURES = join(import.meta.dirname, 'fixtures');
export const fixture = (path: string) => readFileSync(join(FIXTURES, path), 'utf8');

/** The documentation-shaped Letterboxd feed with two films the demo content does not have: Lock Step (2023, rated 5) and Queue Jump (2022, rated 4.5). */
export const newFilmsFeed = () =>
  fixture('letterboxd/rss.xml')
    .replaceAll('Past Lives', 'Lock Step')
    .replaceAll('past-lives', 'lock-step')
    .replaceAll('Aftersun', 'Queue Jump')
    .replaceAll('aftersun', 'queue-jump');

export interface Seen {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (request: Seen, res: ServerResponse) => void;

export interface Replay {
  base: string;
  seen: Seen[];
  route(method: string, path: string, handler: Handler): void;
  close(): Promise<void>;
}

/** Answers `body` with `status` and `headers`, honouring `If-None-Match` against `etag` when given. */
export function answer(body: string, headers: Record<string, string> = {}, status = 200): Handler {
  return (request, res) => {
    const etag = headers.ETag;
    if (etag && request.headers['if-none-match'] === etag) {
      res.writeHead(304, { ETag: etag });
      return void res.end();
    }
    res.writeHead(status, headers);
    res.end(body);
  };
}

export const json = (value: unknown, headers: Record<string, string> = {}, status = 200) =>
  answer(typeof value === 'string' ? value : JSON.stringify(value), { 'Content-Type': 'application/json; charset=utf-8', ...headers }, status);

export async function replay(): Promise<Replay> {
  const routes = new Map<string, Handler>();
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
      const request = { method: req.method ?? 'GET', url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(request);
      const handler = routes.get(`${request.method} ${url.pathname}`);
      if (!handler) {
        res.writeHead(404, { 'Content-Type': 'text/plain' });
        return void res.end('not found');
      }
      handler(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    seen,
    route: (method, path, handler) => void routes.set(`${method} ${path}`, handler),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
