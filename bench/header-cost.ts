/**
 * What REST's header block costs a load generator on the same cores: the bare node:http
 * yardstick (bench/baseline.ts) answering REST page one's body size, beside the same
 * server answering REST page one's exact bytes — its 16 headers (RateLimit, Link, ETag,
 * CORS, Content-Signal…) and body, as the runtime sent them once. Runs alternate, three
 * each; the medians are printed. Usage: npm run bench:headers [-- --records 100000]
 * (needs the benchmark's build: npm run bench -- --build-only).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadGenerator } from './load.ts';
import { startNode } from './servers.ts';

const { values: args } = parseArgs({ options: { records: { type: 'string', default: '100000' }, collection: { type: 'string', default: 'tweets' }, seconds: { type: 'string', default: '8' } } });
const dist = resolve('.bench', `dist-${args.records}`);
const path = `/api/${args.collection}.json`;

// REST page one as the runtime answers it (hop-by-hop and per-answer fields aside).
const runtime = await startNode(['--max-semi-space-size=4', 'server.ts'], { DIST_DIR: dist, RATE_LIMIT_REQUESTS: String(Number.MAX_SAFE_INTEGER) });
const response = await fetch(`${runtime.base}${path}`);
const body = await response.text();
await runtime.stop();
const headers: Record<string, string> = {};
response.headers.forEach((value, name) => {
  if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) headers[name] = value;
});
const scratch = mkdtempSync(join(tmpdir(), 'header-cost-'));
const answerFile = join(scratch, 'answer.json');
writeFileSync(answerFile, JSON.stringify({ headers, body }));

const generator = loadGenerator();
const bytes = Buffer.byteLength(body);
const headerBytes = Object.entries(headers).reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0);
const figures: Record<'bare' | 'headers', number[]> = { bare: [], headers: [] };
for (let run = 0; run < 3; run++) {
  for (const kind of ['bare', 'headers'] as const) {
    const server = await startNode(kind === 'bare' ? ['bench/baseline.ts'] : ['bench/baseline.ts', '--answer', answerFile]);
    const request = [{ method: 'GET', path: kind === 'bare' ? `/${bytes}` : path }];
    await generator.run(server.base, request, { connections: 16, seconds: 1 });
    figures[kind].push((await generator.run(server.base, request, { connections: 16, seconds: Number(args.seconds) })).rps);
    await server.stop();
  }
}
rmSync(scratch, { recursive: true, force: true });
const median = (values: number[]) => [...values].sort((a, b) => a - b)[1]!;
console.log(`${generator.name}, ${path} (${bytes} bytes of body, ${Object.keys(headers).length} headers, ${headerBytes} bytes of header fields)`);
console.log(`bare node:http, 2 headers: ${Math.round(median(figures.bare))} req/s (${figures.bare.map(Math.round).join(', ')})`);
console.log(`bare node:http, REST's headers: ${Math.round(median(figures.headers))} req/s (${figures.headers.map(Math.round).join(', ')})`);
console.log(`ratio: ${(median(figures.headers) / median(figures.bare)).toFixed(2)}`);
