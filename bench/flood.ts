/**
 * A distinct-query flood against the real server (issue 12, D6): starts the built server
 * as `npm run serve` does, reads its idle RSS, sends `--count` requests
 * `GET /api/movies.json?q=<190 random characters>` (each a new answer to remember), and
 * reports RSS after the flood and its peak, beside the answer cache's budget. A
 * measurement, not a test: RSS depends on the machine and the allocator.
 * Usage: npm run build && node bench/flood.ts [-- --count 60000 --connections 32 --unicode]
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
  },
});
const count = Number(args.count);
const length = Number(args.length);
const ASCII = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const UNICODE = `${ASCII}äöüßéèêçñПриветжщЖλμπΩ日本語漢字한국어`;
const alphabet = [...(args.unicode ? UNICODE : ASCII)];

const child = spawn(process.execPath, ['--max-semi-space-size=4', 'server.ts'], {
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
let peak = idle;
const sampler = setInterval(() => (peak = Math.max(peak, rssMiB())), 250);
const started = performance.now();
// Each request a new path: autocannon asks setupRequest before every send.
const result = await autocannon({
  url: base,
  connections: Number(args.connections),
  amount: count,
  requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `/api/movies.json?${new URLSearchParams({ q: random() })}` }) }],
});
const seconds = (performance.now() - started) / 1000;
const statuses = { '2xx': result['2xx'], non2xx: result.non2xx, errors: result.errors };
const after = rssMiB();
await pause(5000);
const settled = rssMiB();
clearInterval(sampler);
child.kill('SIGTERM');

const budget = LIMITS.answerCacheBytes / 1024 / 1024;
const f = (n: number) => n.toFixed(1);
console.log(`${count} distinct ${args.unicode ? 'Unicode' : 'ASCII'} q of ${length} characters in ${f(seconds)} s; statuses ${JSON.stringify(statuses)}`);
console.log(`RSS MiB: idle ${f(idle)}, after ${f(after)} (+${f(after - idle)}), peak ${f(peak)} (+${f(peak - idle)}), 5 s later ${f(settled)} (+${f(settled - idle)})`);
console.log(`answer cache budget ${f(budget)} MiB; budget + 20 % = ${f(budget * 1.2)} MiB over idle`);
