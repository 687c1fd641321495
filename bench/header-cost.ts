/**
 * What REST's header block costs a load generator on the same cores: the bare node:http
 * yardstick (bench/baseline.ts) answering REST page one's body size, beside the same
 * server answering REST page one's exact bytes — its headers (RateLimit, Link, ETag,
 * CORS, Content-Signal…) and body, as the runtime sent them once. Runs alternate; the
 * medians are reported. `npm run bench` runs it after the REST rows (issue 31: the
 * header cost and the runtime's own cost, told apart); `npm run bench:headers [--
 * --records 100000]` runs it alone on the benchmark's build.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { HeaderCost } from '../src/compile/docs/bench-readme.ts';
import type { LoadGenerator } from './load.ts';
import { startNode } from './servers.ts';

export interface HeaderCostOptions {
  dist: string;
  /** The REST list whose answer is replayed, e.g. `/api/tweets.json`. */
  path: string;
  seconds: number;
  connections: number;
  runs: number;
  generator: LoadGenerator;
}

export async function measureHeaderCost({ dist, path, seconds, connections, runs, generator }: HeaderCostOptions): Promise<HeaderCost> {
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
  const bytes = Buffer.byteLength(body);
  const rps: Record<'bare' | 'headers', number[]> = { bare: [], headers: [] };
  try {
    for (let run = 0; run < runs; run++) {
      for (const kind of ['bare', 'headers'] as const) {
        const server = await startNode(kind === 'bare' ? ['bench/baseline.ts'] : ['bench/baseline.ts', '--answer', answerFile]);
        const request = [{ method: 'GET', path: kind === 'bare' ? `/${bytes}` : path }];
        await generator.run(server.base, request, { connections, seconds: 1 });
        rps[kind].push((await generator.run(server.base, request, { connections, seconds })).rps);
        await server.stop();
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return {
    path,
    bodyBytes: bytes,
    headers: Object.keys(headers).length,
    headerBytes: Object.entries(headers).reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0),
    bareRps: median(rps.bare),
    headersRps: median(rps.headers),
  };
}

if (import.meta.main) {
  const { values: args } = parseArgs({
    options: { records: { type: 'string', default: '100000' }, collection: { type: 'string', default: 'tweets' }, seconds: { type: 'string', default: '8' } },
  });
  const { loadGenerator } = await import('./load.ts');
  const generator = loadGenerator();
  const cost = await measureHeaderCost({
    dist: resolve('.bench', `dist-${args.records}`),
    path: `/api/${args.collection}.json`,
    seconds: Number(args.seconds),
    connections: 16,
    runs: 3,
    generator,
  });
  console.log(`${generator.name}, ${cost.path} (${cost.bodyBytes} bytes of body, ${cost.headers} headers, ${cost.headerBytes} bytes of header fields)`);
  console.log(`bare node:http, 2 headers: ${Math.round(cost.bareRps)} req/s`);
  console.log(`bare node:http, REST's headers: ${Math.round(cost.headersRps)} req/s`);
  console.log(`ratio: ${(cost.headersRps / cost.bareRps).toFixed(2)}`);
}
