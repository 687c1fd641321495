/**
 * `npm run bench:cold`: what a cold REST answer costs beside the SQLite statements it runs
 * (issue 42). The benchmark's build is opened in this process as the server opens it,
 * with the answer and page caches off (`ANSWER_CACHE_BYTES=0`, `PAGE_CACHE_BYTES=0`, as
 * `npm run bench` runs cold), and each cold target of bench/targets.ts (filtered, q, page
 * one, deep cursor, the cross-collection search) is answered through the runtime's REST
 * handler, without a socket. The statements an answer runs are captured from that same
 * code path (every `Image.statement` asked during one answer, with its method and
 * parameters), then run alone, prepared, with the same parameters: the floor no answer
 * can beat. Rounds alternate answers and statements, in either order; each figure is the
 * median over rounds of the process's CPU µs (user and system) per answer. The table goes
 * to stdout, and into `bench/results.json` under `cold` unless `--out` names another file.
 * Usage: npm run bench:cold [-- --records 100000 --rounds 40 --only <text> --out <file>]
 * (`--only` keeps the targets whose id or label holds the text).
 * (run `npm run bench -- --build-only` first: it uses the benchmark's build).
 */
import type { StatementSync } from 'node:sqlite';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { coldTable, type ColdResults, type ColdRow } from '../src/compile/docs/bench-readme.ts';
import { readConfig } from '../src/config.ts';
import type { Answer, RequestFacts } from '../src/http/answer.ts';
import { Generations } from '../src/runtime/generations.ts';
import { runtimeOptionsFrom } from '../src/runtime/runtime.ts';
import { RESULTS_PATH, runFacts, spread, writeResults } from './results.ts';
import { targets } from './targets.ts';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    collection: { type: 'string', default: 'tweets' },
    rounds: { type: 'string', default: '40' },
    only: { type: 'string' },
    out: { type: 'string' },
  },
});
const COLD_TARGETS = ['rest-filtered', 'rest-q', 'rest-page-one', 'rest-deep-cursor', 'search'];
const dist = join('.bench', `dist-${args.records}`);
const settings = readConfig({
  ...process.env,
  DIST_DIR: dist,
  ANSWER_CACHE_BYTES: '0',
  PAGE_CACHE_BYTES: '0',
  RATE_LIMIT_REQUESTS: String(Number.MAX_SAFE_INTEGER),
});
const generations = await Generations.open({
  ...runtimeOptionsFrom(settings),
  processState: { draining: false },
  contentDir: settings.CONTENT_DIR,
  siteAuthor: settings.SITE_AUTHOR,
});
const runtime = generations.current();
const image = runtime.image;
const rest = runtime.rest;

/** One statement as an answer ran it: the prepared statement, how it was stepped, and its parameters. */
interface Ran {
  statement: StatementSync;
  method: 'all' | 'get' | 'iterate';
  params: unknown[];
}

// Every statement the image hands out while `capturing` is set is wrapped to record its runs.
let capturing: Ran[] | undefined;
const prepare = image.statement.bind(image);
image.statement = (sql: string, arrays?: boolean): StatementSync => {
  const statement = prepare(sql, arrays);
  const into = capturing;
  if (into === undefined) return statement;
  const recorded =
    (method: Ran['method']) =>
    (...params: unknown[]) => {
      into.push({ statement, method, params });
      return (statement[method] as (...p: unknown[]) => unknown)(...params);
    };
  return Object.assign(Object.create(statement) as StatementSync, { all: recorded('all'), get: recorded('get'), iterate: recorded('iterate') });
};

const facts = (path: string): RequestFacts => ({
  method: 'GET',
  url: new URL(`http://runtime.invalid${path}`),
  target: path,
  peer: '127.0.0.1',
  header: () => null,
});

function answer(path: string): Answer {
  const result = rest(facts(path));
  if (result instanceof Promise) throw new Error('the in-process quota answered asynchronously');
  if (result.status !== 200) throw new Error(`${path} answered ${result.status}`);
  return result;
}

/** What each request's answer runs once its per-filter counts are remembered, as a server under load runs it. */
function capture(path: string): Ran[] {
  answer(path);
  capturing = [];
  answer(path);
  const ran = capturing;
  capturing = undefined;
  return ran;
}

const run = (ran: Ran) => (ran.statement[ran.method] as (...p: unknown[]) => unknown)(...ran.params);

/** CPU µs per item of `work` over `items`, `repeat` times. */
function cpuPer<T>(items: readonly T[], repeat: number, work: (item: T) => unknown): number {
  const start = process.cpuUsage();
  for (let r = 0; r < repeat; r++) for (const item of items) work(item);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / (items.length * repeat);
}

const rounds = Number(args.rounds);
const chosen = targets(join(dist, 'image/site.db'), args.collection).targets.filter(
  (t) => COLD_TARGETS.includes(t.id) && (args.only === undefined || `${t.id} ${t.label}`.includes(args.only)),
);
const rows: ColdRow[] = [];
for (const target of chosen) {
  const paths = target.requests.map((r) => r.path);
  const statements = paths.map(capture);
  // At least 200 answers a round, so a round's CPU time is many clock ticks.
  const repeat = Math.max(1, Math.ceil(200 / paths.length));
  const answers: number[] = [];
  const floors: number[] = [];
  for (let round = -2; round < rounds; round++) {
    // The first two rounds warm the JIT and are not counted; the order alternates.
    const answered = () => cpuPer(paths, repeat, answer);
    const alone = () => cpuPer(statements, repeat, (ran) => ran.forEach(run));
    let a: number;
    let s: number;
    if (round % 2 === 0) {
      a = answered();
      s = alone();
    } else {
      s = alone();
      a = answered();
    }
    if (round >= 0) {
      answers.push(a);
      floors.push(s);
    }
  }
  const row: ColdRow = {
    id: target.id,
    label: target.label,
    request: target.request,
    statements: spread([statements.reduce((n, s) => n + s.length, 0) / statements.length], 1).median,
    answerUs: spread(answers, 1),
    statementsUs: spread(floors, 1),
  };
  rows.push(row);
  // Each round's answers and statements ran back to back, under the same load from other
  // processes: their quotient is steadier than the quotient of the two medians on a shared machine.
  const perRound = spread(
    answers.map((a, i) => a / floors[i]!),
    2,
  );
  console.error(
    `· ${target.label}: answer ${row.answerUs.median} µs, statements ${row.statementsUs.median} µs, per round ÷ ${perRound.median} (${perRound.min}–${perRound.max})`,
  );
}

const results: ColdResults = { ...runFacts(), records: Number(args.records), collection: args.collection, rounds, rows };
console.log(coldTable(results).join('\n'));
if (args.out === undefined) writeResults(RESULTS_PATH, { cold: results });
else writeResults(args.out, { cold: results });
await generations.shutdown();
process.exit(0);
