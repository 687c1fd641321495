/**
 * A distinct-query flood against the real server (issue 12, D6): starts the built server
 * as `npm run serve` does, reads its idle RSS, sends `--count` requests
 * `GET /api/movies.json?q=<190 random characters>` (each a new answer to remember), and
 * reports RSS after the flood and its peak, beside the answer cache's budget. A
 * measurement, not a test: RSS depends on the machine and the allocator.
 * Usage: npm run build && node bench/flood.ts [-- --count 60000 --connections 32 --unicode --repeat 2 --report <dir> --server-flag=--optimize-for-size]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { LIMITS } from '../src/core/limits.ts';

const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: '60000' },
    connections: { type: 'string', default: '32' },
    length: { type: 'string', default: '190' },
    port: { type: 'string', default: '4399' },
    unicode: { type: 'boolean', default: false },
    /** Ask each query this many times in a row (2: every answer is admitted to the cache). */
    repeat: { type: 'string', default: '1' },
    /** A directory for Node diagnostic reports (V8 heap spaces, RSS) at idle and after the flood. */
    report: { type: 'string' },
    /** More Node/V8 flags for the server, after `npm run serve`'s own (`--optimize-for-size`). */
    'server-flag': { type: 'string', multiple: true, default: [] },
  },
});
const count = Number(args.count);
const length = Number(args.length);
const ASCII = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const UNICODE = `${ASCII}äöüßéèêçñПриветжщЖλμπΩ日本語漢字한국어`;
const alphabet = [...(args.unicode ? UNICODE : ASCII)];

const reportFlags = args.report ? ['--report-on-signal', '--report-signal=SIGUSR2', `--report-directory=${args.report}`] : [];
const child = spawn(process.execPath, ['--max-semi-space-size=4', ...args['server-flag'], ...reportFlags, 'server.ts'], {
  env: { ...process.env, PORT: args.port, HOST: '127.0.0.1', RATE_LIMIT_REQUESTS: String(count * 10) },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const base = await new Promise<string>((resolve, reject) => {
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    const match = /listening on (http:\/\/\S+)/.exec(output);
    if (match) resolve(match[1]!);
  });
  child.once('exit', (code) => reject(new Error(`server exited (${code}): ${output}`)));
});

const rssMiB = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const random = () => Array.from({ length }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('');

await fetch(`${base}/api/movies.json?q=warm`).then((r) => r.arrayBuffer());
await pause(2000);
const idle = rssMiB();
const report = () => args.report && child.kill('SIGUSR2');
report();
let peak = idle;
const sampler = setInterval(() => (peak = Math.max(peak, rssMiB())), 250);
let path = '';
let asked = 0;
const nextPath = () => {
  if (asked++ % Number(args.repeat) === 0) path = `/api/movies.json?${new URLSearchParams({ q: random() })}`;
  return path;
};
const started = performance.now();
// Each request a new path: autocannon asks setupRequest before every send.
const result = await autocannon({
  url: base,
  connections: Number(args.connections),
  amount: count,
  requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: nextPath() }) }],
});
const seconds = (performance.now() - started) / 1000;
const statuses = { '2xx': result['2xx'], non2xx: result.non2xx, errors: result.errors };
const after = rssMiB();
clearInterval(sampler);
// V8 shrinks the heap a while after allocation stops (its memory reducer); watch it settle.
const settled: [number, number][] = [];
for (const at of [5, 15, 30, 60]) {
  await pause((at - (settled.at(-1)?.[0] ?? 0)) * 1000);
  settled.push([at, rssMiB()]);
}
report();
await pause(1000);
child.kill('SIGTERM');

const budget = LIMITS.answerCacheBytes / 1024 / 1024;
const f = (n: number) => n.toFixed(1);
console.log(
  `${count} requests, each q ${args.repeat === '1' ? 'distinct' : `asked ${args.repeat} times`}, ${args.unicode ? 'Unicode' : 'ASCII'}, ${length} characters, in ${f(seconds)} s; statuses ${JSON.stringify(statuses)}`,
);
console.log(
  `RSS MiB: idle ${f(idle)}, after ${f(after)} (+${f(after - idle)}), peak ${f(peak)} (+${f(peak - idle)}); ${settled.map(([at, rss]) => `${at} s later ${f(rss)} (+${f(rss - idle)})`).join(', ')}`,
);
console.log(`answer cache budget ${f(budget)} MiB; budget + 20 % = ${f(budget * 1.2)} MiB over idle`);
