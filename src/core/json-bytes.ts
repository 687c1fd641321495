/**
 * The code units of JSON's structural characters and its string delimiters (RFC 8259 §2,
 * §7), for the scanners that walk JSON text without parsing it: the import's array
 * splitter (src/import/json-array.ts, over UTF-16 code units) and the RPC wire pass
 * (src/rpc/wire.ts, over UTF-8 bytes). They are ASCII, so a byte and a code unit agree.
 */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
