/**
 * Records that leave an HTTP batch pre-serialized (issue 42). capnweb answers a pulled
 * `records()` by turning each stored record into objects (dates as `Date`, URLs as
 * `URL`), walking them into a new tree and stringifying it: two fifths of a batch's CPU.
 * Where nothing in the batch can look at a `records()` answer but the client, the session
 * runs with a `WireHold` in its context: `records()` builds the page's wire form from
 * the stored bytes (src/rpc/wire.ts) and answers an opaque marker string in its place,
 * which capnweb carries like any string; the answer's bytes have each marker, quoted as
 * capnweb wrote it, replaced by the wire form it stands for. capnweb still reads,
 * evaluates, orders and numbers everything, so the answer is its own, byte for byte
 * (tests/rpc/preserialized-properties.test.ts runs generated batches both ways). A batch
 * qualifies (`preserializable`) when it holds only `push` and `pull` messages, no
 * `.map()` (`remap`), every call of a member named `records` is the whole expression of
 * its push (not an argument, not inside a literal), and no expression reads or passes the
 * export such a push makes: the only thing that can happen to its value is a pull, which
 * serializes it. A marker is never read by our code or capnweb's, so it only has to be
 * unguessable, which a random per-process prefix makes it.
 */
import { randomUUID } from 'node:crypto';

const isArray = Array.isArray;

/** Whether every `records()` answer of the batch (its messages, counted as well-formed) can only be pulled. */
export function preserializable(lines: readonly string[]): boolean {
  let pushes = 0;
  const recordsExports: number[] = [];
  const read = new Set<unknown>();
  for (const line of lines) {
    // An empty line aborts capnweb's session: that batch is answered the long way.
    if (line === '') return false;
    const message = JSON.parse(line) as unknown;
    if (!isArray(message)) return false;
    if (message[0] === 'pull') continue;
    if (message[0] !== 'push') return false;
    // capnweb numbers a batch's pushes 1, 2, 3… as its exports.
    pushes += 1;
    const top = message[1];
    if (isRecordsCall(top)) recordsExports.push(pushes);
    const expressions: unknown[] = [top];
    while (expressions.length > 0) {
      const value = expressions.pop();
      if (isArray(value)) {
        const tag = value[0];
        if (tag === 'remap') return false;
        if (tag === 'pipeline' || tag === 'import') {
          read.add(value[1]);
          if (value !== top && isRecordsCall(value)) return false;
        }
        for (const element of value) if (typeof element === 'object' && element !== null) expressions.push(element);
      } else if (typeof value === 'object' && value !== null) {
        for (const element of Object.values(value)) if (typeof element === 'object' && element !== null) expressions.push(element);
      }
    }
  }
  return recordsExports.length > 0 && recordsExports.every((id) => !read.has(id));
}

/** `["pipeline" | "import", id, [..., "records"], args]`: a call of a member named records. */
function isRecordsCall(value: unknown): boolean {
  if (!isArray(value) || value.length !== 4 || (value[0] !== 'pipeline' && value[0] !== 'import')) return false;
  const path = value[2];
  return isArray(path) && path[path.length - 1] === 'records';
}

/** Unguessable by a client: nothing a client sends can spell a marker, so only ours are swapped. */
const PREFIX = `rpc-wire:${randomUUID()}:`;
const QUOTED = new RegExp(`"${PREFIX}(\\d+)"`, 'g');

/** The wire forms one batch session holds, and the markers standing for them. */
export class WireHold {
  readonly #held: Uint8Array[] = [];

  /** A marker for `wire` (UTF-8 JSON text), answered where a value of type T would be: only capnweb's serializer ever sees it. */
  hold<T>(wire: Uint8Array): T {
    this.#held.push(wire);
    return `${PREFIX}${this.#held.length - 1}` as T;
  }

  /** The batch's answer (as capnweb wrote it) in UTF-8, every marker replaced by the wire form it stands for. */
  encode(answer: string): Buffer {
    if (this.#held.length === 0 || !answer.includes(PREFIX)) return Buffer.from(answer);
    const parts: Uint8Array[] = [];
    let copied = 0;
    for (const match of answer.matchAll(QUOTED)) {
      const wire = this.#held[Number(match[1])];
      if (wire === undefined) continue;
      parts.push(Buffer.from(answer.slice(copied, match.index)), wire);
      copied = match.index + match[0].length;
    }
    parts.push(Buffer.from(answer.slice(copied)));
    return Buffer.concat(parts);
  }
}
