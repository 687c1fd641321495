/**
 * The reference deployment in docs/deploy/: nginx's own parser checks nginx.conf
 * (`nginx -t`) when nginx is on PATH, and says plainly that it skipped otherwise; the
 * compose file names every service the README promises, gives a stopping replica
 * longer than its drain, and nginx routes every path of the owner lane to the writer.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import yaml from 'js-yaml';
import { LIMITS } from '../../src/core/limits.ts';
import { isWriterPath } from '../../src/release/replica.ts';
import { OAUTH_URLS } from '../../src/urls.ts';

const NGINX_CONF = 'docs/deploy/nginx.conf';
const COMPOSE = 'docs/deploy/compose.yaml';

test('nginx -t accepts the reference nginx configuration', (t) => {
  const version = spawnSync('nginx', ['-v'], { encoding: 'utf8' });
  if (version.error) {
    const reason = 'nginx is not on PATH: docs/deploy/nginx.conf was not checked (install nginx to check it)';
    console.log(`# ${reason}`);
    t.skip(reason);
    return;
  }
  const prefix = mkdtempSync(join(tmpdir(), 'nginx-'));
  try {
    mkdirSync(join(prefix, 'logs'));
    // The upstreams are compose service names, which resolve only inside compose's network; nginx resolves them while it checks.
    const conf = readFileSync(NGINX_CONF, 'utf8').replace(/server (replica\d|writer):/g, 'server 127.0.0.1:');
    writeFileSync(join(prefix, 'nginx.conf'), conf);
    const check = spawnSync('nginx', ['-t', '-p', prefix, '-c', join(prefix, 'nginx.conf'), '-g', `pid ${join(prefix, 'nginx.pid')};`], { encoding: 'utf8' });
    assert.equal(check.status, 0, check.stderr);
    assert.match(check.stderr, /test is successful/);
  } finally {
    rmSync(prefix, { recursive: true, force: true });
  }
});

test('nginx sends every path of the owner lane and OAuth to the writer, and nothing else', () => {
  const conf = readFileSync(NGINX_CONF, 'utf8');
  const writerLocations = [...conf.matchAll(/location (?:\^~ )?(\S+) \{\s*proxy_pass http:\/\/writer;/g)].map((m) => m[1]!);
  for (const path of Object.values(OAUTH_URLS))
    assert.ok(
      writerLocations.some((prefix) => path.startsWith(prefix)),
      `${path} goes to the writer`,
    );
  for (const path of Object.values(OAUTH_URLS)) assert.ok(isWriterPath(path), `${path} answers 421 on a replica`);
  for (const path of ['/api/movies.json', '/api/rpc', '/mcp', '/.well-known/mcp.json']) {
    assert.ok(!writerLocations.some((prefix) => path.startsWith(prefix)), `${path} goes to the replicas`);
    assert.ok(!isWriterPath(path));
  }
  assert.match(conf, /proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
  assert.match(conf, /proxy_set_header Upgrade \$http_upgrade;/);
});

test('the compose file runs Redis, two replicas, the writer and nginx, and lets a replica drain', () => {
  const compose = yaml.load(readFileSync(COMPOSE, 'utf8')) as {
    services: Record<string, { environment?: Record<string, string>; stop_grace_period?: string }>;
  };
  for (const name of ['redis', 'replica1', 'replica2', 'writer', 'nginx']) assert.ok(compose.services[name], name);
  for (const name of ['replica1', 'replica2', 'writer']) {
    const service = compose.services[name]!;
    assert.equal(service.environment!.RELEASES_DIR, '/releases');
    assert.ok(service.environment!.TRUSTED_PROXIES);
    assert.ok(
      Number.parseInt(service.stop_grace_period!, 10) * 1000 > LIMITS.drainDelayMs + LIMITS.drainTimeoutMs,
      `${name}: stop_grace_period outlasts the hand-off and the drain`,
    );
  }
  assert.ok(compose.services.writer!.environment!.STATE_DIR);
  assert.equal(compose.services.replica1!.environment!.STATE_DIR, undefined);
  // The scheduled sync runs on the writer alone (issue 39, item 6).
  assert.ok('SYNC_INTERVAL' in compose.services.writer!.environment!, 'the writer carries SYNC_INTERVAL');
  for (const name of ['replica1', 'replica2']) assert.equal(compose.services[name]!.environment!.SYNC_INTERVAL, undefined, `${name} does not sync`);
});
