/**
 * `npm run owner:idp` starts a development identity provider that discovery finds, and
 * prints the environment the site needs; it refuses to run in production.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';

const script = new URL('../../src/oauth/dev-idp.ts', import.meta.url).pathname;

test('the development identity provider prints the site variables and answers discovery', async () => {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, IDP_PORT: '0', SITE_URL: 'http://localhost:4555', NODE_ENV: 'development' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    let output = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('npm run serve')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`exited (${code}): ${output}`)));
    });
    const issuer = /OWNER_OIDC_ISSUER=(\S+)/.exec(output)![1]!;
    assert.match(output, /DEVELOPMENT ONLY/);
    assert.match(output, /OWNER_OIDC_CLIENT_ID=collections-dev/);
    assert.match(output, /OWNER_OIDC_CLIENT_SECRET=[A-Za-z0-9_-]{32}/);
    assert.match(output, /OWNER_SUBJECT=owner/);
    const discovery = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as {
      issuer: string;
      code_challenge_methods_supported: string[];
    };
    assert.equal(discovery.issuer, issuer);
    assert.deepEqual(discovery.code_challenge_methods_supported, ['S256']);
  } finally {
    child.kill();
    if (child.exitCode === null) await once(child, 'exit');
  }
});

test('it refuses to start with NODE_ENV=production', async () => {
  const child = spawn(process.execPath, [script], { env: { ...process.env, IDP_PORT: '0', NODE_ENV: 'production' }, stdio: 'ignore' });
  const [code] = (await once(child, 'exit')) as [number];
  assert.equal(code, 1);
});
