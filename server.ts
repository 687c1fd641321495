/**
 * The Node entry: opens the runtime on `dist/` (its first generation) and listens; the
 * route table (src/runtime/routes.ts) and the dispatcher (src/runtime/dispatch.ts) do the
 * rest.
 * Configuration is by environment (README, "Configuration"): `PORT`, `HOST`,
 * `ANSWER_CACHE_BYTES`, `TRUSTED_PROXIES`, `RATE_LIMIT_REQUESTS`, `SQL_RATE_LIMIT_REQUESTS`,
 * `GRAPHQL_COST_BUDGET`, and the owner lane's `SITE_URL`, `STATE_DIR`, `OWNER_OIDC_ISSUER`,
 * `OWNER_OIDC_CLIENT_ID`, `OWNER_OIDC_CLIENT_SECRET`, `OWNER_SUBJECT`.
 */
import { serve } from './src/runtime/serve.ts';

const { url } = await serve();
console.log(`listening on ${url}`);
