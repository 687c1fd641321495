/**
 * Record text as the XML writers (KML, GPX, Atom) must hand it to xmlbuilder2 so that any
 * XML parser reads the same string back. Three things stand between a string and its
 * round trip:
 *
 * - xmlbuilder2 escapes `&` only where it does not already begin something entity-like
 *   (`/&(?![A-Za-z]+;|#\d+;)/`, in its BaseWriter), so `&amp;` or `&lt;` in a name would
 *   be read back as `&` or `<`, and `&nbsp;` would make the document ill-formed. The `&`
 *   it leaves alone is escaped here, exactly there, and nowhere else: every other
 *   document keeps its bytes.
 * - XML 1.0 §2.11 turns a carriage return (alone or before a line feed) into a line feed,
 *   and §3.3.3 turns tab, line feed and carriage return in an attribute value into
 *   spaces; written as character references they survive both. Some parsers (xmldom
 *   among them) also take U+0085, U+2028 and U+2029 for line ends, as XML 1.1 does for
 *   the first two: those are written as references too, which no parser normalizes.
 * - XML 1.0 cannot carry some characters at all (§2.2, `Char`): the C0 controls other
 *   than tab, line feed and carriage return, unpaired surrogates, U+FFFE and U+FFFF.
 *   Not even as references. Each becomes U+FFFD REPLACEMENT CHARACTER, so the text
 *   keeps its length in characters and shows where something was lost.
 */

/** What XML 1.0's `Char` production excludes (a surrogate counts only when unpaired). */
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** The `&`s xmlbuilder2 writes as they are (the complement of its own pattern). */
const ENTITY_LIKE_AMPERSAND = /&(?=[A-Za-z]+;|#\d+;)/g;

/** What some parser reads as a line end, other than the line feed itself. */
const LINE_ENDS = /[\r\u0085\u2028\u2029]/g;

/** The replacement of a character XML 1.0 cannot carry. */
export const XML_REPLACEMENT = '\uFFFD';

/** `value` with every character XML 1.0 cannot carry replaced by U+FFFD: what a parser reads back. */
export const xmlRepresentable = (value: string) => value.replace(NOT_XML_CHAR, XML_REPLACEMENT);

/** `value` as xmlbuilder2's `.txt()` must be given it for a parser to read `xmlRepresentable(value)` back. */
export function xmlText(value: string): string {
  return xmlRepresentable(value)
    .replace(ENTITY_LIKE_AMPERSAND, '&amp;')
    .replace(LINE_ENDS, (c) => `&#${c.charCodeAt(0)};`);
}

/** `value` as an attribute value given to xmlbuilder2, read back as `xmlRepresentable(value)`. */
export function xmlAttribute(value: string): string {
  return xmlText(value).replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');
}

/** The `&`s xmlbuilder2's serializer escapes (its `nonEntityAmpersandRegex`). */
const NON_ENTITY_AMPERSAND = /&(?![A-Za-z]+;|#\d+;)/g;
const MARKUP = /[&<>"]/;

/**
 * Text already made safe by `xmlText` as xmlbuilder2's serializer writes it in element
 * content (`&` not beginning an entity, `<`, `>` escaped), for writers that assemble
 * elements as strings: the same bytes, without building a document per element.
 */
export function serializedText(text: string): string {
  if (!MARKUP.test(text)) return text;
  return text.replace(NON_ENTITY_AMPERSAND, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute value as xmlbuilder2's serializer writes it (as `serializedText`, and `"`). */
export function serializedAttribute(value: string): string {
  if (!MARKUP.test(value)) return value;
  return serializedText(value).replace(/"/g, '&quot;');
}

/** A pretty-printed element holding only `text` (`serializedText` already), as xmlbuilder2 writes it: `<name/>` when empty. */
export const textElement = (indent: string, name: string, text: string) => (text === '' ? `${indent}<${name}/>` : `${indent}<${name}>${text}</${name}>`);
