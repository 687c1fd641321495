/**
 * `npm run bench`: generate a large content set, build it, and measure the compiler and
 * the REST runtime. Throughput and latency come from autocannon against the real server,
 * each scenario beside a bare node:http server answering a body of the same size in the
 * same run, so the figures are ratios on this machine rather than absolute claims.
 * Each request runs twice: against the normal server, whose answer cache replays
 * repeated queries, and against one with the cache off, where every request runs the
 * query (cold; site pages rendered on request are rendered every time). `--build-only` stops after the build figures (used for 1M records).
 * `--only <text>` loads only the scenarios whose label contains it (page one always runs,
 * as the reference of the deep-cursor ratio). `--only rebuild` measures the dev loop
 * instead (bench/rebuild.ts): an edit, an addition and a deletion, each from the file's
 * write to every surface answering the new data, beside the full build of the same run.
 * Usage: npm run bench [-- --records 100000 --seconds 8 --connections 16 --build-only --only search]
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import { collection } from '../src/collections/index.ts';
import { encodeCursor } from '../src/core/cursor.ts';
import { Image, recordsTable, sortColumn } from '../src/core/image.ts';
import { parseQuery } from '../src/core/params.ts';
import { queryBinding } from '../src/core/query.ts';
import { bindings } from '../src/graphql/schema.ts';
import { measureRebuild } from './rebuild.ts';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '16' },
    collection: { type: 'string', default: 'tweets' },
    'build-only': { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
const records = Number(args.records);
const seconds = Number(args.seconds);
const connections = Number(args.connections);
const root = resolve('.bench');
const content = join(root, `content-${records}`);
const dist = join(root, `dist-${records}`);
mkdirSync(root, { recursive: true });
const log = (line: string) => console.error(`· ${line}`);

// 1. Content, generated once per size.
if (!existsSync(join(content, '.generated'))) {
  log(`generating ${records} records`);
  const generated = spawnSync(process.execPath, ['bench/generate.ts', '--records', String(records), '--out', content], { stdio: 'inherit' });
  if (generated.status !== 0) process.exit(1);
}

// 2. Build under GNU time for the peak RSS of the whole build process.
log('building');
const buildStart = performance.now();
const build = spawnSync('/usr/bin/time', ['-f', 'maxrss_kb=%M', process.execPath, 'node_modules/astro/bin/astro.mjs', 'build'], {
  env: { ...process.env, CONTENT_DIR: content, DIST_DIR: dist },
  encoding: 'utf8',
  maxBuffer: 256 * 1024 * 1024,
});
const buildSeconds = (performance.now() - buildStart) / 1000;
const buildLog = `${build.stdout}${build.stderr}`;
if (build.status !== 0) {
  console.error(buildLog);
  process.exit(1);
}
const compileMs = Number(/compiled \d+ records in (\d+) ms/.exec(buildLog)?.[1]);
const buildRssMb = Number(/maxrss_kb=(\d+)/.exec(buildLog)?.[1]) / 1024;
const imagePath = join(dist, 'image/site.db');
const imageMb = statSync(imagePath).size / 1024 / 1024;

const f1 = (n: number) => n.toFixed(1);
const buildTable = [
  '| build | figure |',
  '| --- | --- |',
  `| compile (content → image → page-one files) | ${(compileMs / 1000).toFixed(2)} s |`,
  `| whole \`astro build\` | ${buildSeconds.toFixed(2)} s |`,
  `| peak RSS of the build | ${Math.round(buildRssMb)} MB |`,
  `| image size | ${f1(imageMb)} MB |`,
];
const header = `Benchmark: ${records.toLocaleString('en')} generated records, node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
if (args.only === 'rebuild') {
  // The dev loop beside the full build of the same run (bench/rebuild.ts).
  const figures = await measureRebuild(content, dist, log);
  const text = [
    header,
    '',
    ...buildTable,
    '',
    '| dev loop (`npm run dev`) | save → every surface answers | server: change seen → new generation | documents whose bytes changed |',
    '| --- | ---: | ---: | --- |',
    ...figures.map((f) => `| ${f.label} | ${(f.ms / 1000).toFixed(2)} s | ${(f.serverMs / 1000).toFixed(2)} s | ${f.changed.split(' ').map((p) => `\`${p}\``).join(' ')} |`),
  ].join('\n');
  console.log(text);
  writeFileSync(join(root, `results-rebuild-${records}.md`), `${text}\n`);
  process.exit(0);
}
if (args['build-only']) {
  const text = [header, '', ...buildTable].join('\n');
  console.log(text);
  writeFileSync(join(root, `results-${records}.md`), `${text}\n`);
  process.exit(0);
}

// 3. Requests for each scenario, drawn from the built image.
const name = args.collection;
const declaration = collection(name)!;
const image = new Image(imagePath);
const total = image.count(name);
const deepOffset = Math.floor(total * 0.9);
const query = parseQuery(declaration, new URLSearchParams());
const sortField = declaration.defaultSort[0]!.field;
const row = image.db
  .prepare(`SELECT cid, ${sortColumn(sortField)} AS k FROM ${recordsTable(name)} ORDER BY ${sortColumn(sortField)} DESC, cid DESC LIMIT 1 OFFSET ?`)
  .get(deepOffset) as { cid: string; k: string };
const deepCursor = encodeCursor(image.cursorKey, queryBinding(query), { values: [row.k], canonicalId: row.cid });
const words = (image.db.prepare(`SELECT json FROM ${recordsTable(name)} LIMIT 400`).all() as { json: string }[])
  .flatMap((r) => String((JSON.parse(r.json) as Record<string, unknown>)[declaration.search[0]!]).split(/\s+/))
  .filter((w) => /^\p{L}{5,}$/u.test(w));
const filterParam = Object.entries(declaration.filters).find(([, spec]) => spec.kind.type === 'string')?.[0] ?? Object.keys(declaration.filters)[0]!;
const recordIds = (image.db.prepare(`SELECT cid FROM ${recordsTable(name)} ORDER BY rid LIMIT 40`).all() as { cid: string }[]).map((r) => r.cid);
const filterValues = (image.db.prepare(`SELECT DISTINCT key FROM "${name}:tags" WHERE dim = ? LIMIT 40`).all(filterParam) as { key: string }[]).map((r) => r.key);
image.close();

const path = `/api/${name}.json`;
// autocannon checks methods against its own list, which predates QUERY (RFC 9110 allows
// any token; Node's http parser knows QUERY): add it so the SQL surface can be loaded too.
const autocannonMethods = createRequire(import.meta.url)('autocannon/lib/httpMethods') as string[];
if (!autocannonMethods.includes('QUERY')) autocannonMethods.push('QUERY');

/** A typical GraphQL connection query: page one of the same collection, three fields per node. */
const graphqlField = bindings.find((b) => b.collection.name === name)!.field;
const GRAPHQL_BODY = JSON.stringify({
  query: `{ ${graphqlField}(first: 50) { nodes { canonicalId ${declaration.search[0]} ${declaration.dateField} } pageInfo { hasNextPage endCursor } totalCount } }`,
});
/** A typical public SQL statement: the latest writing. */
const SQL_STATEMENT = 'SELECT title, published_at FROM public.writing ORDER BY published_at DESC LIMIT 10';
/**
 * The same question over REST and over an RPC HTTP batch: a filtered page of 50 movies and
 * its count. The batch is what the capnweb client sends for
 * `content.movies.matching({genre}).first(50)` then `records()` and `info()`, pipelined.
 */
