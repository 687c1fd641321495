/**
 * The thin adapter between node:http and the handlers: request facts read straight off
 * the IncomingMessage, a bounded body where a surface takes one, and an Answer written
 * back with its status, headers and bytes.
 * No Web Request/Response is built on this path; they cost more than the query.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Answer, RequestFacts } from '../http/answer.ts';

export function nodeFacts(req: IncomingMessage, origin: string): RequestFacts {
  return {
    method: req.method ?? 'GET',
    url: new URL(req.url ?? '/', origin),
    header: (name) => {
      const value = req.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

export function write(res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body ?? undefined);
}

/**
 * The request body, read up to `max` bytes: past that the rest is discarded unread into
 * memory, and the handler sees `max` bytes, enough to know the body was too large.
 */
export function readBody(req: IncomingMessage, max: number): Promise<Uint8Array | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size >= max) return;
      chunks.push(chunk.subarray(0, max - size));
      size += Math.min(chunk.length, max - size);
    });
    req.on('end', () => resolve(size === 0 ? null : Buffer.concat(chunks)));
    req.on('error', () => resolve(null));
  });
}
