/**
 * The elements of one JSON array, read from a stream one at a time, so that an export of
 * a hundred thousand records (a Twitter archive's `tweets.js`) is never held whole; and
 * the same for the members of a JSON object (the import's ledger). A
 * small splitter finds where each element starts and ends — it follows strings (with
 * their escapes) and the nesting of `{}` and `[]`, nothing more — and each element's text
 * is then read by `JSON.parse`, which checks everything else. The separators between
 * elements are checked here: JSON's whitespace (RFC 8259 §2: space, tab, line feed,
 * carriage return), one comma between two elements, none after the last. So the elements
 * are exactly those `JSON.parse` gives for the whole array, and an input it refuses is
 * refused here (tests/import/json-array.test.ts checks both against it).
 *
 * What may stand before the `[` and after the `]` is the caller's: nothing but whitespace
 * by default; a Twitter archive's `window.YTD.tweets.part0 = ` and a closing `;`; the
 * ledger's `{"source": …, "records": ` and its closing `}`.
 */
import { StringDecoder } from 'node:string_decoder';
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE } from '../core/json-bytes.ts';

export class JsonArrayError extends Error {}

export interface JsonArrayOptions {
  /**
   * Whether the container opens at this `[` (or `{`), given the text before it: true, or
   * false to read on (the character is then part of the head), or why the head is
   * refused. Called with `end` true when the input or EDGE_CHARS_MAX ends the head first.
   * Default: only whitespace may come first.
   */
  head?: (text: string, end: boolean) => boolean | string;
  /** What may follow the container's close. Default: JSON whitespace. */
  tail?: RegExp;
  /** `object`: split a JSON object into its members (`"key": value`) instead. */
  container?: 'array' | 'object';
}

/** The head and the tail are read whole; past this many characters they are refused. */
const EDGE_CHARS_MAX = 4096;
const JSON_WHITESPACE = /^[ \t\n\r]*$/;

const isWhitespace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

const defaultHead = (text: string) => JSON_WHITESPACE.test(text) || 'expected a JSON array';

/**
 * Where the splitter is: before the container opens; expecting its first element or
 * another after a comma; in a member's key, before its colon, before its value; inside an
 * element; after one; after the container closed.
 */
type State = 'head' | 'first' | 'value' | 'key' | 'colon' | 'member' | 'inside' | 'after' | 'tail';

/** Cuts the text of a JSON array (or object), given piece by piece, into the texts of its elements (or members). */
export class JsonArraySplitter {
  private state: State = 'head';
  private edge = '';
  private pieces: string[] = [];
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Characters seen, for messages. */
  private offset = 0;
  private readonly options: JsonArrayOptions;
  private readonly open: number;
  private readonly close: number;
  constructor(options: JsonArrayOptions = {}) {
    this.options = options;
    [this.open, this.close] = options.container === 'object' ? [OPEN_BRACE, CLOSE_BRACE] : [OPEN_BRACKET, CLOSE_BRACKET];
  }

  private fail(reason: string, at: number): never {
    throw new JsonArrayError(`${reason} at character ${this.offset + at}`);
  }

  /** The head's verdict: open here (true), read on (false), or refused. */
  private checkHead(end: boolean): boolean {
    const verdict = (this.options.head ?? defaultHead)(this.edge, end);
    if (typeof verdict === 'string') throw new JsonArrayError(verdict);
    if (end) throw new JsonArrayError(`expected a JSON ${this.options.container ?? 'array'}`);
    return verdict;
  }

