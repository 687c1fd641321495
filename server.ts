/**
 * The Node entry: serves dist/ through node:http. Static files (with their precomputed
 * headers) first, then the REST surface for collection queries, then Astro's handler for
 * site pages. `PORT` and `HOST` choose where to listen (default localhost:4321).
 */
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRestHandler, isRestPath } from './functions/rest.ts';
import { Image } from './src/core/image.ts';
import { QueryCore } from './src/core/query.ts';
import { problemResponse } from './src/http/problem.ts';
import { paths } from './src/paths.ts';
import { send, toRequest } from './src/runtime/node.ts';
import { StaticFiles } from './src/runtime/static.ts';

const port = Number(process.env.PORT ?? 4321);
const host = process.env.HOST ?? 'localhost';

const files = new StaticFiles(paths.manifest, paths.client);
const rest = createRestHandler(new QueryCore(new Image(paths.image)));
const astro = (await import(pathToFileURL(join(paths.dist, 'server/entry.mjs')).href)) as {
  handler: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, next: () => void) => Promise<void>;
};

const server = createServer((req, res) => {
  const request = toRequest(req, `http://${req.headers.host ?? `${host}:${port}`}`);
  const { pathname, search } = new URL(request.url);
  const reading = request.method === 'GET' || request.method === 'HEAD';
  const handle = (): Response | Promise<Response> | undefined => {
    if (reading && files.has(pathname) && !(search && isRestPath(pathname))) return files.serve(request, pathname);
    if (pathname.startsWith('/api/')) return rest(request);
    return undefined;
  };
  const response = handle();
  if (response) {
    Promise.resolve(response)
      .then((r) => send(res, r))
      .catch(() => res.destroy());
    return;
  }
  void astro.handler(req, res, () => {
    void send(res, problemResponse('not-found', 'Nothing is published at this path.'));
  });
});

server.listen(port, host, () => {
  const address = server.address();
  const shown = typeof address === 'object' && address ? address.port : port;
  console.log(`listening on http://${host}:${shown}`);
});
