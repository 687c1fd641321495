/**
 * Serving a build: the generations of `dist/` (the build's, and later ones when content
 * changes), a node:http server listening on `PORT`/`HOST`, and a clean stop on SIGINT or
 * SIGTERM — stop accepting, let in-flight answers finish, close the generations, exit.
 * Shared by `server.ts` and the dev loop's server process.
 */
import { paths } from '../paths.ts';
import { Generations } from './generations.ts';
import { createNodeServer } from './node.ts';
import { runtimeOptionsFromEnv } from './runtime.ts';

/** Opens the build and listens; resolves once listening, with the address it listens on. */
export async function serve(): Promise<{ generations: Generations; url: string }> {
  const port = process.env.PORT === undefined ? 4321 : Number(process.env.PORT);
  const host = process.env.HOST ?? 'localhost';
  const options = runtimeOptionsFromEnv(process.env, paths.dist);
  const generations = await Generations.open({ ...options, contentDir: paths.content, siteAuthor: process.env.SITE_AUTHOR });
  const server = createNodeServer(generations.dispatcher());
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      server.close();
      server.closeIdleConnections();
      generations.shutdown().finally(() => {
        // The owner lane's store outlives generations: closed last, once nothing answers.
        options.oauth?.close();
        process.exit(0);
      });
      setTimeout(() => process.exit(0), 2000).unref();
    });
  }
  const address = server.address();
  return { generations, url: `http://${host}:${typeof address === 'object' && address ? address.port : port}` };
}
