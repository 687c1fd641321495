/**
 * The fuzz campaign's own honesty (bench/fuzz): a freeze is the server's event loop held,
 * never the fuzzer's. The 1,000,001-request run of seed 7 reported three "freezes" that
 * were the fuzzer itself: its music generator built bodies of up to 317 MB (48 s to
 * generate), its request timers fired before it read the answers that had arrived
 * meanwhile, and its heartbeat's gap was taken for the server's. Each test below shows
 * one of those fixed, by holding an event loop on purpose (durations here are lower
 * bounds that make a condition true, never limits on how fast anything must be).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { intersectionBody } from '../../bench/fuzz/gen/music.ts';
import { STALL_MS } from '../../bench/fuzz/health.ts';
import { Connection } from '../../bench/fuzz/http.ts';
import { LOOP_MONITOR, loopDelayOf } from '../../bench/fuzz/loop-delay.ts';
import { ROOT } from '../../bench/fuzz/spawn.ts';

/** Holds this thread's event loop for at least `ms`. */
const hold = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const epochNow = () => performance.timeOrigin + performance.now();

test('music bodies stay bounded: grown arrays are capped and no longer share what a later change edits (seed 61 built a 26 MB body, the campaign 317 MB)', () => {
  const profile = JSON.parse(readFileSync(join(ROOT, 'dist/client/.well-known/taste-profile.json'), 'utf8')) as unknown;
  // Three changes, each adding at most GROWN_ARRAY_BYTES_MAX (256 Ki) characters of at most 3 UTF-8 bytes, to a small profile.
  const bound = 3 * 3 * 256 * 1024 + 256 * 1024;
  const bodies = fc.sample(intersectionBody(profile), { seed: 61, numRuns: 256 });
  const largest = Math.max(...bodies.map((b) => b.length));
  assert.ok(largest <= bound, `the largest body of seed 61 has ${largest} bytes`);
});

test('an answer that arrived while the fuzzer’s own event loop was held past the timeout is a response, not a hang', async () => {
  // A server on another thread answers at once and says when its answer is written.
  const written = new Int32Array(new SharedArrayBuffer(4));
  const server = new Worker(
    `const { createServer } = require('node:net');
     const { parentPort, workerData } = require('node:worker_threads');
     const server = createServer((socket) => socket.on('data', () => socket.write('HTTP/1.1 200 OK\\r\\nContent-Length: 2\\r\\n\\r\\nok', () => { Atomics.store(workerData, 0, 1); Atomics.notify(workerData, 0); })));
     server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));`,
    { eval: true, workerData: written },
  );
  try {
    const [port] = (await once(server, 'message')) as [number];
    const connection = await Connection.open('127.0.0.1', port, 60_000);
    const timeoutMs = 50;
    const exchange = connection.exchange({ method: 'GET', target: '/', version: 'HTTP/1.1', headers: [['Host', 'x']] }, timeoutMs);
    // The answer is on its way while this thread is held; the hold lasts past the timeout.
    assert.notEqual(Atomics.wait(written, 0, 0, 60_000), 'timed-out');
    hold(timeoutMs * 2);
    const outcome = await exchange;
    assert.equal(outcome.kind, 'response');
    connection.destroy();
  } finally {
    await server.terminate();
  }
});

test('event-loop delay is measured inside the watched process: its own hold is seen, the fuzzer’s is not', async () => {
  const script = `process.on('message', (m) => { if (m === 'hold') { const end = Date.now() + ${STALL_MS + 200}; while (Date.now() < end); process.send('held'); } }); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', LOOP_MONITOR, '-e', script], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const ask = loopDelayOf(child);
    assert.ok(await ask(epochNow(), 60_000), 'the watched process answers');
    // The fuzzer's own event loop held (as when it generated a huge case): not the watched process's.
    const before = epochNow();
    hold(STALL_MS + 200);
    const calm = await ask(before, 60_000);
    assert.ok(calm && calm.maxMs < STALL_MS, `the watched process reported ${calm?.maxMs} ms`);
    // The watched process's own event loop held: seen.
    const since = epochNow();
    const held = new Promise((resolve) => child.on('message', (m) => m === 'held' && resolve(m)));
    child.send('hold');
    await held;
    const delay = await ask(since, 60_000);
    assert.ok(delay && delay.maxMs >= STALL_MS, `the watched process reported ${delay?.maxMs} ms`);
  } finally {
    child.kill('SIGKILL');
  }
});
