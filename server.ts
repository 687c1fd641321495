/**
 * The Node entry: opens the runtime on `dist/` (its first generation) and listens; the
 * route table (src/runtime/routes.ts) and the dispatcher (src/runtime/dispatch.ts) do the
 * rest.
 * Configuration is by environment (README, "Configuration"): `PORT`, `HOST`,
 * `ANSWER_CACHE_BYTES`, `TRUSTED_PROXIES`, `RATE_LIMIT_REQUESTS`, `SQL_RATE_LIMIT_REQUESTS`,
 * `GRAPHQL_COST_BUDGET`.
 */
import { Generations } from './src/runtime/generations.ts';
import { createNodeServer } from './src/runtime/node.ts';
import { runtimeOptionsFromEnv } from './src/runtime/runtime.ts';
import { paths } from './src/paths.ts';

const port = process.env.PORT === undefined ? 4321 : Number(process.env.PORT);
const host = process.env.HOST ?? 'localhost';

// The build's generation, and later ones when content changes (`generations.rebuild`).
const generations = await Generations.open({ ...runtimeOptionsFromEnv(process.env, paths.dist), contentDir: paths.content, siteAuthor: process.env.SITE_AUTHOR });
const server = createNodeServer(generations.listener());

server.listen(port, host, () => {
  const address = server.address();
  const shown = typeof address === 'object' && address ? address.port : port;
  console.log(`listening on http://${host}:${shown}`);
});

// Stop accepting, let in-flight answers finish, then exit (so profilers and supervisors see a clean end).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 2000).unref();
  });
}
