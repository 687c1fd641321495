/**
 * A source's outcome as the owner reads it, the same for `npm run sync` and the
 * scheduled sync's log: the counts as the import prints them, what was skipped, pruned
 * or left out, and a failure with its kind and message (which never holds a query or a
 * secret: src/net/fetch.ts shows URLs without their query).
 */
import type { SourceOutcome } from './run.ts';

/** One source's outcome as lines for the owner. */
export function describeOutcome(outcome: SourceOutcome, dryRun: boolean): string[] {
  if (!outcome.ok) return [`${outcome.source}: FAILED (${outcome.kind}): ${outcome.message.replace(`${outcome.source}: `, '')}`];
  const { report } = outcome;
  const c = report.counts;
  const dropped = Object.entries(report.dropped).map(([what, n]) => `${n} ${what}`);
  const lines = [
    `${outcome.source} → ${report.collection}: ${c.new} new, ${c.same} same, ${c.changed} changed, ${c.conflict} in conflict, ${c.kept} kept as you wrote them${dropped.length ? `; left out: ${dropped.join(', ')}` : ''} (${outcome.requests} request${outcome.requests === 1 ? '' : 's'})`,
  ];
  for (const p of report.skipped ?? []) lines.push(`  skipped ${p.origin}: ${p.field}: ${p.reason}`);
  for (const line of outcome.pruned) lines.push(`  ${line}`);
  for (const notice of [...report.notices, ...outcome.notices]) lines.push(`  note: ${notice}`);
  if (outcome.partial) lines.push('  note: stopped at a request budget; run again for the rest');
  if (dryRun) lines.push('  dry run: nothing written');
  else if (report.written.length) lines.push(`  wrote ${report.written.join(', ')}`);
  return lines;
}
