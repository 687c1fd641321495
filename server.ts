/**
 * The Node entry: opens the runtime on `dist/` (its first generation) and listens; the
 * route table (src/runtime/routes.ts) and the dispatcher (src/runtime/dispatch.ts) do the
 * rest.
 * Configuration is by environment: every variable, its default and its meaning are
 * declared in src/config.ts (the README's "Configuration" table is generated from it). A
 * bad value stops the server before it opens anything, with one line per variable at
 * fault and exit status 2.
 */
import { serve } from './src/runtime/serve.ts';

const { url } = await serve();
console.log(`listening on ${url}`);