const movieGenres = (() => {
  const db = new Image(join(dist, 'image/site.db'));
  const rows = db.db.prepare(`SELECT DISTINCT key FROM "movies:tags" WHERE dim = 'genre' LIMIT 20`).all() as { key: string }[];
  db.close();
  return rows.map((r) => r.key);
})();
const rpcBatch = (genre: string) =>
  [`["push",["pipeline",0,["content","movies","matching"],[${JSON.stringify({ genre })}]]]`, '["push",["pipeline",1,["first"],[50]]]', '["push",["pipeline",2,["records"],[]]]', '["push",["pipeline",2,["info"],[]]]', '["pull",3]', '["pull",4]'].join('\n');
const scenarios: { label: string; paths: string[]; method?: string; body?: string; headers?: Record<string, string>; bodies?: string[] }[] = [
  { label: 'page one', paths: [path] },
  { label: `filtered (${filterParam}=…)`, paths: filterValues.map((v) => `${path}?${filterParam}=${encodeURIComponent(v)}`) },
  { label: 'q search', paths: [...new Set(words)].slice(0, 40).map((w) => `${path}?q=${encodeURIComponent(w.toLowerCase())}`) },
  { label: `deep cursor (record ${deepOffset})`, paths: [`${path}?cursor=${deepCursor}`] },
  { label: 'GraphQL connection (first 50, 3 fields)', paths: ['/graphql'], method: 'POST', body: GRAPHQL_BODY, headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json' } },
  { label: 'cross-collection search (q=word)', paths: [...new Set(words)].slice(0, 40).map((w) => `/api/search.json?q=${encodeURIComponent(w.toLowerCase())}`) },
  { label: 'cross-collection search, dense (q=the, e, an, ing)', paths: ['the', 'e', 'an', 'ing'].map((w) => `/api/search.json?q=${w}`) },
  { label: 'feed-items (collection=…&since=…)', paths: ['concerts', 'movies', 'activities', 'books'].map((c) => `/api/feed-items.json?collection=${c}&collection=blog&since=2020-01-01`) },
  // The site: page one (a prerendered file), a filtered page and a record page (rendered on request, then remembered), their Markdown twins.
  { label: 'site: collection page (prerendered)', paths: [`/${name}/`], headers: { Accept: 'text/html' } },
  { label: 'site: collection page twin (prerendered Markdown)', paths: [`/${name}/`], headers: { Accept: 'text/markdown' } },
  { label: `site: filtered page (${filterParam}=…)`, paths: filterValues.map((v) => `/${name}/?${filterParam}=${encodeURIComponent(v)}`), headers: { Accept: 'text/html' } },
  { label: 'site: record page', paths: recordIds.map((id) => `/${name}/${id}`), headers: { Accept: 'text/html' } },
  { label: 'site: record page twin (Markdown)', paths: recordIds.map((id) => `/${name}/${id}`), headers: { Accept: 'text/markdown' } },
  { label: 'SQL QUERY (latest 10 writing)', paths: ['/api/sql'], method: 'QUERY', body: SQL_STATEMENT, headers: { 'Content-Type': 'application/sql' } },
  { label: 'pipelined question, REST: movies genre=…&limit=50', paths: movieGenres.map((g) => `/api/movies.json?genre=${encodeURIComponent(g)}&limit=50`) },
  { label: 'pipelined question, RPC batch: movies.matching({genre}).first(50) records() + info()', paths: ['/api/rpc'], method: 'POST', bodies: movieGenres.map(rpcBatch) },
];

// 4. Servers.
async function start(args: string[], env: Record<string, string> = {}): Promise<{ base: string; pid: number; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, args, { env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const base = await new Promise<string>((ok, fail) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) ok(m[1]!);
    });
    child.once('exit', () => fail(new Error(out)));
  });
  return {
    base,
    pid: child.pid!,
    stop: async () => {
      child.kill();
      await once(child, 'exit');
    },
  };
}