  /** Feeds the next piece of the text; returns the texts of the elements it completes. */
  write(text: string): string[] {
    const done: string[] = [];
    let start = 0;
    const finish = (end: number) => {
      this.pieces.push(text.slice(start, end));
      done.push(this.pieces.length === 1 ? this.pieces[0]! : this.pieces.join(''));
      this.pieces = [];
      this.state = 'after';
    };
    const beginValue = (c: number) => {
      this.state = 'inside';
      this.depth = c === OPEN_BRACE || c === OPEN_BRACKET ? 1 : 0;
      this.inString = c === QUOTE;
    };
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      switch (this.state) {
        case 'head':
          if (c === this.open) {
            const edge = this.edge;
            this.edge += text.slice(start, i);
            if (this.checkHead(false)) {
              this.edge = '';
              this.state = 'first';
            } else {
              this.edge = edge;
            }
          } else if (this.edge.length + i - start > EDGE_CHARS_MAX) {
            this.edge += text.slice(start, i);
            this.checkHead(true);
          }
          break;
        case 'tail':
          break;
        case 'first':
        case 'value':
          if (isWhitespace(c)) break;
          if (c === this.close && this.state === 'first') {
            this.state = 'tail';
            start = i + 1;
            break;
          }
          start = i;
          if (this.open === OPEN_BRACE) {
            if (c !== QUOTE) this.fail(`expected a member's "key", not ${text[i]}`, i);
            this.state = 'key';
            break;
          }
          if (c === COMMA || c === CLOSE_BRACKET || c === CLOSE_BRACE) this.fail(`unexpected ${text[i]}`, i);
          beginValue(c);
          break;
        case 'key':
          if (this.escaped) this.escaped = false;
          else if (c === BACKSLASH) this.escaped = true;
          else if (c === QUOTE) this.state = 'colon';
          break;
        case 'colon':
          if (isWhitespace(c)) break;
          if (c !== COLON) this.fail(`expected : after a member's key, not ${text[i]}`, i);
          this.state = 'member';
          break;
        case 'member':
          if (isWhitespace(c)) break;
          if (c === COMMA || c === CLOSE_BRACKET || c === CLOSE_BRACE) this.fail(`unexpected ${text[i]}`, i);
          beginValue(c);
          break;
        case 'inside':
          if (this.inString) {
            if (this.escaped) this.escaped = false;
            else if (c === BACKSLASH) this.escaped = true;
            else if (c === QUOTE) {
              this.inString = false;
              if (this.depth === 0) finish(i + 1);
            }
          } else if (c === QUOTE) this.inString = true;
          else if (c === OPEN_BRACE || c === OPEN_BRACKET) this.depth++;
          else if (this.depth > 0 && (c === CLOSE_BRACE || c === CLOSE_BRACKET)) {
            if (--this.depth === 0) finish(i + 1);
          } else if (this.depth === 0 && (isWhitespace(c) || c === COMMA || c === CLOSE_BRACKET || c === CLOSE_BRACE)) {
            // The end of a number, `true`, `false` or `null`: the character belongs to what follows.
            finish(i);
            i--;
          }
          break;
        case 'after':
          if (isWhitespace(c)) break;
          if (c === COMMA) this.state = 'value';
          else if (c === this.close) {
            this.state = 'tail';
            start = i + 1;
          } else this.fail(`expected , or ${String.fromCharCode(this.close)} after an element, not ${text[i]}`, i);
          break;
      }
    }
    if (this.state === 'head' || this.state === 'tail') {
      this.edge += text.slice(start);
      if (this.state === 'tail' && this.edge.length > EDGE_CHARS_MAX) this.fail(`unexpected text after the ${this.options.container ?? 'array'}`, text.length);
    } else if (this.state !== 'first' && this.state !== 'value' && this.state !== 'after') this.pieces.push(text.slice(start));
    this.offset += text.length;
    return done;
  }

  /** The input has ended: refuses a container that was never opened or never closed. */
  end(): void {
    const what = this.options.container ?? 'array';
    if (this.state === 'head') this.checkHead(true);
    if (this.state !== 'tail') throw new JsonArrayError(`the ${what} is cut short: it has no closing ${String.fromCharCode(this.close)}`);
    if (!(this.options.tail ?? JSON_WHITESPACE).test(this.edge)) throw new JsonArrayError(`unexpected text after the ${what}`);
  }
}

/** Each text the splitter gives, parsed; the input decoded from UTF-8 across chunk boundaries. */
async function* splitAndParse<T>(source: AsyncIterable<Buffer | string>, splitter: JsonArraySplitter, parse: (text: string) => T): AsyncGenerator<T> {
  const decoder = new StringDecoder('utf8');
  let index = 0;
  const parsed = (text: string) => {
    try {
      return parse(text);
    } catch (error) {
      throw new JsonArrayError(`element ${index}: ${(error as Error).message}`);
    } finally {
      index++;
    }
  };
  for await (const chunk of source) {
    for (const text of splitter.write(typeof chunk === 'string' ? chunk : decoder.write(chunk))) yield parsed(text);
  }
  for (const text of splitter.write(decoder.end())) yield parsed(text);
  splitter.end();
}

/** The elements of the JSON array in `source` (UTF-8 bytes or text), parsed one at a time. */
export function jsonArrayElements(source: AsyncIterable<Buffer | string>, options: Omit<JsonArrayOptions, 'container'> = {}): AsyncGenerator<unknown> {
  return splitAndParse(source, new JsonArraySplitter(options), (text) => JSON.parse(text) as unknown);
}

/** Where a member's text (`"key": value`) ends its key. */
function keyEnd(text: string): number {
  let i = 1;
  while (text.charCodeAt(i) !== QUOTE) i += text.charCodeAt(i) === BACKSLASH ? 2 : 1;
  return i + 1;
}

/**
 * The members of the JSON object in `source`, as `[key, value]`, parsed one at a time (a
 * key given twice comes twice). The key is read as a JSON string, not as a key of a
 * parsed object: V8 in Node 24 may read an escaped object key as another one
 * (https://github.com/nodejs/node/issues/63785).
 */
export function jsonObjectMembers(
  source: AsyncIterable<Buffer | string>,
  options: Omit<JsonArrayOptions, 'container'> = {},
): AsyncGenerator<[string, unknown]> {
  return splitAndParse(source, new JsonArraySplitter({ ...options, container: 'object' }), (text) => {
    const end = keyEnd(text);
    const rest = text.slice(end);
    return [JSON.parse(text.slice(0, end)) as string, JSON.parse(rest.slice(rest.indexOf(':') + 1)) as unknown];
  });
}
