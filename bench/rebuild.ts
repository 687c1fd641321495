/**
 * The dev loop's figures (`npm run bench -- --only rebuild`): the server `npm run dev`
 * runs (src/runtime/dev.ts --serve) on the benchmark's build, then one concert edited,
 * one place added and the same place deleted, each timed from the file's write to the
 * moment every surface that shows it answers the new data: REST (a `q` filter), GraphQL,
 * cross-collection search, the record page, the calendars or the map exports, the home
 * page's count. Documents are polled with If-None-Match, so polling a 30 MB export costs
 * a 304 until it changes. Each surface is polled on its own, over node:http, and its
 * bytes are searched as bytes: undici's fetch took 250–550 ms to hand over a 31 MB
 * calendar that node:http reads in 15–130 ms, and polling every surface in rounds made
 * each wait for the slowest, so the client, not the server, set the figure. The content
 * is left as generated, whatever happens.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeContentFile, writeContentFile } from '../src/owner/content-file.ts';

interface Check {
  name: string;
  path: string;
  /** Whether an answer (status, body) shows the new data. */
  ok: (status: number, body: Buffer) => boolean;
  init?: { method: string; headers: Record<string, string>; body: string };
}

const graphql = (field: string, q: string) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json' },
  body: JSON.stringify({ query: `{ ${field}(first: 1, filter: { q: ${JSON.stringify(q)} }) { nodes { canonicalId } } }` }),
});
const total = (body: Buffer) => Number(/"totalCount":(\d+)/.exec(body.toString())?.[1] ?? -1);
const nodes = (body: Buffer) => (JSON.parse(body.toString()) as { data?: Record<string, { nodes: unknown[] }> }).data;

/** One exchange over node:http: the status, the ETag and the body's bytes. */
function exchange(url: string, init: Check['init'], headers: Record<string, string>): Promise<{ status: number; etag?: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init?.method ?? 'GET', headers: { ...init?.headers, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, etag: res.headers.etag, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init?.body);
  });
}

