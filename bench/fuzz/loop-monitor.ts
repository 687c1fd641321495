/**
 * Loaded into the server the fuzzer starts (`node --import bench/fuzz/loop-monitor.ts
 * server.ts`, spawn.ts) and nothing else: it measures the server's own event loop and
 * answers the fuzzer's questions over the IPC channel: the longest the loop was held since
 * a given time, and the run's figures (`perf_hooks.monitorEventLoopDelay`, from when the
 * fuzzer said the server had started, so its start-up does not count). So whether the
 * server's event loop was held is measured inside the server, not guessed from when
 * answers reached the fuzzer, whose own event loop can be held too (a case that took the
 * fuzzer 48 s to generate once passed for a 48 s freeze of the server).
 *
 * The holds come from a timer of its own, which notes every time it ran late, with when:
 * a monitorEventLoopDelay histogram cannot be read by time span, since resetting one drops
 * the delay it is measuring at that moment (a hold that ended just before a reset is lost).
 *
 * Questions and answers: loop-delay.ts, which also asks them. Nothing here runs unless
 * the process has an IPC channel (a preload of the server the fuzzer started).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';
import type { LoopDelayAnswer, LoopDelayQuestion } from './loop-delay.ts';

/** How often the loop is sampled (milliseconds); a sample this much late or more is noted as a hold. */
const RESOLUTION_MS = 10;
const HOLD_MS = 20;
/** Holds remembered: far more than arrive while any request waits. */
const HOLDS_MAX = 5000;

if (isMainThread && process.send) {
  const send = process.send.bind(process);
  const run = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  run.enable();
  // The histogram holds the times between its samples (nanoseconds); the delay is what passes the sampling interval.
  const late = (ns: number) => Math.max(0, ns / 1e6 - RESOLUTION_MS);
  const now = () => performance.timeOrigin + performance.now();
  // Each time the sampler ran HOLD_MS or more late: when it ran (the end of the hold), and for how long the loop was held.
  const holds: { end: number; ms: number }[] = [];
  let last = now();
  const sample = () => {
    const at = now();
    const held = at - last - RESOLUTION_MS;
    last = at;
    if (held < HOLD_MS) return;
    holds.push({ end: at, ms: held });
    if (holds.length > HOLDS_MAX) holds.splice(0, holds.length - HOLDS_MAX);
  };
  setInterval(sample, RESOLUTION_MS).unref();
  process.on('message', (message: LoopDelayQuestion) => {
    if (message?.type !== 'loop-delay') return;
    // A hold that just ended is noted when the sampler next runs, which may come after
    // this message: answer after it has run.
    setTimeout(() => {
      let maxMs = 0;
      for (const h of holds) if (h.end >= message.since) maxMs = Math.max(maxMs, h.ms);
      const answer: LoopDelayAnswer = {
        type: 'loop-delay',
        id: message.id,
        maxMs,
        run: { maxMs: late(run.max), p99Ms: late(run.percentile(99)), meanMs: late(run.mean) },
      };
      send(answer);
      if (message.startRun) run.reset();
    }, RESOLUTION_MS + 1);
  });
  // The channel never keeps the server alive on its own.
  process.channel?.unref();
}
