/**
 * Counting the operations of a capnweb message before capnweb sees it (SPEC §8: at most
 * 32 per HTTP batch, and per WebSocket message). A capnweb message is one JSON array per
 * line; every call and property read in it is an array expression whose first element
 * is `"pipeline"` (or `"remap"` for `.map()`), wherever it sits — a pushed expression,
 * an argument of another call, an instruction of a map. Literal arrays are escaped by
 * capnweb's encoding (wrapped in another array), so an array starting with that string
 * is always an expression. The walk is iterative (no recursion on hostile nesting) and
 * stops as soon as the bound is passed.
 */

export type OperationCount = { ok: true; operations: number } | { ok: false; reason: 'malformed' | 'too-many' };

const OPERATIONS = new Set(['pipeline', 'remap']);

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
    if (!Array.isArray(message)) return { ok: false, reason: 'malformed' };
    const stack: unknown[] = [message];
    while (stack.length > 0) {
      const value = stack.pop();
      if (Array.isArray(value)) {
        if (typeof value[0] === 'string' && OPERATIONS.has(value[0]) && ++operations > max) return { ok: false, reason: 'too-many' };
        for (const element of value) if (typeof element === 'object' && element !== null) stack.push(element);
      } else if (typeof value === 'object' && value !== null) {
        for (const element of Object.values(value)) if (typeof element === 'object' && element !== null) stack.push(element);
      }
    }
  }
  return { ok: true, operations };
}

/** The messages of an HTTP batch body: capnweb separates them with newlines. */
export const batchMessages = (body: string): string[] => (body === '' ? [] : body.split('\n'));
