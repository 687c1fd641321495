/**
 * `feed.stream(options)`: every feed item of a feed selection exactly once, newest first,
 * as a finite `ReadableStream` capnweb carries over a WebSocket with flow control. The
 * stream is pull-driven: one core page (`rpcStreamChunkItems` items) is read only when
 * the client's side asks for more, walking the same keyset cursors as REST, so a stream
 * holds no snapshot and a slow reader costs nothing. Each page is charged to the session
 * like a `records()` of its size; an exhausted budget errors the stream with
 * RESOURCE_LIMIT. The stream closes after the last page: no subscription, nothing pushed
 * afterwards.
 */
import { LIMITS } from '../core/limits.ts';
import type { RpcContext } from './context.ts';
import { sendable } from './errors.ts';
import { Selection } from './selection.ts';
import { nativeRecord } from './values.ts';

export function feedStream(context: RpcContext, selection: Selection): ReadableStream<Record<string, unknown>> {
  const query = { ...Selection.queryOf(selection), limit: LIMITS.rpcStreamChunkItems };
  let cursor: string | undefined = query.cursor;
  let done = false;
  return new ReadableStream<Record<string, unknown>>(
    {
      pull(controller) {
        if (done) return;
        try {
          context.session.spend('feed.stream', query.limit + 1);
          const page = context.core.run({ ...query, cursor });
          for (const json of page.items) controller.enqueue(nativeRecord(query.collection, json));
          cursor = page.next;
          if (cursor === undefined) {
            done = true;
            controller.close();
          }
        } catch (error) {
          done = true;
          controller.error(sendable(error instanceof Error ? error : new Error(String(error))));
        }
      },
    },
    // One page ahead at most: the next page is read when the client has taken the last.
    { highWaterMark: 1 },
  );
}
