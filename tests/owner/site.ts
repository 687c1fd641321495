/**
 * The owner lane as the owner-write tests run it: the built `dist/`, a copy of the content
 * it was built from and a state folder of the test's own, served by the process's
 * generations (so each write rebuilds and swaps) behind an authorization server. Access
 * tokens are minted in its store as the token endpoint would store them (the flow that
 * issues them is tests/oauth/).
 */
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { oauthConfig } from '../../src/oauth/config.ts';
import { OAuthServer } from '../../src/oauth/server.ts';
import { SqliteOAuthStore } from '../../src/oauth/store.ts';
import { paths } from '../../src/paths.ts';
import { Generations } from '../../src/runtime/generations.ts';
import { createNodeServer, type Dispatcher } from '../../src/runtime/node.ts';
import { TEST_KEEP_ALIVE_MS } from '../helpers/keep-alive.ts';
import { OAUTH_URLS } from '../../src/urls.ts';

export interface OwnerSite {
  root: string;
  content: string;
  stateDir: string;
  base: string;
  generations: Generations;
  /**
   * An access token for `resource` (this site's `/owner/mcp` unless named) with `scopes`,
   * under a new grant; of a new client unless `clientId` names one (another installation
   * of the same app: Client ID Metadata Documents give every install one client_id).
   */
  mint(scopes: string[], resource?: string, clientId?: string): string;
  stop(): Promise<void>;
}

export async function startOwnerSite(prefix: string): Promise<OwnerSite> {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const content = join(root, 'content');
  const stateDir = join(root, 'state');
  cpSync('content', content, { recursive: true });
  let dispatcher: Dispatcher | undefined;
  const server = createNodeServer(
    {
      request: (req, res) => dispatcher!.request(req, res),
      upgrades: (req) => dispatcher!.upgrades(req),
      upgrade: (req, socket, head) => dispatcher!.upgrade(req, socket, head),
    },
    { keepAliveTimeoutMs: TEST_KEEP_ALIVE_MS },
  );
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const store = new SqliteOAuthStore(stateDir);
  // The lane is set up (a token counts only under the grant of the configured owner); the provider is never contacted here.
  const idp = { issuer: new URL('http://127.0.0.1:9'), clientId: 'owner-tests', clientSecret: undefined, subject: 'owner' };
  const oauthServer = new OAuthServer({ config: oauthConfig({ siteUrl: base, stateDir, idp }), store });
  const generations = await Generations.open({ distDir: paths.dist, contentDir: content, oauth: oauthServer, warmSql: false });
  dispatcher = generations.dispatcher();
  const mint = (scopes: string[], resource = `${base}${OAUTH_URLS.ownerMcp}`, clientId = `client-${randomBytes(4).toString('hex')}`) => {
    const now = Date.now();
    const grantId = `grant-${randomBytes(4).toString('hex')}`;
    store.putClient({
      clientId,
      metadata: {
        client_name: 'Test agent',
        redirect_uris: ['http://127.0.0.1:9/callback'],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
      createdAt: now,
      expiresAt: now + 90 * 86_400_000,
    });
    store.createGrant({
      id: grantId,
      clientId,
      clientName: 'Test agent',
      subject: 'owner',
      scopes,
      resource,
      createdAt: now,
      lastUsedAt: null,
      revokedAt: null,
    });
    const token = randomBytes(32).toString('base64url');
    store.putToken(token, { grantId, kind: 'access', clientId, scopes, resource, expiresAt: now + 3_600_000, usedAt: null });
    return token;
  };
  const stop = async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
    await generations.shutdown();
    oauthServer.close();
    rmSync(root, { recursive: true, force: true });
  };
  return { root, content, stateDir, base, generations, mint, stop };
}