const rssMb = (pid: number, field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

interface Figures {
  rps: number;
  mean: number;
  p50: number;
  p99: number;
  bytes: number;
  errors: number;
}

async function load(base: string, paths: string[], request: { method?: string; body?: string; headers?: Record<string, string>; bodies?: string[] } = {}): Promise<Figures> {
  const requests = request.bodies
    ? request.bodies.map((body) => ({ method: (request.method ?? 'POST') as 'POST', path: paths[0]!, body, headers: request.headers }))
    : paths.map((p) => ({ method: (request.method ?? 'GET') as 'GET', path: p, body: request.body, headers: request.headers }));
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    requests,
  });
  return {
    rps: result.requests.average,
    mean: result.latency.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytes: result.throughput.average / Math.max(1, result.requests.average),
    errors: result.errors + result.non2xx,
  };
}

// The quota is lifted (one load generator is one client), but still counted on every request.
const unlimited = {
  DIST_DIR: dist,
  RATE_LIMIT_REQUESTS: String(Number.MAX_SAFE_INTEGER),
  SQL_RATE_LIMIT_REQUESTS: String(Number.MAX_SAFE_INTEGER),
  GRAPHQL_COST_BUDGET: String(Number.MAX_SAFE_INTEGER),
  RPC_SESSION_LIMIT: String(Number.MAX_SAFE_INTEGER),
};
// The same V8 flags as `npm run serve` (package.json): a 4 MB young generation keeps the
// server's peak RSS about 50 MB lower under load.
const serve = ['--max-semi-space-size=4', 'server.ts'];
const warm = await start(serve, unlimited);
const cold = await start(serve, { ...unlimited, ANSWER_CACHE_BYTES: '0', PAGE_CACHE_BYTES: '0' });
const idleRss = rssMb(warm.pid, 'VmRSS');
const rows: { label: string; warm: Figures; cold: Figures; bare: Figures }[] = [];
for (const scenario of scenarios) {
  if (args.only !== undefined && scenario.label !== 'page one' && !scenario.label.includes(args.only) && !scenario.label.startsWith('deep cursor')) continue;
  log(`loading: ${scenario.label}`);
  await load(warm.base, scenario.paths, scenario); // first pass fills the answer cache, as repeated traffic would
  const warmFigures = await load(warm.base, scenario.paths, scenario);
  const coldFigures = await load(cold.base, scenario.paths, scenario);
  const bare = await start(['bench/baseline.ts', String(Math.round(coldFigures.bytes))]);
  const bareFigures = await load(bare.base, ['/']);
  await bare.stop();
  rows.push({ label: scenario.label, warm: warmFigures, cold: coldFigures, bare: bareFigures });
}
const peakRss = { warm: rssMb(warm.pid, 'VmHWM'), cold: rssMb(cold.pid, 'VmHWM') };
await Promise.all([warm.stop(), cold.stop()]);

