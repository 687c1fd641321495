/**
 * Asking a process started with loop-monitor.ts (`node --import <LOOP_MONITOR> …`, with an
 * IPC channel among its stdio) how long its own event loop was held.
 */
import type { ChildProcess } from 'node:child_process';
import { deadline } from './http.ts';

/** The module to `--import` into the watched process (a file: URL). */
export const LOOP_MONITOR = new URL('./loop-monitor.ts', import.meta.url).href;

export interface LoopDelayQuestion {
  type: 'loop-delay';
  id: number;
  /** Epoch milliseconds (`performance.timeOrigin + performance.now()`). */
  since: number;
  /** Start the run's figures afresh once answered (when the server has started: its start-up is not serving). */
  startRun?: boolean;
}

export interface LoopDelay {
  /** The longest the event loop was held since `since`, in ms. */
  maxMs: number;
  /** The run so far (the process's life since the last `startRun`): how late the event loop ran, past a 10 ms sampling interval. */
  run: { maxMs: number; p99Ms: number; meanMs: number };
}

export interface LoopDelayAnswer extends LoopDelay {
  type: 'loop-delay';
  id: number;
}

/**
 * A function that asks `child` for its event-loop delay since an epoch time; it resolves
 * undefined when no answer comes within `timeoutMs` (the child's event loop is held right
 * now) or the child cannot be asked (it exited).
 */
export function loopDelayOf(child: ChildProcess): (since: number, timeoutMs: number, startRun?: boolean) => Promise<LoopDelay | undefined> {
  let questions = 0;
  const waiting = new Map<number, (answer?: LoopDelayAnswer) => void>();
  child.on('message', (answer: LoopDelayAnswer) => {
    if (answer?.type === 'loop-delay') waiting.get(answer.id)?.(answer);
  });
  // The channel never keeps the fuzzer alive on its own.
  child.channel?.unref();
  return (since, timeoutMs, startRun = false) =>
    new Promise((resolve) => {
      if (!child.connected) return resolve(undefined);
      const id = ++questions;
      const timer = deadline(timeoutMs, () => done());
      const done = (answer?: LoopDelayAnswer) => {
        waiting.delete(id);
        clearTimeout(timer);
        resolve(answer && { maxMs: answer.maxMs, run: answer.run });
      };
      waiting.set(id, done);
      child.send({ type: 'loop-delay', id, since, startRun } satisfies LoopDelayQuestion, (error) => error && done());
    });
}
