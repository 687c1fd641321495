/**
 * `npm run sync -- [source…] [--dry-run] [--since YYYY-MM-DD] [--prune]`: pulls every
 * source configured in `sync.yaml` (`SYNC_CONFIG`), or those named, into the content
 * folder (`CONTENT_DIR`), through the importers' mapping and frame (src/sync/run.ts).
 * Prints, per source, what is new, the same, changed, in conflict (edited by the owner:
 * left as is) or kept, what was left out, and what failed and why. Exit codes: 0 every
 * source synced; 1 one or more failed (each named on stderr, the others synced); 2 a
 * usage or configuration mistake (nothing asked). Secrets come from the environment only
 * (src/config.ts); what a sync remembers goes to `STATE_DIR` (`cursors/`, `sync/`).
 */
import { describeHolder } from '../owner/lock.ts';
import { parseArgs } from 'node:util';
import { config } from '../config.ts';
import { readSyncConfig, SOURCE_NAMES, SyncConfigError, type SourceName } from './config.ts';
import { describeOutcome } from './report.ts';
import { secretsOf, syncAll, userAgentOf } from './run.ts';

const USAGE = `usage: npm run sync -- [source…] [--dry-run] [--since YYYY-MM-DD] [--prune]
sources: ${SOURCE_NAMES.join(', ')}`;

function usage(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({ allowPositionals: true, options: { 'dry-run': { type: 'boolean' }, since: { type: 'string' }, prune: { type: 'boolean' } } });
  } catch (error) {
    usage((error as Error).message);
  }
  const since = parsed.values.since;
  if (since !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(since)) usage('--since expects a date YYYY-MM-DD');
  for (const name of parsed.positionals) if (!(SOURCE_NAMES as string[]).includes(name)) usage(`unknown source ${name}`);
  const settings = config();
  let syncConfig;
  try {
    syncConfig = readSyncConfig(settings.SYNC_CONFIG);
  } catch (error) {
    if (!(error instanceof SyncConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  const names = parsed.positionals.length ? (parsed.positionals as SourceName[]) : SOURCE_NAMES.filter((n) => syncConfig[n] !== undefined);
  if (names.length === 0) usage(`${settings.SYNC_CONFIG} configures no source`);
  const dryRun = parsed.values['dry-run'] ?? false;
  const outcomes = await syncAll(syncConfig, names, {
    contentDir: settings.CONTENT_DIR,
    stateDir: settings.STATE_DIR,
    // A running server's writes take the same lock (STATE_DIR/content-writer.lock): the sync waits for the one under way, and says who holds it.
    onWait: (holder) => process.stderr.write(`waiting: the content is being written by ${describeHolder(holder)}\n`),
    dryRun,
    prune: parsed.values.prune ?? false,
    userAgent: userAgentOf(settings),
    secrets: secretsOf(settings),
    ...(since ? { since } : {}),
    onLine: (line) => void process.stdout.write(`  ${line}\n`),
  });
  for (const outcome of outcomes) {
    const lines = describeOutcome(outcome, dryRun);
    (outcome.ok ? process.stdout : process.stderr).write(`${lines.join('\n')}\n`);
  }
  const failed = outcomes.filter((o) => !o.ok).map((o) => o.source);
  if (failed.length) {
    process.stderr.write(`sync failed for: ${failed.join(', ')}\n`);
    process.exitCode = 1;
  }
}

await main();