// 5. Report.
const ms = (n: number) => n.toFixed(2);
const pageOne = rows.find((r) => r.label === 'page one')!;
const deep = rows.find((r) => r.label.startsWith('deep cursor'))!;
const lines = [
  `${header}; ${name}: ${total.toLocaleString('en')} records; autocannon, ${connections} connections, ${seconds} s per run`,
  '',
  ...buildTable,
  `| runtime RSS idle / peak under load (answer cache on / off) | ${Math.round(idleRss)} MB / ${Math.round(peakRss.warm)} MB / ${Math.round(peakRss.cold)} MB |`,
  '',
  '| request | body bytes | req/s (answer cache) | req/s (cold) | cold mean / p99 ms | bare node:http req/s | ratio cached | ratio cold |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...rows.map(
    (r) =>
      `| ${r.label} | ${Math.round(r.cold.bytes)} | ${Math.round(r.warm.rps)} | ${Math.round(r.cold.rps)} | ${ms(r.cold.mean)} / ${r.cold.p99} | ${Math.round(r.bare.rps)} | ${(r.warm.rps / r.bare.rps).toFixed(2)} | ${(r.cold.rps / r.bare.rps).toFixed(2)} |`,
  ),
  '',
  `Deep cursor page vs page one, cold mean latency: ${ms(deep.cold.mean)} ms / ${ms(pageOne.cold.mean)} ms = ${(deep.cold.mean / pageOne.cold.mean).toFixed(2)}×. Errors and non-2xx answers: ${rows.reduce((n, r) => n + r.warm.errors + r.cold.errors, 0)}.`,
];
console.log(lines.join('\n'));
writeFileSync(join(root, `results-${records}.md`), `${lines.join('\n')}\n`);
