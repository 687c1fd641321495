/**
 * The elements of one JSON array, read from a stream one at a time, so that an export of
 * a hundred thousand records (a Twitter archive's `tweets.js`) is never held whole. A
 * small splitter finds where each element starts and ends — it follows strings (with
 * their escapes) and the nesting of `{}` and `[]`, nothing more — and each element's text
 * is then read by `JSON.parse`, which checks everything else. The separators between
 * elements are checked here: JSON's whitespace (RFC 8259 §2: space, tab, line feed,
 * carriage return), one comma between two elements, none after the last. So the elements
 * are exactly those `JSON.parse` gives for the whole array, and an input it refuses is
 * refused here (tests/import/json-array.test.ts checks both against it).
 *
 * What may stand before the `[` and after the `]` is the caller's: nothing but whitespace
 * by default; a Twitter archive's `window.YTD.tweets.part0 = ` and a closing `;`.
 */
import { StringDecoder } from 'node:string_decoder';

export class JsonArrayError extends Error {}

export interface JsonArrayOptions {
  /** Why the text before the array's `[` is refused, or undefined to accept it. Default: anything but whitespace is refused. */
  head?: (text: string) => string | undefined;
  /** What may follow the closing `]`. Default: JSON whitespace. */
  tail?: RegExp;
}

/** The head and the tail are read whole; past this many characters they are refused. */
const EDGE_CHARS_MAX = 4096;
const JSON_WHITESPACE = /^[ \t\n\r]*$/;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const isWhitespace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Where the splitter is: before the `[`, between elements (expecting one, or a separator), inside one, after the `]`. */
type State = 'head' | 'first' | 'value' | 'inside' | 'after' | 'tail';

/** Cuts the text of a JSON array, given piece by piece, into the texts of its elements. */
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
  constructor(options: JsonArrayOptions = {}) {
    this.options = options;
  }

  private fail(reason: string, at: number): never {
    throw new JsonArrayError(`${reason} at character ${this.offset + at}`);
  }

  private checkHead(): void {
    const refused = this.options.head ? this.options.head(this.edge) : JSON_WHITESPACE.test(this.edge) ? undefined : 'expected a JSON array';
    if (refused !== undefined) throw new JsonArrayError(refused);
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
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      switch (this.state) {
        case 'head':
          if (c === OPEN_BRACKET) {
            this.edge += text.slice(start, i);
            this.checkHead();
            this.edge = '';
            this.state = 'first';
          } else if (this.edge.length + i - start > EDGE_CHARS_MAX) {
            this.edge += text.slice(start, i);
            this.checkHead();
            this.fail('expected a JSON array', i);
          }
          break;
        case 'tail':
          break;
        case 'first':
        case 'value':
          if (isWhitespace(c)) break;
          if (c === CLOSE_BRACKET && this.state === 'first') {
            this.state = 'tail';
            start = i + 1;
            break;
          }
          if (c === COMMA || c === CLOSE_BRACKET || c === CLOSE_BRACE) this.fail(`unexpected ${text[i]}`, i);
          this.state = 'inside';
          start = i;
          this.depth = 0;
          this.inString = c === QUOTE;
          if (c === OPEN_BRACE || c === OPEN_BRACKET) this.depth = 1;
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
          else if (c === CLOSE_BRACKET) {
            this.state = 'tail';
            start = i + 1;
          } else this.fail(`expected , or ] after an element, not ${text[i]}`, i);
          break;
      }
    }
    if (this.state === 'inside') this.pieces.push(text.slice(start));
    else if (this.state === 'head' || this.state === 'tail') {
      this.edge += text.slice(start);
      if (this.state === 'tail' && this.edge.length > EDGE_CHARS_MAX) this.fail('unexpected text after the array', text.length);
    }
    this.offset += text.length;
    return done;
  }

  /** The input has ended: refuses an array that was never opened or never closed. */
  end(): void {
    if (this.state === 'head') {
      this.checkHead();
      throw new JsonArrayError('expected a JSON array');
    }
    if (this.state !== 'tail') throw new JsonArrayError('the array is cut short: it has no closing ]');
    if (!(this.options.tail ?? JSON_WHITESPACE).test(this.edge)) throw new JsonArrayError('unexpected text after the array');
  }
}

/** The elements of the JSON array in `source` (UTF-8 bytes or text), parsed one at a time. */
export async function* jsonArrayElements(source: AsyncIterable<Buffer | string>, options: JsonArrayOptions = {}): AsyncGenerator<unknown> {
  const splitter = new JsonArraySplitter(options);
  const decoder = new StringDecoder('utf8');
  let index = 0;
  const parse = (text: string) => {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new JsonArrayError(`element ${index}: ${(error as Error).message}`);
    }
  };
  for await (const chunk of source) {
    for (const text of splitter.write(typeof chunk === 'string' ? chunk : decoder.write(chunk))) {
      yield parse(text);
      index++;
    }
  }
  for (const text of splitter.write(decoder.end())) {
    yield parse(text);
    index++;
  }
  splitter.end();
}
