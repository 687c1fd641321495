/**
 * The real server process (`server.ts`, configured by environment as in production):
 * the owner lane works through it, and a grant made before a restart — SIGTERM, then a
 * new process on the same STATE_DIR — still refreshes after it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { Agent } from './agent.ts';
import { discover, IDP_CLIENT_ID, IDP_CLIENT_SECRET, OWNER, startIdp, type Idp } from './helpers.ts';

/** A port free now, for a server whose SITE_URL must name it before it starts. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

let idp: Idp;
let stateDir: string;
let port: number;
let server: RunningServer | undefined;

const start = () =>
  startServer({
    PORT: String(port),
    SITE_URL: `http://127.0.0.1:${port}`,
    STATE_DIR: stateDir,
    OWNER_OIDC_ISSUER: idp.issuer,
    OWNER_OIDC_CLIENT_ID: IDP_CLIENT_ID,
    OWNER_OIDC_CLIENT_SECRET: IDP_CLIENT_SECRET,
    OWNER_SUBJECT: OWNER,
  });

before(async () => {
  port = await freePort();
  idp = await startIdp(`http://127.0.0.1:${port}/oauth/callback`);
  stateDir = mkdtempSync(join(tmpdir(), 'oauth-restart-'));
});
after(async () => {
  await server?.stop();
  await idp.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

test('a grant made through the real server survives its restart', async () => {
  server = await start();
  const base = `http://127.0.0.1:${port}`;
  const site = { base, resource: `${base}/owner/mcp`, idp };
  const agent = new Agent(site, await discover(site));
  const { client, tokens } = await agent.connect();
  await server.stop();
  server = await start();
  const refreshed = await agent.refresh(client, tokens.refresh_token!);
  assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
  assert.equal(refreshed.scope, 'taste:read taste:write');
});
