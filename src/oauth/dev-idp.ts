/**
 * DEVELOPMENT ONLY — `npm run owner:idp`: a local OpenID Connect provider (oidc-provider,
 * a dev dependency) so the whole owner lane can be tried on one machine. Its sign-in
 * form accepts any account name with any password, and the name becomes the subject:
 * sign in as `owner` to be the owner, as anything else to see the lane refuse you.
 * Keys, sessions and grants live in memory and vanish when it stops. It prints the
 * environment the site needs; nothing in the runtime imports this file, and it refuses
 * to start with NODE_ENV=production.
 *
 * `IDP_PORT` (default 4400; 0 picks a free one) and `SITE_URL` (default
 * http://localhost:4321) may be set.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { config } from '../config.ts';
import { OAUTH_URLS } from '../urls.ts';

const { NODE_ENV, SITE_URL, IDP_PORT } = config();
if (NODE_ENV === 'production') {
  console.error('owner:idp is a development identity provider; it does not run with NODE_ENV=production.');
  process.exit(1);
}

const siteUrl = (SITE_URL ?? 'http://localhost:4321').replace(/\/+$/, '');
const clientId = 'collections-dev';
const clientSecret = randomBytes(24).toString('base64url');

// Listen first, so the issuer names the port actually bound.
let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
const server = createServer((req, res) => handle(req, res));
server.listen(IDP_PORT, 'localhost');
await once(server, 'listening');
const issuer = `http://localhost:${(server.address() as AddressInfo).port}`;

const provider = new Provider(issuer, {
  clients: [
    { client_id: clientId, client_secret: clientSecret, redirect_uris: [`${siteUrl}${OAUTH_URLS.callback}`], token_endpoint_auth_method: 'client_secret_post' },
  ],
  cookies: { keys: [randomBytes(32).toString('base64url')] },
});
handle = provider.callback();

console.log(`Development identity provider (DEVELOPMENT ONLY) at ${issuer}
Sign in as "owner" (any password) to be the owner; any other name is someone else.
Start the site with:

SITE_URL=${siteUrl} \\
OWNER_OIDC_ISSUER=${issuer} \\
OWNER_OIDC_CLIENT_ID=${clientId} \\
OWNER_OIDC_CLIENT_SECRET=${clientSecret} \\
OWNER_SUBJECT=owner \\
npm run serve
`);
