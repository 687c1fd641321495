/**
 * Rendering a page in-process through Astro's request handler, without a socket: a
 * request object for the route, and a response that keeps what the handler writes. The
 * rebuild uses it to render the record-made prerendered pages again from a new
 * generation's image (src/pages/rerender/), with that generation's query core as
 * `Astro.locals`.
 */
import { EventEmitter } from 'node:events';
import { IncomingMessage, type ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { QueryCore } from '../core/query.ts';
import type { SearchView } from './search-view.ts';
import type { CollectionView } from './view.ts';

/** Astro's request handler for the pages it renders on request. */
export type PageHandler = (req: IncomingMessage, res: ServerResponse, next: () => void, locals: PageLocals) => Promise<void>;

/** What a page rendered on request reads of the runtime (`Astro.locals`). */
export interface PageLocals {
  core: QueryCore;
  /** The view the runtime has already computed for a collection or search page with a query string, so the page renders it rather than computing it again. */
  collectionView?: CollectionView;
  searchView?: SearchView;
  /** The published JSON of the record a record page shows, which the runtime's route has already looked up. */
  record?: string;
}

/** The part of a node:http response Astro's handler writes to, kept in memory. */
class CapturedResponse extends EventEmitter {
  statusCode = 200;
  statusMessage = '';
  headersSent = false;
  readonly req: IncomingMessage;
  private readonly chunks: Buffer[] = [];
  private readonly done: (result: { status: number; body: Buffer }) => void;

  constructor(req: IncomingMessage, done: (result: { status: number; body: Buffer }) => void) {
    super();
    this.req = req;
    this.done = done;
  }

  setHeader(): this {
    return this;
  }

  writeHead(status: number): this {
    this.statusCode = status;
    this.headersSent = true;
    return this;
  }

  write(chunk: string | Uint8Array): boolean {
    this.chunks.push(Buffer.from(chunk));
    return true;
  }

  end(chunk?: string | Uint8Array): this {
    if (chunk !== undefined && typeof chunk !== 'function') this.write(chunk);
    this.headersSent = true;
    this.emit('finish');
    this.emit('close');
    this.done({ status: this.statusCode, body: Buffer.concat(this.chunks) });
    return this;
  }

  destroy(): this {
    return this.end();
  }
}

/** The body Astro renders for `route` with `locals`; a failure or any status but 200 rejects. */
export function renderPage(pages: PageHandler, route: string, locals: PageLocals): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = new IncomingMessage(new Socket());
    req.method = 'GET';
    req.url = route;
    req.headers = { host: 'localhost', accept: 'text/html' };
    req.push(null);
    const res = new CapturedResponse(req, ({ status, body }) => (status === 200 ? resolve(body) : reject(new Error(`${route}: the page answered ${status}`))));
    const notFound = () => reject(new Error(`${route}: no page answers this route`));
    pages(req, res as unknown as ServerResponse, notFound, locals).catch(reject);
  });
}
