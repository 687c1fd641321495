/**
 * The benchmark's one load generator: wrk when it is on PATH (a C client, so the server,
 * not the client, is the bottleneck), else autocannon (a devDependency, always there).
 * Both run a list of requests round-robin over keep-alive connections and report the same
 * figures, so the rest of the benchmark does not know which one ran.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';

export interface LoadRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Loaded {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
}

export interface LoadGenerator {
  /** Name and version, stated in the results. */
  name: string;
  run(base: string, requests: readonly LoadRequest[], options: { connections: number; seconds: number }): Promise<Loaded>;
}

export function loadGenerator(): LoadGenerator {
  const wrk = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  if (!wrk.error) return wrkGenerator(/wrk \S+/.exec(`${wrk.stdout}${wrk.stderr}`)?.[0] ?? 'wrk', autocannonGenerator());
  return autocannonGenerator();
}

function autocannonGenerator(): LoadGenerator {
  const require = createRequire(import.meta.url);
  // autocannon checks methods against its own list, which predates QUERY (RFC 9110 allows
  // any token; Node's http parser knows QUERY): add it so the SQL surface can be loaded too.
  const methods = require('autocannon/lib/httpMethods') as string[];
  if (!methods.includes('QUERY')) methods.push('QUERY');
  const version = (require('autocannon/package.json') as { version: string }).version;
  return {
    name: `autocannon ${version}`,
    async run(base, requests, { connections, seconds }) {
      let started = 0;
      const result = await autocannon({
        url: base,
        connections,
        duration: seconds,
        requests: requests.map((r) => ({ method: r.method as 'GET', path: r.path, headers: r.headers, body: r.body })),
        // Each connection would send every request in turn, from the first: instead connection
        // k sends requests k, k + connections, k + 2 × connections…, as wrk's round robin over
        // the connections does, so requests naming different clients (SQL) keep apart.
        setupClient: (client: { setRequests(requests: unknown[]): void }) => {
          const own = ownRequests(requests, started++, connections);
          client.setRequests(own.map((r) => ({ method: r.method, path: r.path, headers: r.headers, body: r.body })));
        },
      } as autocannon.Options);
      return {
        rps: result.requests.average,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        requests: result.requests.total,
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
      };
    },
  };
}

/** The requests connection `k` of `connections` sends: every `connections`-th from the `k`-th, round the list once. */
export function ownRequests<T>(requests: readonly T[], k: number, connections: number): T[] {
  const own: T[] = [];
  const seen = new Set<number>();
  for (let i = k % requests.length; !seen.has(i); i = (i + connections) % requests.length) {
    seen.add(i);
    own.push(requests[i]!);
  }
  return own;
}

/** A Lua string literal of any bytes: letters, digits and spaces as they are, every other byte as a three-digit decimal escape. */
export function luaString(text: string): string {
  return `"${[...Buffer.from(text)].map((b) => (/[A-Za-z0-9 ]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `\\${String(b).padStart(3, '0')}`)).join('')}"`;
}

/** wrk, except for QUERY requests: its request check predates the method, so those go to `fallback`. */
function wrkGenerator(name: string, fallback: LoadGenerator): LoadGenerator {
  return {
    name: `${name} (${fallback.name} for QUERY, which wrk refuses to send)`,
    async run(base, requests, options) {
      if (requests.some((r) => r.method === 'QUERY')) return fallback.run(base, requests, options);
      const { connections, seconds } = options;
      const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
      const script = join(dir, 'requests.lua');
      const table = requests
        .map((r) => {
          const headers = Object.entries(r.headers ?? {}).map(([k, v]) => `[${luaString(k)}] = ${luaString(v)}`);
          return `wrk.format(${luaString(r.method)}, ${luaString(r.path)}, {${headers.join(', ')}}, ${r.body === undefined ? 'nil' : luaString(r.body)})`;
        })
        .join(',\n  ');
      // One thread, as the issue's figures were taken; errors.status counts answers ≥ 400,
      // and the preflight has already checked that every request answers 2xx.
      writeFileSync(
        script,
        `local requests, i = {}, 0
init = function() requests = {\n  ${table}\n} end
request = function() i = i % #requests + 1; return requests[i] end
done = function(summary, latency)
  local e = summary.errors
  io.write(string.format('\\nRESULT %d %d %d %d %d %d\\n', summary.requests, summary.duration, math.floor(latency:percentile(50)), math.floor(latency:percentile(99)), e.status, e.connect + e.read + e.write + e.timeout))
end
`,
      );
      try {
        // Asynchronous, so the server's RSS is sampled while wrk runs.
        const out = await promisify(execFile)('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '-s', script, base], { encoding: 'utf8' });
        const m = /RESULT (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)/.exec(out.stdout);
        if (!m) throw new Error(`wrk: ${out.stdout}${out.stderr}`);
        const [total, durationUs, p50Us, p99Us, status, errors] = m.slice(1).map(Number) as [number, number, number, number, number, number];
        return { rps: total / (durationUs / 1e6), p50Ms: p50Us / 1000, p99Ms: p99Us / 1000, requests: total, non2xx: status, errors };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
