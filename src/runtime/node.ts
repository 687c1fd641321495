/**
 * The thin adapter between node:http and the handlers: request facts read straight off
 * the IncomingMessage, and an Answer written back with its status, headers and bytes.
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
