/**
 * What the runtime itself spends on a remembered answer, without a load generator or the
 * network: real node:http request and response objects on a socket that discards what it
 * is given, sent through the runtime's dispatcher (replay, quota, preconditions, Host,
 * generation hold), beside the same answer written directly by the runtime's writer
 * (`write`: the fields that change through `writeHead`, the fixed ones as serialized once),
 * the floor for the same head and body. Rounds alternate; the figures are µs
 * per answer in this process. Under wrk the machine's noise hides differences of a few
 * µs, which this shows (issue 31).
 * Usage: node bench/dispatch-cost.ts [--records 100000] [--path /api/tweets.json] [--answers 100000]
 * (run `npm run bench -- --build-only` first: it uses the benchmark's build).
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readConfig } from '../src/config.ts';
import type { Answer } from '../src/http/answer.ts';
import { drainingDispatcher, Lifecycle } from '../src/runtime/drain.ts';
import { Generations } from '../src/runtime/generations.ts';
import { write } from '../src/runtime/node.ts';
import { runtimeOptionsFrom } from '../src/runtime/runtime.ts';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    path: { type: 'string', default: '/api/tweets.json' },
    answers: { type: 'string', default: '100000' },
  },
});
const settings = readConfig({ ...process.env, DIST_DIR: join('.bench', `dist-${args.records}`), RATE_LIMIT_REQUESTS: String(Number.MAX_SAFE_INTEGER) });
const generations = await Generations.open({
  ...runtimeOptionsFrom(settings),
  processState: { draining: false },
  contentDir: settings.CONTENT_DIR,
  siteAuthor: settings.SITE_AUTHOR,
});
const dispatcher = drainingDispatcher(generations.dispatcher(), new Lifecycle());

// The remembered answer itself: asked twice (remembered from the second time), then replayed.
const path = args.path;
const rest = generations.current().rest;
const facts = { method: 'GET', url: new URL(`http://runtime.invalid${path}`), target: path, peer: '127.0.0.1', header: () => null };
rest(facts);
rest(facts);
const remembered = rest.replay(facts) as Answer | undefined;
if (remembered?.status !== 200) throw new Error(`${path} is not a remembered list`);

/** One GET of `path` on a fresh socket that discards its bytes, answered by the dispatcher or written directly. */
function answer(through: 'dispatcher' | 'direct'): void {
  const socket = new Writable({ writev: (_chunks, done) => done(), write: (_chunk, _encoding, done) => done() }) as Writable & { remoteAddress: string };
  socket.remoteAddress = '127.0.0.1';
  const req = new IncomingMessage(socket as never);
  Object.assign(req, { httpVersionMajor: 1, httpVersionMinor: 1, httpVersion: '1.1', method: 'GET', url: path, rawHeaders: ['Host', '127.0.0.1'] });
  const res = new ServerResponse(req);
  res.shouldKeepAlive = true;
  res.assignSocket(socket as never);
  if (through === 'dispatcher') dispatcher.request(req, res);
  else write(res, remembered!);
  res.detachSocket(socket as never);
  res.emit('close');
}

/** µs per answer over `count` answers, yielding to the event loop now and then as a server does. */
async function measure(through: 'dispatcher' | 'direct', count: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    answer(through);
    if (i % 500 === 0) await new Promise(setImmediate);
  }
  return Number(process.hrtime.bigint() - start) / count / 1000;
}

const count = Number(args.answers);
const figures: Record<'dispatcher' | 'direct', number[]> = { dispatcher: [], direct: [] };
for (let round = 0; round < 4; round++) {
  for (const through of ['direct', 'dispatcher'] as const) {
    const us = await measure(through, round === 0 ? count / 5 : count);
    // The first round warms the JIT and is not counted.
    if (round > 0) figures[through].push(us);
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const direct = median(figures.direct);
const through = median(figures.dispatcher);
console.log(
  `${path}: written directly ${direct.toFixed(2)} µs, through the dispatcher ${through.toFixed(2)} µs per answer; the runtime's own work ${(through - direct).toFixed(2)} µs`,
);
await generations.shutdown();
process.exit(0);
