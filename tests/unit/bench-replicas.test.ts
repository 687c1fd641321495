/**
 * The replica benchmark's pieces that need no servers: nginx's configuration drawn from
 * docs/deploy/nginx.conf (and, where nginx is installed, accepted by `nginx -t`), the
 * probe's percentile, and the README table of the `replicas` results.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { percentile } from '../../bench/redis-probe.ts';
import { balancerConf, DEPLOY_NGINX_CONF } from '../../bench/replicas.ts';
import { replicaTables, type ReplicaLoad, type ReplicaResults } from '../../src/compile/docs/bench-replicas.ts';

const one = (n: number) => ({ median: n, min: n, max: n });

test('the balancer is docs/deploy/nginx.conf with its upstreams and listener on loopback, and nginx -t accepts it', (t) => {
  const template = readFileSync(DEPLOY_NGINX_CONF, 'utf8');
  const prefix = mkdtempSync(join(tmpdir(), 'bench-nginx-'));
  try {
    const conf = balancerConf(template, ['127.0.0.1:4001', '127.0.0.1:4002'], 4000, prefix);
    assert.match(
      conf,
      /upstream replicas \{\n(?:\s*#.*\n)*\s*server 127\.0\.0\.1:4001 max_fails=1 fail_timeout=5s;\n\s*server 127\.0\.0\.1:4002 max_fails=1 fail_timeout=5s;\n\s*keepalive 32;/,
    );
    assert.match(conf, /upstream writer \{\n(?:\s*#.*\n)*\s*server 127\.0\.0\.1:4001;/);
    assert.match(conf, /listen 127\.0\.0\.1:4000;/);
    assert.match(conf, /^daemon off;/);
    assert.doesNotMatch(conf, /replica\d|writer:|listen 80/);
    // Everything else is the file's: its directives are all still there.
    for (const line of template.split('\n').filter((l) => /^\s*(proxy_|keepalive|location|map|worker_|access_log)/.test(l)))
      assert.ok(conf.includes(line), line);
    assert.match(
      balancerConf(template, ['127.0.0.1:4001'], 4000, prefix),
      /upstream replicas \{\n(?:\s*#.*\n)*\s*server 127\.0\.0\.1:4001 [^\n]*\n\s*keepalive/,
    );
    assert.throws(() => balancerConf(template.replace('listen 80;', 'listen 8080;'), ['127.0.0.1:4001'], 4000, prefix), /changed its shape/);
    if (spawnSync('nginx', ['-v']).error) {
      t.diagnostic('nginx is not on PATH: the configuration was not checked with nginx -t');
      return;
    }
    mkdirSync(join(prefix, 'logs'));
    writeFileSync(join(prefix, 'nginx.conf'), conf);
    const check = spawnSync('nginx', ['-t', '-p', prefix, '-c', join(prefix, 'nginx.conf')], { encoding: 'utf8' });
    assert.equal(check.status, 0, check.stderr);
  } finally {
    rmSync(prefix, { recursive: true, force: true });
  }
});

test('the probe reports nearest-rank percentiles', () => {
  const values = Array.from({ length: 100 }, (_, i) => 100 - i);
  assert.equal(percentile(values, 50), 50);
  assert.equal(percentile(values, 99), 99);
  assert.equal(percentile([3], 99), 3);
  assert.ok(Number.isNaN(percentile([], 50)));
});

test('the replica table sets two replicas beside one, with the Redis round trip and the propagation times', () => {
  const load = (rps: number): ReplicaLoad => ({ rps: one(rps), p99Ms: one(5), requests: rps, failed: 0 });
  const redis = { p50Ms: one(0.25), p99Ms: { median: 3, min: 2, max: 4 }, calls: 1000, failed: 0, overTimeout: 1 };
  const results: ReplicaResults = {
    date: '2026-01-01',
    node: 'v24.0.0',
    machine: '2 × test CPU, 4 GB',
    loadGenerator: 'wrk 4.1.0',
    balancer: 'nginx/1.22.1 configured by docs/deploy/nginx.conf',
    records: 100000,
    collection: 'tweets',
    connections: 16,
    seconds: 8,
    runs: 3,
    cores: 2,
    loadAverage: { median: 3, min: 2, max: 5 },
    rows: [
      { id: 'rest-page-one', label: 'REST page one', variant: 'warm', one: load(1000), oneBehind: load(800), two: load(600), redis },
      { id: 'rest-page-one', label: 'REST page one', variant: 'cold', one: load(400) },
    ],
    redisIdle: { ...redis, p99Ms: one(0.5), overTimeout: 0 },
    fallbacks: 0,
    propagation: {
      replicas: 2,
      fastPath: 'the Redis notice',
      rounds: 3,
      release: { publishMs: one(5000), servedMs: { median: 300, min: 250, max: 1200 } },
      ownerWrite: { answerMs: one(1340), servedMs: one(10530) },
    },
  };
  const text = replicaTables(results);
  assert.match(text, /\| REST page one, caches \| 1,000 \| 800 \| 600 \| 0\.60 \| 0\.75 \| 5\.00 \/ 5\.00 \/ 5\.00 \| 0\.25 \/ 3\.00 \(2\.00–4\.00\) \|/);
  assert.match(text, /\| REST page one, cold \| 400 \| — \| — \| — \| — \|/);
  assert.match(text, /1,000 calls, 1 over the 50 ms call timeout/);
  assert.match(text, /\| its return → every replica serves the release \| 0\.30 \(0\.25–1\.20\) \|/);
  assert.match(text, /\| the answer → every replica serves the write .* \| 10\.53 \|/);
  assert.match(
    replicaTables({ ...results, skipped: 'nginx is not installed on this machine' }),
    /Two replicas: not measured \(nginx is not installed on this machine\)\./,
  );
  assert.match(replicaTables(undefined), /Not measured yet/);
});
