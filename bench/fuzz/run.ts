/**
 * `npm run fuzz`: a fuzz campaign against the built server (started here, on a free port,
 * quotas lifted) or a running one (`--base`). Exits non-zero on any crash, freeze, 5xx,
 * reset, hang, protocol error, echo of a planted canary or leaked internals (and, with
 * `--strict-shape`, on error answers of the wrong shape).
 * Usage: npm run fuzz -- [--requests 5000] [--seed 1] [--connections 8] [--only sql,graphql]
 *        [--base http://localhost:4321 [--pid N]] [--timeout 5000] [--strict-shape]
 *        [--max-incidents 20] [--json out.json]
 *        npm run fuzz -- --seed 1 --case 123 [--only …] [--base …]   (send one case of a seed again)
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCampaign } from './campaign.ts';
import { sendCase } from './case.ts';
import { formatReport, jsonReport } from './report.ts';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '5000' },
    seed: { type: 'string', default: '1' },
    connections: { type: 'string', default: '8' },
    only: { type: 'string' },
    base: { type: 'string' },
    pid: { type: 'string' },
    timeout: { type: 'string', default: '5000' },
    'strict-shape': { type: 'boolean', default: false },
    'max-incidents': { type: 'string', default: '20' },
    json: { type: 'string' },
    case: { type: 'string' },
  },
});

const only = args.only
  ?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
if (args.case !== undefined) {
  const clean = await sendCase({ seed: Number(args.seed), index: Number(args.case), base: args.base, only, timeoutMs: Number(args.timeout) });
  process.exit(clean ? 0 : 1);
}

const report = await runCampaign({
  requests: Number(args.requests),
  seed: Number(args.seed),
  connections: Number(args.connections),
  only,
  base: args.base,
  pid: args.pid === undefined ? undefined : Number(args.pid),
  timeoutMs: Number(args.timeout),
  strictShape: args['strict-shape'],
  maxIncidents: Number(args['max-incidents']),
});
console.log(formatReport(report));
if (args.json) writeFileSync(args.json, `${JSON.stringify(jsonReport(report), null, 2)}\n`);
process.exitCode = report.failed ? 1 : 0;
