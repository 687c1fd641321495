/**
 * The benchmark's yardstick: a bare node:http server answering one fixed JSON body of a
 * given size, with no routing, parsing or querying. Ratios against it show what the
 * project's own work costs on this machine. Usage: node bench/baseline.ts <bytes>.
 */
import { createServer } from 'node:http';

const bytes = Number(process.argv[2] ?? 20_000);
const item = '{"canonicalId":"itm_000000000000000000000000","title":"x"},';
const body = Buffer.from(`{"data":[${item.repeat(Math.max(0, Math.floor((bytes - 40) / item.length))).slice(0, -1)}]}`.padEnd(bytes, ' '));

const server = createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
});
