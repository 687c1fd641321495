/**
 * The importers at scale (issue 30, item 7): a Twitter archive of `--tweets` tweets
 * (100,000) and a Strava export of `--activities` activities (10,000), each with a GPX
 * track of `--points` points, are generated under `.bench/import/` (unpacked, as the
 * folder an export unzips to), then imported into an empty content folder by the real
 * command (package.json's `import` script, its node options included) under GNU time:
 * wall time and peak RSS of the import, and of the re-import that finds every record the
 * same. Prints a Markdown table and writes it to `.bench/results-import.md`.
 *
 * Usage: npm run bench -- --only import [--tweets 100000 --activities 10000 --points 120]
 *        or node bench/import.ts with the same options.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

export interface ImportFigure {
  label: string;
  records: number;
  seconds: number;
  peakRssMb: number;
}

const root = resolve('.bench', 'import');

function twitterArchive(count: number): string {
  const dir = join(root, `twitter-${count}`);
  if (existsSync(join(dir, 'data', 'tweets.js'))) return dir;
  mkdirSync(join(dir, 'data'), { recursive: true });
  writeFileSync(join(dir, 'data', 'account.js'), 'window.YTD.account.part0 = [{"account":{"username":"benchowner","accountDisplayName":"Bench Owner"}}]\n');
  const start = Date.UTC(2012, 0, 1);
  const items: string[] = [];
  for (let i = 0; i < count; i++) {
    const at = new Date(start + i * 3_600_000);
    const created = `${at.toUTCString().slice(0, 3)} ${at.toUTCString().slice(8, 11)} ${at.toUTCString().slice(5, 7)} ${at.toISOString().slice(11, 19)} +0000 ${at.getUTCFullYear()}`;
    const id = String(1_000_000_000_000_000_000n + BigInt(i) * 7919n);
    items.push(
      JSON.stringify({
        tweet: {
          id_str: id,
          full_text: `Bench tweet number ${i}: notes on keysets, feeds & caches, with a link https://t.co/x${i}`,
          created_at: created,
          favorite_count: String(i % 97),
          retweet_count: String(i % 13),
          entities: { urls: [{ url: `https://t.co/x${i}`, expanded_url: `https://example.com/posts/${i}` }] },
        },
      }),
    );
  }
  writeFileSync(join(dir, 'data', 'tweets.js'), `window.YTD.tweets.part0 = [\n${items.join(',\n')}\n]\n`);
  return dir;
}

function stravaExport(count: number, points: number): string {
  const dir = join(root, `strava-${count}-${points}`);
  if (existsSync(join(dir, 'activities.csv'))) return dir;
  mkdirSync(join(dir, 'activities'), { recursive: true });
  const rows = [
    'Activity ID,Activity Date,Activity Name,Activity Type,Elapsed Time,Distance,Activity Private Note,Filename,Elapsed Time,Moving Time,Distance,Elevation Gain',
  ];
  const start = Date.UTC(2016, 0, 1, 6);
  for (let i = 0; i < count; i++) {
    const t0 = start + i * 86_400_000;
    const lat0 = 47.3 + (i % 50) * 0.001;
    const pts: string[] = [];
    for (let p = 0; p < points; p++)
      pts.push(
        `<trkpt lat="${(lat0 + p * 0.0002).toFixed(6)}" lon="${(8.5 + p * 0.0001).toFixed(6)}"><ele>${400 + (p % 20)}</ele><time>${new Date(t0 + p * 10_000).toISOString().replace('.000', '')}</time></trkpt>`,
      );
    writeFileSync(
      join(dir, 'activities', `${i + 1}.gpx`),
      `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="bench" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Run ${i}</name><type>running</type><trkseg>${pts.join('')}</trkseg></trk></gpx>\n`,
    );
    const date = new Date(t0).toUTCString();
    rows.push(
      `${i + 1},"${date.slice(8, 11)} ${Number(date.slice(5, 7))}, ${date.slice(12, 16)}, 6:00:00 AM",Run ${i},Run,${points * 10},${(points * 0.025).toFixed(2)},,activities/${i + 1}.gpx,${points * 10},${points * 10 - 5},${(points * 25).toFixed(1)},${points}`,
    );
  }
  writeFileSync(join(dir, 'activities.csv'), `${rows.join('\n')}\n`);
  return dir;
}

/** `npm run import`'s command after `node` (its options, then the script), as package.json has it. */
function importCommand(): string[] {
  const script = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts.import ?? '';
  const [node, ...rest] = script.trim().split(/\s+/);
  if (node !== 'node' || !rest.length) throw new Error(`package.json's import script is not \`node … <script>\`: ${script}`);
  return rest;
}

function timed(label: string, records: number, args: string[], content: string): ImportFigure {
  const run = spawnSync('/usr/bin/time', ['-v', process.execPath, ...importCommand(), ...args], {
    env: { ...process.env, CONTENT_DIR: content },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (run.status !== 0) throw new Error(`${label}: the import failed:\n${run.stderr.slice(-4000)}`);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr);
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(run.stderr);
  const seconds = wall ? Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]) : NaN;
  return { label, records, seconds, peakRssMb: rss ? Math.round(Number(rss[1]) / 1024) : NaN };
}

export function measureImports(options: { tweets: number; activities: number; points: number }): ImportFigure[] {
  mkdirSync(root, { recursive: true });
  const figures: ImportFigure[] = [];
  const cases: [string, number, string][] = [
    ['twitter', options.tweets, twitterArchive(options.tweets)],
    ['strava', options.activities, stravaExport(options.activities, options.points)],
  ];
  for (const [source, records, path] of cases) {
    const content = mkdtempSync(join(root, 'content-'));
    try {
      figures.push(timed(`${source}: first import`, records, [source, path], content));
      figures.push(timed(`${source}: re-import (every record the same)`, records, [source, path], content));
    } finally {
      rmSync(content, { recursive: true, force: true });
    }
  }
  return figures;
}

export function importTable(figures: readonly ImportFigure[], points: number): string {
  return [
    `| import (\`npm run import\`; Strava tracks of ${points} GPX points) | records | wall time | peak RSS |`,
    '| --- | ---: | ---: | ---: |',
    ...figures.map((f) => `| ${f.label} | ${f.records.toLocaleString('en')} | ${f.seconds.toFixed(1)} s | ${f.peakRssMb} MB |`),
  ].join('\n');
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { tweets: { type: 'string', default: '100000' }, activities: { type: 'string', default: '10000' }, points: { type: 'string', default: '120' } },
    strict: false,
  });
  const options = { tweets: Number(values.tweets), activities: Number(values.activities), points: Number(values.points) };
  const text = importTable(measureImports(options), options.points);
  console.log(text);
  writeFileSync(join(root, '..', 'results-import.md'), `${text}\n`);
}