/** Polls each check on its own until it passes; returns the milliseconds since `from` until all did, and when each did. */
async function until(base: string, checks: readonly Check[], from: number, timeoutMs = 120_000): Promise<{ ms: number; passed: Map<string, number> }> {
  const passed = new Map<string, number>();
  await Promise.all(
    checks.map(async (check) => {
      let etag: string | undefined;
      for (;;) {
        if (performance.now() - from > timeoutMs) throw new Error(`still waiting for ${check.name}`);
        const conditional: Record<string, string> = etag !== undefined && check.init === undefined ? { 'If-None-Match': etag } : {};
        const answer = await exchange(base + check.path, check.init, conditional);
        if (answer.status !== 304) {
          etag = answer.etag ?? etag;
          if (check.ok(answer.status, answer.body)) break;
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      passed.set(check.name, Math.round(performance.now() - from));
    }),
  );
  return { ms: performance.now() - from, passed };
}

export interface RebuildFigures {
  label: string;
  ms: number;
  /** The server's own figure: content change seen → new generation serving. */
  serverMs: number;
  changed: string;
}

export async function measureRebuild(content: string, dist: string, log: (line: string) => void): Promise<RebuildFigures[]> {
  const child = spawn(process.execPath, ['--max-semi-space-size=4', 'src/runtime/dev.ts', '--serve'], {
    env: {
      ...process.env,
      CONTENT_DIR: content,
      DIST_DIR: dist,
      PORT: '0',
      HOST: '127.0.0.1',
      RATE_LIMIT_REQUESTS: String(Number.MAX_SAFE_INTEGER),
      GRAPHQL_COST_BUDGET: String(Number.MAX_SAFE_INTEGER),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const lines: string[] = [];
  child.stdout!.on('data', (d: Buffer) => {
    output += d;
    const parts = output.split('\n');
    output = parts.pop()!;
    lines.push(...parts);
  });
  const waitFor = async (pattern: RegExp, after = 0): Promise<RegExpExecArray> => {
    for (;;) {
      for (const line of lines.slice(after)) {
        const match = pattern.exec(line);
        if (match) return match;
      }
      if (child.exitCode !== null) throw new Error(`the dev server stopped:\n${lines.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  let concertFile: string | undefined;
  let original: string | undefined;
  let placeFile: string | undefined;
  try {
    const base = (await waitFor(/listening on (http:\/\/\S+),/))[1]!;
    log('dev server up; warming');
    log((await waitFor(/ready for edits.*/))[0]);
    const figures: RebuildFigures[] = [];
    const step = async (label: string, write: () => void, checks: Check[]) => {
      const seen = lines.length;
      const from = performance.now();
      write();
      const { ms, passed } = await until(base, checks, from);
      const served = await waitFor(/generation \d+ serving in (\d+) ms .*changed: (.*)$/, seen);
      figures.push({ label, ms, serverMs: Number(served[1]), changed: served[2]! });
      log(`${label}: ${Math.round(ms)} ms; ${served[0].replace(/^\[dev\] /, '')}`);
      log(`  each surface answered the new data after: ${[...passed].map(([name, at]) => `${name} ${at} ms`).join(', ')}`);
    };

    // Edit: a concert's title, in a part file of 1,000 records.
    const concert = join(
      content,
      'concerts',
      readdirSync(join(content, 'concerts'))
        .filter((f) => f.endsWith('.yaml'))
        .sort()[0]!,
    );
    const text = readFileSync(concert, 'utf8');
    [concertFile, original] = [concert, text];
    const token = `Rebuildbench${Date.now().toString(36)}`;
    const edited = text.replace(/\n {2}title: (.*)\n/, `\n  title: ${token}\n`);
    if (edited === text) throw new Error(`${concert}: no title to edit`);
    const listed = (collection: string, q: string, count: number) => [
      { name: `REST ${collection}`, path: `/api/${collection}.json?q=${q}`, ok: (_s: number, b: Buffer) => total(b) === count },
      {
        name: `GraphQL ${collection}`,
        path: '/graphql',
        init: graphql(collection, q),
        ok: (_s: number, b: Buffer) => nodes(b)?.[collection]?.nodes.length === count,
      },
      { name: 'search', path: `/api/search.json?q=${q}`, ok: (_s: number, b: Buffer) => total(b) === count },
    ];
    await step('edit one record (a concert)', () => writeContentFile(concert, edited), [
      ...listed('concerts', token, 1),
      { name: '/calendar.ics', path: '/calendar.ics', ok: (_s, b) => b.includes(token) },
      { name: '/concerts.ics', path: '/concerts.ics', ok: (_s, b) => b.includes(token) },
    ]);

    // Add and delete: a place, in a file of its own.
    const placePath = join(content, 'places', 'zz-rebuild-bench.yaml');
    placeFile = placePath;
    const place = `Rebuildplace${Date.now().toString(36)}`;
    const home = await (await fetch(`${base}/`)).text();
    // The home page's lede: `<p class="lede …">1947 public records in 17 collections`.
    const count = Number(/>(\d+) public records/.exec(home)?.[1]);
    const homeShows = (n: number) => (_s: number, b: Buffer) => b.includes(`>${n} public records`);
    const exportsShow = (present: boolean) =>
      ['/places.geojson', '/places.kml', '/places.gpx'].map((path) => ({ name: path, path, ok: (_s: number, b: Buffer) => b.includes(place) === present }));
    await step(
      'add one record (a place)',
      () =>
        writeContentFile(
          placePath,
          `name: ${place}\ncategory: coffee\ncity: Zurich\ncountry: Switzerland\ncoordinates: { latitude: 47.3769, longitude: 8.5417 }\ncoordinatesSource: manual\n`,
        ),
      [...listed('places', place, 1), ...exportsShow(true), { name: 'home page', path: '/', ok: homeShows(count + 1) }],
    );
    await step('delete one record (the place)', () => removeContentFile(placePath), [
      ...listed('places', place, 0),
      ...exportsShow(false),
      { name: 'home page', path: '/', ok: homeShows(count) },
    ]);
    return figures;
  } catch (error) {
    console.error(lines.join('\n'));
    throw error;
  } finally {
    // Leave the content as generated.
    if (concertFile !== undefined && original !== undefined) writeContentFile(concertFile, original);
    if (placeFile !== undefined && existsSync(placeFile)) removeContentFile(placeFile);
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}
