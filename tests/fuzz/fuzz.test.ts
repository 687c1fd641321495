/**
 * The project's fuzz campaign (bench/fuzz, `npm run fuzz`) as a test: a seeded
 * 5,000-request campaign across every route of the table, against a freshly started built
 * server, must find no crash, freeze, 5xx, reset, hang, protocol error, canary echo or
 * leaked internals. The seed is the suite's (FC_SEED, tests/helpers/fc.ts), so a failure
 * replays with `npm run fuzz -- --requests 5000 --seed <seed>`; the assertion message is
 * the campaign's report, with a curl reproduction of each finding. Error shapes are
 * reported but not asserted until the server answers every error as a problem.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCampaign } from '../../bench/fuzz/campaign.ts';
import { formatReport } from '../../bench/fuzz/report.ts';
import { config } from '../../src/config.ts';

const seed = config().FC_SEED;

test(`a seeded 5,000-request fuzz campaign (seed ${seed}) finds no crash, 5xx, reset, hang, echo or leak`, { timeout: 240_000 }, async () => {
  const report = await runCampaign({ requests: 5000, seed, connections: 8, timeoutMs: 5000, strictShape: false, maxIncidents: 3, log: () => {} });
  assert.ok(report.requests >= 5000 || report.aborted !== undefined, `only ${report.requests} requests were sent`);
  assert.equal(report.failed, false, `\n${formatReport(report)}`);
});
