/**
 * Loaded into the server the fuzzer starts (`node --import bench/fuzz/loop-monitor.ts
 * server.ts`, spawn.ts) and nothing else: it measures the server's own event-loop delay
 * (`perf_hooks.monitorEventLoopDelay`) and answers the fuzzer's questions over the IPC
 * channel: the longest delay since a given time, and the run's figures (from when the
 * fuzzer said the server had started, so its start-up does not count). So whether
 * the server's event loop was held is measured inside the server, not guessed from when
 * answers reached the fuzzer, whose own event loop can be held too (a case that took the
 * fuzzer 48 s to generate once passed for a 48 s freeze of the server).
 *
 * Questions and answers: loop-delay.ts, which also asks them. Nothing here runs unless
 * the process has an IPC channel (a preload of the server the fuzzer started).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';
import type { LoopDelayAnswer, LoopDelayQuestion } from './loop-delay.ts';

/** How finely the delay is sampled (milliseconds) and how long each span of the record lasts. */
const RESOLUTION_MS = 10;
const SPAN_MS = 100;
/** Spans remembered: two minutes, far more than any request waits. */
const SPANS_MAX = 1200;

if (isMainThread && process.send) {
  const send = process.send.bind(process);
  const span = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  const run = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  span.enable();
  run.enable();
  const now = () => performance.timeOrigin + performance.now();
  // The longest delay of each span, stamped with when the span was closed: a hold of the
  // loop ends before the timer that closes its span can run, so it lands in a span that
  // ends after it.
  const spans: { end: number; maxMs: number }[] = [];
  const close = () => {
    spans.push({ end: now(), maxMs: span.max / 1e6 });
    span.reset();
    if (spans.length > SPANS_MAX) spans.splice(0, spans.length - SPANS_MAX);
  };
  setInterval(close, SPAN_MS).unref();
  process.on('message', (message: LoopDelayQuestion) => {
    if (message?.type !== 'loop-delay') return;
    // The histograms record a hold when their sampling timer next runs, which may come
    // after this message when the hold just ended: answer once it has run.
    setTimeout(() => {
      close();
      let maxMs = 0;
      for (const s of spans) if (s.end >= message.since) maxMs = Math.max(maxMs, s.maxMs);
      const answer: LoopDelayAnswer = { type: 'loop-delay', id: message.id, maxMs, run: { maxMs: run.max / 1e6, p99Ms: run.percentile(99) / 1e6, meanMs: run.mean / 1e6 } };
      send(answer);
      if (message.startRun) run.reset();
    }, RESOLUTION_MS + 1);
  });
  // The channel never keeps the server alive on its own.
  process.channel?.unref();
}
