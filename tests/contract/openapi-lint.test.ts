/**
 * The OpenAPI description passes `@redocly/cli lint` with the `recommended` ruleset and
 * the committed `redocly.yaml` (whose every exception says why): no error, no warning.
 * Redocly runs offline here — built-in rules only, telemetry and update checks off.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { openApiDocument } from '../../src/openapi/document.ts';
import { openApiYaml } from '../../src/openapi/yaml.ts';

const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
const config = resolve(import.meta.dirname, '../../redocly.yaml');

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[];
}

function lint(file: string): LintReport {
  const run = spawnSync(process.execPath, [cli, 'lint', file, '--config', config, '--format=json'], {
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    timeout: 120_000,
  });
  assert.ok(run.stdout.trim().startsWith('{'), `redocly printed no report (exit ${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as LintReport;
}

const summary = (report: LintReport) => report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`).join('\n');

test('redocly lint (recommended): no error and no warning, in JSON and in YAML', () => {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  const json = join(dir, 'openapi.json');
  const yaml = join(dir, 'openapi.yaml');
  writeFileSync(json, JSON.stringify(openApiDocument(), null, 2));
  writeFileSync(yaml, openApiYaml());
  for (const file of [json, yaml]) {
    const report = lint(file);
    assert.equal(report.totals.errors + report.totals.warnings, 0, `${file}:\n${summary(report)}`);
  }
});
