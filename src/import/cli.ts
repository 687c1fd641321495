/**
 * `npm run import -- <source> <path> [--dry-run] [--update] [--since <date>]
 * [--privacy-radius <metres>]`: one export into the content folder (`CONTENT_DIR`,
 * default `content/`). Prints what is new, the same, changed, in conflict or kept, and
 * what the owner must do (a photo needing alt text). Exit codes: 0 done (or nothing to
 * do), 1 refused (nothing written; every problem listed), 2 a usage mistake.
 * Reads no network. It writes through the content writer (src/owner/writer.ts): it takes
 * the content lock in `STATE_DIR`; while a running server holds it for a write, the import
 * waits (printing who holds it) up to contentLockWaitMs, then is refused naming the holder.
 * Its files are journaled in `STATE_DIR/owner-writes.jsonl`, where a running server finds
 * and rebuilds them at its next write.
 *
 * package.json runs it with a young generation of at most 16 MB and an old generation
 * allowed to grow by 20% past what the last full collection kept: an import keeps its
 * working set on disk (src/import/store.ts), but by default V8 (Node 24) lets its young
 * generation reach 64 MB a half and lets garbage pile up to several times the live heap
 * between full collections, so the peak would grow with the export's length rather than
 * with its largest file. (`--optimize-for-size` bounds it too, but makes parsing tracks
 * about four times slower.)
 */
import { once } from 'node:events';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { config } from '../config.ts';
import { ContentLocked, describeHolder } from '../owner/lock.ts';
import { describeRefusal, ImportRefused } from './problems.ts';
import { runImport, type ImportReport } from './run.ts';
import { SOURCES } from './sources/index.ts';

const USAGE = `usage: npm run import -- <source> <path> [--dry-run] [--update] [--since YYYY-MM-DD] [--privacy-radius <metres>]
sources: ${Object.keys(SOURCES).join(', ')}`;

function usage(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

/**
 * The report's lines, written out in pieces of about 64 KiB rather than a write each, and
 * no faster than the output takes them: a pipe read slowly would otherwise queue a
 * million-record report in memory.
 */
let pending = '';
async function printLine(line: string): Promise<void> {
  pending += `${line}\n`;
  if (pending.length < 65_536) return;
  const flushed = process.stdout.write(pending);
  pending = '';
  if (!flushed) await once(process.stdout, 'drain');
}

function print(report: ImportReport, dryRun: boolean): void {
  const out = process.stdout;
  if (pending) out.write(pending);
  pending = '';
  for (const notice of report.notices) out.write(`note: ${notice}\n`);
  const c = report.counts;
  const dropped = Object.entries(report.dropped).map(([what, n]) => `${n} ${what}`);
  out.write(
    `${report.source} → ${report.collection}: ${c.new} new, ${c.same} same, ${c.changed} changed, ${c.conflict} in conflict, ${c.kept} kept as you wrote them${dropped.length ? `; left out: ${dropped.join(', ')}` : ''}\n`,
  );
  if (dryRun) out.write('dry run: nothing written\n');
  else if (report.written.length) out.write(`wrote ${report.written.join(', ')}\n`);
  else out.write('nothing to write\n');
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: { 'dry-run': { type: 'boolean' }, update: { type: 'boolean' }, since: { type: 'string' }, 'privacy-radius': { type: 'string' } },
    });
  } catch (error) {
    usage((error as Error).message);
  }
  const [name, path, ...rest] = parsed.positionals;
  if (!name || !path || rest.length) usage('expected a source and a path');
  const source = SOURCES[name];
  if (!source) usage(`unknown source ${name}`);
  const since = parsed.values.since;
  if (since !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(since)) usage('--since expects a date YYYY-MM-DD');
  const radius = parsed.values['privacy-radius'];
  if (radius !== undefined && !/^\d{1,6}$/.test(radius)) usage('--privacy-radius expects a whole number of metres');
  const dryRun = parsed.values['dry-run'] ?? false;
  try {
    const report = await runImport(source, resolve(path), {
      contentDir: config().CONTENT_DIR,
      stateDir: config().STATE_DIR,
      // The running server's writes take the same lock: this import waits for the one under way, and says who holds it.
      onWait: (holder) => process.stderr.write(`waiting: the content is being written by ${describeHolder(holder)}\n`),
      dryRun,
      update: parsed.values.update ?? false,
      onLine: printLine,
      ...(since ? { since } : {}),
      ...(radius ? { privacyRadiusMeters: Number(radius) } : {}),
    });
    print(report, dryRun);
  } catch (error) {
    if (error instanceof ContentLocked) {
      process.stderr.write(`import refused: ${error.message}\n`);
      process.exitCode = 1;
      return;
    }
    if (!(error instanceof ImportRefused)) throw error;
    process.stderr.write(`import refused: ${describeRefusal(error)}\n`);
    process.exitCode = 1;
  }
}

await main();
