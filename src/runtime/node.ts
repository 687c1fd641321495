/**
 * The thin adapter between node:http and Web-standard handlers: an IncomingMessage
 * becomes a Request (no body: the read surfaces served here take none yet), and a
 * Response is written back with its status, headers and bytes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export function toRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return new Request(new URL(req.url ?? '/', origin), { method: req.method, headers });
}

export async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  if (body && !('content-length' in headers)) headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body);
}
