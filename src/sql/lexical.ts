/**
 * Cheap lexical bounds on the raw SQL text, checked before the parser sees it. The parser
 * (node-sql-parser, a PEG parser) backtracks exponentially in nesting it cannot close:
 * 30 unclosed `(` in a 68-byte body once held the process for good. One linear pass
 * counts tokens and tracks the nesting of parentheses and brackets, skipping what the
 * parser reads as one literal: 'strings' and "quoted" or `backticked` identifiers, with
 * the parser's escapes, and comments (`--` to the end of the line, `/* … *\/` nested).
 * Where the parser would not close a literal or comment, the scan does not skip it
 * either: it counts on, so text the parser may still read as SQL is not hidden from the
 * bounds.
 *
 * Order: too deep or too many tokens is a `sql-limit` naming the budget (checked as the
 * scan goes, so it stops early); then unbalanced parentheses, a `sql-syntax`, without
 * parsing. Neither echoes the text. The worker's time budget bounds whatever passes.
 */
import { PublicError } from '../core/errors.ts';
import { LIMITS } from '../core/limits.ts';

const TWO_CHARACTER_OPERATORS = new Set(['<>', '<=', '>=', '!=', '::', '||']);
const CLOSER: Record<string, string> = { '(': ')', '[': ']' };
const UNICODE_SPACE = /\s/;

const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13) || (c >= 128 && UNICODE_SPACE.test(String.fromCharCode(c)));
const isDigit = (c: number) => c >= 48 && c <= 57;
/** Letters, digits, `_`, `$` and every non-ASCII character that is not a space. */
const isWordCharacter = (c: number) => isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 || (c >= 128 && !isSpace(c));

/**
 * The scan's memory of literals and comments that did not close, so a text of many
 * unclosed openers costs one pass, not one per opener (the scan stays linear).
 */
interface Unclosed {
  /** Quotes whose escaped reading already ran to the end of the text once. */
  escapes: Set<string>;
  /** A block comment already ran to the end of the text: later `/*` are counted, not skipped. */
  comment: boolean;
}

/**
 * Where the literal opened by the quote at `start` ends (the index after its closing
 * quote), or -1 when it does not close. As the parser reads it: first with escapes (a
 * backslash and the character after it; in 'strings' also a doubled quote); when that
 * never closes, at the next quote. Backticks take no escapes.
 */
function literalEnd(text: string, start: number, unclosed: Unclosed): number {
  const quote = text[start]!;
  const doubles = quote === "'";
  if (quote !== '`' && !unclosed.escapes.has(quote)) {
    for (let i = start + 1; i < text.length; i++) {
      const c = text[i];
      if (c === '\\') i++;
      else if (c === quote) {
        if (!doubles || text[i + 1] !== quote) return i + 1;
        i++;
      }
    }
    unclosed.escapes.add(quote);
  } else if (doubles && unclosed.escapes.has(quote)) {
    // An escaped reading from an earlier quote ran to the end, and this one runs in step
    // with it except through the run of quotes right here: only that run can close it.
    let i = start + 1;
    while (text[i] === quote && text[i + 1] === quote) i += 2;
    if (text[i] === quote) return i + 1;
  }
  const close = text.indexOf(quote, start + 1);
  return close === -1 ? -1 : close + 1;
}

/** Where the block comment opened at `start` ends (comments nest), or -1 when it does not close. */
function commentEnd(text: string, start: number, unclosed: Unclosed): number {
  if (unclosed.comment) return -1;
  let level = 0;
  for (let i = start; i < text.length - 1; i++) {
    if (text[i] === '/' && text[i + 1] === '*') {
      level++;
      i++;
    } else if (text[i] === '*' && text[i + 1] === '/') {
      level--;
      i++;
      if (level === 0) return i + 1;
    }
  }
  unclosed.comment = true;
  return -1;
}

/** The end of the number starting at `i`: digits, an optional fraction and exponent. */
function numberEnd(text: string, i: number): number {
  while (isDigit(text.charCodeAt(i))) i++;
  if (text[i] === '.' && isDigit(text.charCodeAt(i + 1))) for (i++; isDigit(text.charCodeAt(i)); i++);
  if (
    (text[i] === 'e' || text[i] === 'E') &&
    (isDigit(text.charCodeAt(i + 1)) || ((text[i + 1] === '+' || text[i + 1] === '-') && isDigit(text.charCodeAt(i + 2))))
  ) {
    for (i += 2; isDigit(text.charCodeAt(i)); i++);
  }
  return i;
}

/** Throws `sql-limit` (nesting, tokens) or `sql-syntax` (unbalanced parentheses); returns nothing when the text is within bounds. */
export function checkLexicalBounds(text: string): void {
  const open: string[] = [];
  const unclosed: Unclosed = { escapes: new Set(), comment: false };
  let balanced = true;
  let tokens = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    const pair = text.slice(i, i + 2);
    if (pair === '--') {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
      continue;
    }
    if (pair === '/*') {
      const end = commentEnd(text, i, unclosed);
      if (end !== -1) {
        i = end;
        continue;
      }
    }
    if (++tokens > LIMITS.sqlTokensMax) {
      throw new PublicError(
        'sql-limit',
        `The statement has more than ${LIMITS.sqlTokensMax} tokens (the SQL profile's token budget); send a shorter one, with shorter IN lists or fewer predicates.`,
      );
    }
    const character = text[i]!;
    if (character === "'" || character === '"' || character === '`') {
      const end = literalEnd(text, i, unclosed);
      i = end === -1 ? i + 1 : end;
    } else if (isDigit(c)) i = numberEnd(text, i);
    else if (isWordCharacter(c)) {
      while (i < text.length && isWordCharacter(text.charCodeAt(i))) i++;
    } else if (character === '(' || character === '[') {
      open.push(character);
      if (open.length > LIMITS.sqlParenDepthMax) {
        throw new PublicError(
          'sql-limit',
          `The statement nests parentheses deeper than ${LIMITS.sqlParenDepthMax} levels (the SQL profile's nesting budget); remove redundant ones or flatten the WHERE clause.`,
        );
      }
      i++;
    } else if (character === ')' || character === ']') {
      const opener = open.pop();
      if (opener === undefined || CLOSER[opener] !== character) balanced = false;
      i++;
    } else i += TWO_CHARACTER_OPERATORS.has(pair) ? 2 : 1;
  }
  if (!balanced || open.length > 0) {
    throw new PublicError(
      'sql-syntax',
      'The parentheses of the statement do not balance; every ( needs its ), and the SQL profile lists the accepted grammar.',
    );
  }
}
