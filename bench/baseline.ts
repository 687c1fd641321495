/**
 * The benchmark's yardstick: a bare node:http server answering `GET /<bytes>` with a fixed
 * JSON body of that many bytes, with no routing, parsing or querying beyond the number.
 * Ratios against it show what the project's own work costs on this machine, whatever the
 * machine. With `--answer <file>` (JSON: `{headers, body}`) it answers every request with
 * exactly that header block and body instead (bench/header-cost.ts).
 * Usage: node bench/baseline.ts [--answer <file>] (prints `listening on <url>`).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({ options: { answer: { type: 'string' } } });
const fixed = args.answer === undefined ? undefined : (JSON.parse(readFileSync(args.answer, 'utf8')) as { headers: Record<string, string>; body: string });
const fixedBody = fixed && Buffer.from(fixed.body);

const item = '{"canonicalId":"itm_000000000000000000000000","title":"x"},';
const bodies = new Map<number, Buffer>();
function body(bytes: number): Buffer {
  let b = bodies.get(bytes);
  if (!b) {
    b = Buffer.from(`{"data":[${item.repeat(Math.max(0, Math.floor((bytes - 40) / item.length))).slice(0, -1)}]}`.padEnd(bytes, ' '));
    bodies.set(bytes, b);
  }
  return b;
}

const server = createServer((req, res) => {
  if (fixed) {
    res.writeHead(200, fixed.headers);
    res.end(fixedBody);
    return;
  }
  const b = body(Number(req.url!.slice(1)) || 0);
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': b.length });
  res.end(b);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
});
