/**
 * Counting the operations of a capnweb message before capnweb sees it (SPEC §8: at most
 * 32 per HTTP batch, and per WebSocket message). A capnweb message is one JSON array per
 * line (`["push", expr]`, `["pull", id]`…), and the walk follows capnweb's expression
 * grammar (its `Evaluator`): `[[…]]` is an escaped literal array whose elements are
 * expressions; `["pipeline", id, path, args]` (and `["import", id, path, args]`) is a
 * property read or a call, one operation, whose `args` are expressions; `["remap", id,
 * path, captures, instructions]` is a `.map()`, one operation, whose instructions are
 * expressions (each counted); an object's values are expressions; any other tagged value
 * is walked for nested expressions. Paths are never walked, so no name can pass for an
 * operation. The walk is iterative (no recursion on hostile nesting) and stops as soon
 * as the bound is passed.
 */

export type OperationCount = { ok: true; operations: number } | { ok: false; reason: 'malformed' | 'too-many' };

const isArray = Array.isArray;

/** Operations in `lines` (capnweb messages, one JSON text each), up to `max` + 1. */
export function countOperations(lines: readonly string[], max: number): OperationCount {
  let operations = 0;
  for (const line of lines) {
    if (line === '') continue;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return { ok: false, reason: 'malformed' };
    }
    if (!isArray(message) || typeof message[0] !== 'string') return { ok: false, reason: 'malformed' };
    // The expression a message carries: push, stream, abort → [1]; resolve, reject → [2].
    const kind = message[0];
    const expressions: unknown[] =
      kind === 'push' || kind === 'stream' || kind === 'abort' ? [message[1]] : kind === 'resolve' || kind === 'reject' ? [message[2]] : [];
    while (expressions.length > 0) {
      const value = expressions.pop();
      if (isArray(value)) {
        if (value.length === 1 && isArray(value[0])) {
          expressions.push(...(value[0] as unknown[]));
          continue;
        }
        const tag = value[0];
        if (tag === 'pipeline' || tag === 'import') {
          if ((tag === 'pipeline' || value.length > 2) && ++operations > max) return { ok: false, reason: 'too-many' };
          if (isArray(value[3])) expressions.push(...(value[3] as unknown[]));
        } else if (tag === 'remap') {
          if (++operations > max) return { ok: false, reason: 'too-many' };
          if (isArray(value[4])) expressions.push(...(value[4] as unknown[]));
        } else {
          for (const element of value.slice(1)) if (typeof element === 'object' && element !== null) expressions.push(element);
        }
      } else if (typeof value === 'object' && value !== null) {
        expressions.push(...Object.values(value));
      }
    }
  }
  return { ok: true, operations };
}

/** The messages of an HTTP batch body: capnweb separates them with newlines. */
export const batchMessages = (body: string): string[] => (body === '' ? [] : body.split('\n'));
