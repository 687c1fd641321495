/**
 * Scale-content generator for benchmarks: `npm run generate -- --records N --out DIR` writes N
 * plausible records, spread over every collection declared in `src/collections/`, as the
 * content files the compiler reads (YAML part files of 1,000 records, plus a small share of
 * Markdown files so the front-matter path is exercised too). It owns determinism (the same N
 * gives byte-identical files: one seeded PRNG stream per collection, fixed "today", no clock),
 * identity uniqueness (every identity is built from a bijection of the record's index, never
 * from luck), validity (records follow the declarations, enum values are read from the schemas,
 * and a sample is checked with each schema while writing) and scale (output is streamed part by
 * part with a small, hand-written YAML emitter, so memory stays flat at millions of records).
 * It owns nothing else: it never touches `content/`, and it only clears an output folder that is
 * empty or carries the `.generated` marker it wrote itself.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { CollectionDeclaration } from '../src/collections/define.ts';
import { collections, contentCollections } from '../src/collections/index.ts';
import {
  ADJECTIVES,
  BOOK_GENRES,
  CAMERAS,
  CITIES,
  CODE_NAME_TAILS,
  CODE_NAME_WORDS,
  CODE_ORGS,
  CODE_THINGS,
  CODE_VERBS,
  COMPANY_SUFFIXES,
  COMPANY_WORDS,
  EMOJI,
  EVENT_KINDS,
  EVENT_TOPICS,
  EVENT_VENUES,
  FESTIVAL_WORDS,
  FIRST_NAMES,
  LANGUAGES,
  LAST_NAMES,
  LEAGUES,
  MOVIE_GENRES,
  MUSIC_GENRES,
  NOUNS,
  PHOTO_SUBJECTS,
  PLACE_KINDS,
  REAL_PUBLICATIONS,
  SENTENCES,
  SIDE_PROJECTS,
  SKILLS,
  TENNIS_ROUNDS,
  TOUR_WORDS,
  TWEET_OPENERS,
  UNIVERSITIES,
  VIDEO_CATEGORIES,
  VOLUNTEER_ORGS,
  WORDS_FOR_TAGS,
  WORK_LINES,
  WORK_TITLES,
  cityNamed,
  type City,
  type League,
} from './generate-vocabulary.ts';

const SEED = 0x2026_5eed;
const MAX_RECORDS = 5_000_000;
const RECORDS_PER_PART = 1000;
/** The Markdown share: the first 1% of each collection, capped so huge runs don't drown in tiny files. */
const MARKDOWN_SHARE = 0.01;
const MAX_MARKDOWN_FILES = 2000;
const MARKER = '.generated';
const MARKER_SIGNATURE = 'Written by bench/generate.ts';
/** Records sampled through their schema while writing: the first few and then one in this many. */
const VALIDATE_EVERY = 997;

/**
 * Relative share of N per collection: what one active person accumulates (many tweets, runs,
 * photos and saved links; few jobs and essays).
 */
const WEIGHTS: Readonly<Record<string, number>> = {
  tweets: 16,
  activities: 12,
  photos: 12,
  reading: 12,
  music: 9,
  code: 7,
  movies: 6,
  podcasts: 5,
  videos: 5,
  books: 4,
  places: 3,
  concerts: 3,
  events: 2,
  'sporting-events': 2,
  work: 1,
  writing: 1,
  blog: 1,
};

// ── command line ────────────────────────────────────────────────────────────

const USAGE = `Usage: npm run generate -- --records N --out DIR

Writes N deterministic records, spread over the ${contentCollections.length} content collections, into
DIR/<collection>/ as YAML part files plus a share of Markdown files. DIR must be missing,
empty, or an earlier output of this generator (it holds a ${MARKER} marker); it is cleared first.

  --records N   total number of records, a whole number from 1 to ${MAX_RECORDS}
  --out DIR     output folder
  --help        show this message

Exits with 2 on bad arguments and 1 when DIR cannot be used or writing fails.`;

interface Options {
  records: number;
  out: string;
}

function usageError(message: string): never {
  process.stderr.write(`generate: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function parseOptions(argv: string[]): Options {
  let values: { records?: string; out?: string; help?: boolean };
  try {
    values = parseArgs({
      args: argv,
      options: { records: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    usageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (values.records === undefined) usageError('--records is required');
  if (values.out === undefined || values.out.trim() === '') usageError('--out is required');
  if (!/^[0-9]+$/.test(values.records)) usageError(`--records must be a whole number, got "${values.records}"`);
  const records = Number(values.records);
  if (records < 1 || records > MAX_RECORDS) usageError(`--records must be between 1 and ${MAX_RECORDS}, got ${values.records}`);
  return { records, out: resolve(values.out) };
}

// ── randomness ──────────────────────────────────────────────────────────────

/** FNV-1a, to turn names into seeds so each collection and table gets its own stream. */
function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Murmur3's finaliser: a bijection on 32-bit integers, so ids built from it never collide. */
function mix32(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** mulberry32: small, fast and good enough for test data; the state is one 32-bit integer. */
class Rng {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) | 0;
    let t = Math.imul(this.#state ^ (this.#state >>> 15), 1 | this.#state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** A whole number in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  /** Skewed towards `min`: realistic for counts (likes, stars) and for years leaning recent. */
  skewed(min: number, max: number, power: number): number {
    return min + Math.floor(this.next() ** power * (max - min + 1));
  }
}

/** A weighted choice, precomputed once so each draw is a binary search. */
class Weighted<T> {
  readonly items: readonly T[];
  readonly #cumulative: number[];
  constructor(entries: readonly (readonly [T, number])[]) {
    this.items = entries.map(([item]) => item);
    let sum = 0;
    this.#cumulative = entries.map(([, weight]) => (sum += weight));
  }
  pick(rng: Rng): T {
    const target = rng.next() * this.#cumulative[this.#cumulative.length - 1]!;
    let lo = 0;
    let hi = this.#cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#cumulative[mid]! > target) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo]!;
  }
  /** `count` different items (fewer if the table is smaller). */
  pickDistinct(rng: Rng, count: number): T[] {
    const chosen: T[] = [];
    for (let attempt = 0; chosen.length < Math.min(count, this.items.length) && attempt < count * 8; attempt++) {
      const item = this.pick(rng);
      if (!chosen.includes(item)) chosen.push(item);
    }
    return chosen;
  }
}

/** Zipf-like popularity: a few directors, authors and artists recur often, most rarely. */
function zipf<T>(items: readonly T[], exponent = 0.9): Weighted<T> {
  return new Weighted(items.map((item, k) => [item, 1 / (k + 1) ** exponent] as const));
}

/**
 * A keyed bijection on [0, size): a 4-round Feistel network on the next even power of two,
 * cycle-walking back into range. It spreads consecutive indexes over a slot space (dates,
 * title combinations) while guaranteeing that different indexes never share a slot.
 */
class Permutation {
  readonly size: number;
  readonly #half: number;
  readonly #mask: number;
  readonly #keys: number[];
  constructor(size: number, seed: number) {
    if (!Number.isSafeInteger(size) || size < 1 || size > 2 ** 30) throw new Error(`permutation size out of range: ${size}`);
    let bits = Math.max(2, Math.ceil(Math.log2(size)));
    if (bits % 2 === 1) bits++;
    this.size = size;
    this.#half = bits / 2;
    this.#mask = (1 << this.#half) - 1;
    this.#keys = [1, 2, 3, 4].map((round) => mix32(seed + round * 0x9e3779b9));
  }
  at(index: number): number {
    let x = index;
    do {
      let left = x >>> this.#half;
      let right = x & this.#mask;
      for (const key of this.#keys) {
        const next = left ^ (mix32(right ^ key) & this.#mask);
        left = right;
        right = next;
      }
      x = left * (this.#mask + 1) + right;
    } while (x >= this.size);
    return x;
  }
}

// ── calendar ────────────────────────────────────────────────────────────────

/** Days since 1970-01-01 (Howard Hinnant's algorithm), so dates never go through `Date` and its time zone. */
function dayNumber(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civil(day: number): [number, number, number] {
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));
const pad = (n: number, width: number): string => String(n).padStart(width, '0');

function isoDay(day: number): string {
  const [y, m, d] = civil(day);
  return `${y}-${pad2(m)}-${pad2(d)}`;
}

const yearOfDay = (day: number): number => civil(day)[0];

/** The fixed "today" of the data set: records before it happened, records after it are planned. */
const TODAY = dayNumber(2026, 11, 1);
const DAY = 86_400;

type Clock = 'Z' | 'offset' | 'floating';

/** An ISO date-time for an instant seen at a UTC offset: with `Z`, with the offset, or as floating local time. */
function stamp(utcSeconds: number, offsetMinutes: number, clock: Clock, seconds = true, millis = false): string {
  const local = utcSeconds + (clock === 'Z' ? 0 : offsetMinutes * 60);
  const day = Math.floor(local / DAY);
  const sod = local - day * DAY;
  let text = `${isoDay(day)}T${pad2(Math.floor(sod / 3600))}:${pad2(Math.floor(sod / 60) % 60)}`;
  if (seconds || millis) text += `:${pad2(sod % 60)}`;
  if (millis) text += '.000';
  if (clock === 'Z') return `${text}Z`;
  if (clock === 'floating') return text;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${text}${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();
const offsetCache = new Map<string, number>();

/**
 * The zone's UTC offset in minutes at an instant, from the runtime's time-zone data (so local
 * times in a city match its real DST history). Offsets only change on hour boundaries in the
 * zones used here, hence the cache per zone and hour.
 */
function offsetAt(timeZone: string, utcSeconds: number): number {
  const key = `${timeZone}|${Math.floor(utcSeconds / 3600)}`;
  const cached = offsetCache.get(key);
  if (cached !== undefined) return cached;
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormats.set(timeZone, format);
  }
  const name = format.formatToParts(utcSeconds * 1000).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name);
  if (!match) throw new Error(`unexpected offset ${name} for ${timeZone}`);
  const minutes = match[1] ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
  if (offsetCache.size > 100_000) offsetCache.clear();
  offsetCache.set(key, minutes);
  return minutes;
}

/** The instant at which a city's clocks show `localSeconds` (wall time written as if it were UTC). */
function fromLocal(timeZone: string, localSeconds: number): { utc: number; offset: number } {
  let offset = offsetAt(timeZone, localSeconds);
  const second = offsetAt(timeZone, localSeconds - offset * 60);
  if (second !== offset) offset = second;
  return { utc: localSeconds - offset * 60, offset };
}

// ── YAML ────────────────────────────────────────────────────────────────────

type Scalar = string | number | boolean;
type Value = Scalar | undefined | readonly string[] | Rec;
interface Rec {
  [key: string]: Value;
}

/** Characters JSON leaves raw but YAML treats as line breaks or refuses as non-printable. */
const YAML_UNSAFE = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;
const YAML_UNSAFE_ALL = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g;

/** A JSON string is a valid YAML double-quoted scalar, once the characters above are escaped too. */
function quote(text: string): string {
  const json = JSON.stringify(text);
  return YAML_UNSAFE.test(json) ? json.replace(YAML_UNSAFE_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : json;
}

function scalar(value: Scalar): string {
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`cannot write ${value} to YAML`);
    return String(value);
  }
  return value ? 'true' : 'false';
}

/**
 * A block mapping: `first` prefixes the first line (`- ` inside a sequence), `indent` the others.
 * Keys come from this file's own object literals, so they are plain identifiers needing no quotes.
 */
function mapping(record: Rec, first: string, indent: string): string {
  let out = '';
  let lead = first;
  for (const key in record) {
    const value = record[key];
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length === 0) out += `${lead}${key}: []\n`;
      else {
        out += `${lead}${key}:\n`;
        for (const item of value as readonly string[]) out += `${indent}  - ${quote(item)}\n`;
      }
    } else if (typeof value === 'object') {
      const nested = mapping(value as Rec, `${indent}  `, `${indent}  `);
      // An empty block would read back as null, not as the empty object the record holds.
      out += nested === '' ? `${lead}${key}: {}\n` : `${lead}${key}:\n${nested}`;
    } else {
      out += `${lead}${key}: ${scalar(value as Scalar)}\n`;
    }
    lead = indent;
  }
  return out;
}

// ── text helpers ────────────────────────────────────────────────────────────

const FOLD: Readonly<Record<string, string>> = { ø: 'o', Ø: 'o', æ: 'ae', Æ: 'ae', ß: 'ss', ł: 'l', Ł: 'l', đ: 'd', ı: 'i', œ: 'oe' };

/** URL slug: accents and special letters folded to ASCII, everything else collapsed to hyphens. */
function slug(text: string): string {
  return text
    .replace(/[øØæÆßłŁđıœ]/g, (c) => FOLD[c] ?? c)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const lower = (word: string): string => word.toLowerCase();

const HEX = '0123456789abcdef';
function hex(rng: Rng, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += HEX[rng.int(0, 15)];
  return out;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function randomChars(rng: Rng, alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(rng.next() * alphabet.length)];
  return out;
}

/** Six base64url characters carry 36 bits, so a 32-bit value encodes without loss (ids stay unique). */
function encode32(value: number, alphabet: string, length: number): string {
  let out = '';
  let v = value;
  for (let i = 0; i < length; i++) {
    out += alphabet[v % alphabet.length];
    v = Math.floor(v / alphabet.length);
  }
  return out;
}

function uuid4(rng: Rng): string {
  const h = hex(rng, 32);
  const variant = HEX[8 + rng.int(0, 3)];
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** An ISBN-13 with a correct check digit, sometimes hyphenated the way books print it. */
function isbn13(rng: Rng): string {
  const digits = `${rng.chance(0.9) ? '978' : '979'}${pad(rng.int(0, 999_999_999), 9)}`;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(digits[i]) * (i % 2 === 0 ? 1 : 3);
  const full = `${digits}${(10 - (sum % 10)) % 10}`;
  if (!rng.chance(0.25)) return full;
  return `${full.slice(0, 3)}-${full.slice(3, 4)}-${full.slice(4, 8)}-${full.slice(8, 12)}-${full.slice(12)}`;
}

const round = (value: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

function fill(template: string, rng: Rng): string {
  return template.replace(/\{([anmc])\}/g, (_, slot: string) => {
    if (slot === 'a') return lower(rng.pick(ADJECTIVES));
    if (slot === 'c') return rng.pick(CITIES).name;
    return lower(rng.pick(NOUNS));
  });
}

function sentences(rng: Rng, min: number, max: number): string {
  const count = rng.int(min, max);
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(fill(rng.pick(SENTENCES), rng));
  return parts.join(' ');
}

/** A Markdown body with the constructs a renderer meets in practice: headings, lists, links, emphasis. */
function markdownBody(rng: Rng): string {
  const blocks: string[] = [];
  const paragraphs = rng.int(2, 5);
  for (let p = 0; p < paragraphs; p++) {
    if (p > 0 && rng.chance(0.25)) blocks.push(`## ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`);
    let text = sentences(rng, 2, 5);
    if (rng.chance(0.3)) {
      const noun = rng.pick(NOUNS);
      text += ` See also [the ${lower(noun)}](https://en.wikipedia.org/wiki/${encodeURIComponent(noun)}).`;
    }
    if (rng.chance(0.3)) text += ` It was *${lower(rng.pick(ADJECTIVES))}*, and **worth it**.`;
    blocks.push(text);
    if (rng.chance(0.15)) {
      const items = rng.int(2, 4);
      const lines: string[] = [];
      for (let k = 0; k < items; k++) lines.push(`- ${rng.pick(ADJECTIVES)} ${lower(rng.pick(NOUNS))}`);
      blocks.push(lines.join('\n'));
    }
  }
  return blocks.join('\n\n');
}

// ── unique names ────────────────────────────────────────────────────────────

type Part = string | readonly string[];

/**
 * All combinations of a few patterns of word lists, indexed 0..size-1 (mixed radix), so that a
 * permuted index yields a natural-looking, never-repeated name. Past `size`, an edition suffix
 * ("II", "III", …) keeps names unique at any N.
 */
class NameSpace {
  readonly size: number;
  readonly #patterns: readonly (readonly Part[])[];
  readonly #sizes: readonly number[];
  constructor(patterns: readonly (readonly Part[])[]) {
    this.#patterns = patterns;
    this.#sizes = patterns.map((parts) => parts.reduce<number>((n, part) => n * (typeof part === 'string' ? 1 : part.length), 1));
    this.size = this.#sizes.reduce((a, b) => a + b, 0);
  }
  parts(index: number): string[] {
    let k = index;
    let p = 0;
    while (k >= this.#sizes[p]!) k -= this.#sizes[p++]!;
    const out: string[] = [];
    for (const part of this.#patterns[p]!) {
      if (typeof part === 'string') out.push(part);
      else {
        out.push(part[k % part.length]!);
        k = Math.floor(k / part.length);
      }
    }
    return out;
  }
  text(index: number): string {
    return this.parts(index).join(' ');
  }
}

/** The i-th name of a collection: a permuted combination, plus an edition once combinations run out. */
class UniqueNames {
  readonly #space: NameSpace;
  readonly #order: Permutation;
  readonly #edition: (n: number) => string;
  constructor(space: NameSpace, seed: string, edition: (n: number) => string = roman) {
    this.#space = space;
    this.#order = new Permutation(space.size, hashString(seed));
    this.#edition = edition;
  }
  parts(i: number): string[] {
    return this.#space.parts(this.#order.at(i % this.#space.size));
  }
  name(i: number, parts = this.parts(i)): string {
    const edition = Math.floor(i / this.#space.size);
    const base = parts.join(' ');
    return edition === 0 ? base : `${base} ${this.#edition(edition + 1)}`;
  }
}

function roman(n: number): string {
  const table: [number, string][] = [
    [1000, 'M'],
    [900, 'CM'],
    [500, 'D'],
    [400, 'CD'],
    [100, 'C'],
    [90, 'XC'],
    [50, 'L'],
    [40, 'XL'],
    [10, 'X'],
    [9, 'IX'],
    [5, 'V'],
    [4, 'IV'],
    [1, 'I'],
  ];
  let out = '';
  let rest = n;
  for (const [value, letters] of table) {
    while (rest >= value) {
      out += letters;
      rest -= value;
    }
  }
  return out;
}

const TITLES = new NameSpace([
  [ADJECTIVES, NOUNS],
  ['The', ADJECTIVES, NOUNS],
  [NOUNS, 'of the', NOUNS],
  ['The', NOUNS, 'and the', NOUNS],
]);

const KIND_WORDS = new Set(PLACE_KINDS.flatMap((k) => k.word.split(' ')));
const PLACE_WORDS = [...NOUNS, ...LAST_NAMES].filter((w) => !KIND_WORDS.has(w));
const LEADING_KINDS = PLACE_KINDS.filter((k) => k.leads).map((k) => k.word);
const TRAILING_KINDS = PLACE_KINDS.filter((k) => !k.leads).map((k) => k.word);
const PLACE_KIND_BY_WORD = new Map(PLACE_KINDS.map((k) => [k.word, k]));
const PLACE_NAMES = new NameSpace([
  [LEADING_KINDS, PLACE_WORDS],
  [PLACE_WORDS, TRAILING_KINDS],
  [ADJECTIVES, PLACE_WORDS, TRAILING_KINDS],
]);

const PERFORMER_NAMES = new NameSpace([
  [FIRST_NAMES, LAST_NAMES],
  [ADJECTIVES, NOUNS],
  ['The', ADJECTIVES, NOUNS],
]);

const REPO_NAMES = new NameSpace([
  [CODE_NAME_WORDS, CODE_NAME_TAILS],
  [CODE_NAME_WORDS, CODE_NAME_WORDS, CODE_NAME_TAILS],
]);

// ── shared pools ────────────────────────────────────────────────────────────

const setup = new Rng(SEED ^ 0x5eed);

function distinctNames(space: NameSpace, seed: string, count: number): string[] {
  const order = new Permutation(space.size, hashString(seed));
  return Array.from({ length: count }, (_, k) => space.text(order.at(k)));
}

const PEOPLE_NAMES = distinctNames(new NameSpace([[FIRST_NAMES, LAST_NAMES]]), 'people', 240);
/** Who appears in which role: each role has its own popularity order over the same people. */
const rotated = (offset: number): string[] => [...PEOPLE_NAMES.slice(offset), ...PEOPLE_NAMES.slice(0, offset)];
const DIRECTORS = zipf(rotated(0).slice(0, 120));
const ACTORS = zipf(rotated(40));
const AUTHORS = zipf(rotated(80).slice(0, 200));
const GUESTS = zipf(rotated(120));
const WRITERS = zipf(rotated(160));
const ATHLETES = zipf(rotated(200).slice(0, 80));

/** Headliners: people and bands; index k also decides the artist's main genre. */
const PERFORMERS = [
  ...PEOPLE_NAMES.slice(130, 240),
  ...distinctNames(PERFORMER_NAMES, 'bands', 300)
    .filter((n) => !PEOPLE_NAMES.includes(n))
    .slice(0, 90),
];
const PERFORMER_POOL = zipf(PERFORMERS, 0.8);
const PERFORMER_GENRE = new Map(PERFORMERS.map((name, k) => [name, MUSIC_GENRES[k % MUSIC_GENRES.length]!]));

interface Person {
  name: string;
  handle: string;
}

/** Tweet authors: the owner (first) and the accounts they follow; handles fit `^[A-Za-z0-9_]{1,15}$`. */
const ACCOUNTS: Person[] = (() => {
  const seen = new Set<string>();
  const out: Person[] = [];
  for (const name of PEOPLE_NAMES.slice(0, 90)) {
    const [first, last] = name.split(' ') as [string, string];
    const f = slug(first).replace(/-/g, '');
    const l = slug(last).replace(/-/g, '');
    const style = out.length % 4;
    let handle = style === 0 ? `${f}_${l}` : style === 1 ? `${f}${l.slice(0, 1)}` : style === 2 ? `${f}${setup.int(1, 99)}` : `${l}_${f.slice(0, 1)}`;
    handle = handle.slice(0, 15);
    if (out.length % 5 === 0) handle = handle.charAt(0).toUpperCase() + handle.slice(1);
    if (seen.has(handle.toLowerCase())) continue;
    seen.add(handle.toLowerCase());
    out.push({ name, handle });
  }
  return out;
})();
const OWNER = ACCOUNTS[0]!;
const FOLLOWED = zipf(ACCOUNTS.slice(1));

interface Show {
  name: string;
  host: string;
  hosts: string[];
  start: number;
}

const SHOWS: Show[] = distinctNames(
  new NameSpace([
    ['The', ADJECTIVES, NOUNS, 'Podcast'],
    [NOUNS, 'Radio'],
    [ADJECTIVES, NOUNS, 'Hour'],
  ]),
  'shows',
  40,
).map((name) => ({
  name,
  host: `${slug(name)}.example`,
  hosts: GUESTS.pickDistinct(setup, setup.int(1, 2)),
  start: dayNumber(setup.int(2005, 2021), setup.int(1, 12), setup.int(1, 28)),
}));

const CHANNELS = zipf(
  distinctNames(
    new NameSpace([
      [NOUNS, 'Talks'],
      ['The', NOUNS, 'Channel'],
      [ADJECTIVES, NOUNS, 'TV'],
      [FIRST_NAMES, 'Explains'],
    ]),
    'channels',
    50,
  ),
);

const REPOS = zipf(
  distinctNames(REPO_NAMES, 'repos', 150).map((name, k) => `${k % 3 === 0 ? OWNER.handle : CODE_ORGS[k % CODE_ORGS.length]}/${name.replace(/ /g, '-')}`),
);

const COMPANIES = distinctNames(new NameSpace([[COMPANY_WORDS, COMPANY_SUFFIXES]]), 'companies', 60);

const CITY_CHOICE = new Weighted(CITIES.map((c) => [c, c.weight] as const));

/** A spot near the city centre, within a few kilometres. */
function near(city: City, rng: Rng, spreadKm = 4): Rec {
  const dLat = ((rng.next() * 2 - 1) * spreadKm) / 111;
  const dLon = ((rng.next() * 2 - 1) * spreadKm) / (111 * Math.cos((city.latitude * Math.PI) / 180));
  return { latitude: round(city.latitude + dLat, 5), longitude: round(city.longitude + dLon, 5) };
}

/** A venue's fixed position: derived from its name, so every record at that venue agrees. */
function venueSpot(city: City, venue: string): Rec {
  return near(city, new Rng(hashString(venue)), 3);
}

/** Coordinates plus the provenance fields the geo exports insist on (a licence for geocoded ones). */
function located(rng: Rng, coordinates: Rec, sources: Weighted<string>): Rec {
  const source = sources.pick(rng);
  return {
    coordinates,
    coordinatesSource: source,
    coordinatesLicense: source.startsWith('geocoded:') ? 'ODbL-1.0' : undefined,
  };
}

const VENUE_SOURCES = new Weighted([
  ['geocoded:nominatim', 55],
  ['geocoded:photon', 10],
  ['manual', 35],
] as const);
const PLACE_SOURCES = new Weighted([
  ['manual', 30],
  ['gps', 20],
  ['geocoded:nominatim', 35],
  ['geocoded:photon', 10],
  ['exif', 5],
] as const);
const TRACK_SOURCES = new Weighted([
  ['gps', 90],
  ['manual', 10],
] as const);
const PHOTO_SOURCES = new Weighted([
  ['exif', 55],
  ['gps', 20],
  ['manual', 15],
  ['geocoded:nominatim', 10],
] as const);

/** A day in [from, to], both included. */
const dayBetween = (rng: Rng, from: number, to: number): number => rng.int(from, Math.max(from, to));

/** A calendar date or a date-time, as people record "when" with varying precision. */
function dateOrDateTime(rng: Rng, day: number, dateShare: number): string {
  if (rng.chance(dateShare)) return isoDay(day);
  return stamp(day * DAY + rng.int(7 * 3600, 23 * 3600), 0, 'Z');
}

/** Fields every record may carry: a few private records, some revised after the fact. */
function bookkeeping(rng: Rng, since: number): Rec {
  const r = rng.next();
  return {
    visibility: r < 0.03 ? 'private' : r < 0.08 ? 'public' : undefined,
    updated: rng.chance(0.05) ? dateOrDateTime(rng, dayBetween(rng, since, TODAY), 0.5) : undefined,
    revision: rng.chance(0.05) ? rng.int(1, 12) : undefined,
  };
}

// ── declarations ────────────────────────────────────────────────────────────

const declarations = new Map(collections.map((c) => [c.name, c]));

function declaration(name: string): CollectionDeclaration {
  const found = declarations.get(name);
  if (!found) throw new Error(`no collection named ${name} in src/collections`);
  return found;
}

/** The values of an enum field, read from the schema so new values show up in the data on their own. */
function enumValues(collection: string, field: string): readonly string[] {
  let type: unknown = declaration(collection).schema.shape[field];
  while (type instanceof z.ZodDefault || type instanceof z.ZodPrefault || type instanceof z.ZodOptional) type = type.unwrap();
  if (!(type instanceof z.ZodEnum)) throw new Error(`${collection}.${field} is no longer an enum; update bench/generate.ts`);
  return type.options.map(String);
}

/** A weighted choice over an enum's values: known values get their share, new ones a small one. */
function enumChoice(collection: string, field: string, weights: Readonly<Record<string, number>>): Weighted<string> {
  return new Weighted(enumValues(collection, field).map((v) => [v, weights[v] ?? 1] as const));
}

// ── collections ─────────────────────────────────────────────────────────────

interface Generator {
  /** How many records this generator can make before identities would repeat. */
  capacity: number;
  build(i: number, rng: Rng, count: number): Rec;
}

const SPORT_TYPES = enumChoice('activities', 'sportType', {
  Run: 30,
  TrailRun: 6,
  Ride: 20,
  GravelRide: 5,
  MountainBikeRide: 4,
  Swim: 8,
  Hike: 8,
  Walk: 8,
  Rowing: 2,
  NordicSki: 3,
  AlpineSki: 3,
  Workout: 5,
});

/** Distance (km) and moving speed (km/h) ranges per sport; anything new falls back to a walk-like profile. */
const SPORT_PROFILES: Readonly<Record<string, readonly [number, number, number, number, number]>> = {
  // [min km, max km, min km/h, max km/h, climb m per km]
  Run: [3, 25, 8.5, 14, 12],
  TrailRun: [5, 40, 6, 11, 45],
  Ride: [15, 160, 18, 32, 10],
  GravelRide: [20, 120, 15, 25, 12],
  MountainBikeRide: [10, 60, 10, 18, 35],
  Swim: [0.5, 4, 2, 4, 0],
  Hike: [5, 30, 3, 5.5, 60],
  Walk: [1, 12, 4, 6, 8],
  Rowing: [4, 20, 8, 14, 0],
  NordicSki: [5, 50, 8, 18, 15],
  AlpineSki: [10, 60, 10, 30, 0],
  Workout: [0, 0, 1, 1, 0],
};

const GEAR: Readonly<Record<string, readonly string[]>> = {
  Run: ['Hoka Clifton 9', 'On Cloudmonster', 'Nike Pegasus 40', 'ASICS Novablast 4'],
  TrailRun: ['Salomon Speedcross 6', 'Hoka Speedgoat 5'],
  Ride: ['Canyon Endurace', 'Specialized Roubaix'],
  GravelRide: ['Specialized Diverge', 'Canyon Grizl'],
  MountainBikeRide: ['Santa Cruz Hightower'],
  Hike: ['Lowa Renegade GTX'],
  NordicSki: ['Fischer Twin Skin'],
};

const ACTIVITY_FROM = dayNumber(2005, 1, 1);
/** Start slots: one per minute between 05:00 and 20:59 UTC on every day, so no two activities share a start. */
const ACTIVITY_SLOTS = new Permutation((TODAY - ACTIVITY_FROM) * 960, hashString('activity-slots'));

const activities: Generator = {
  capacity: ACTIVITY_SLOTS.size,
  build(i, rng) {
    const sportType = SPORT_TYPES.pick(rng);
    const [minKm, maxKm, minSpeed, maxSpeed, climb] = SPORT_PROFILES[sportType] ?? [1, 12, 4, 6, 8];
    const slot = ACTIVITY_SLOTS.at(i);
    const day = ACTIVITY_FROM + Math.floor(slot / 960);
    const utc = day * DAY + (300 + (slot % 960)) * 60 + rng.int(0, 59);
    const city = rng.chance(0.85) ? CITY_CHOICE.pick(rng) : undefined;
    const offset = city ? offsetAt(city.timeZone, utc) : 0;
    const localHour = Math.floor(((((utc + offset * 60) % DAY) + DAY) % DAY) / 3600);
    const km = minKm + (maxKm - minKm) * rng.next() ** 1.6;
    const moving = maxKm === 0 ? rng.int(20, 90) * 60 : Math.round((km / (minSpeed + (maxSpeed - minSpeed) * rng.next())) * 3600);
    const label = sportType.replace(/([a-z])([A-Z])/g, '$1 $2');
    const partOfDay = localHour < 11 ? 'Morning' : localHour < 14 ? 'Lunch' : localHour < 18 ? 'Afternoon' : localHour < 22 ? 'Evening' : 'Night';
    return {
      title: rng.chance(0.7)
        ? `${partOfDay} ${label}`
        : `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)} ${rng.pick(['loop', 'intervals', 'climb', 'tempo', 'commute', 'long one'])}`,
      sportType,
      startDate: city && rng.chance(0.3) ? stamp(utc, offset, 'offset') : stamp(utc, 0, 'Z'),
      distanceMeters: round(km * 1000, 1),
      movingTimeSeconds: moving,
      elapsedTimeSeconds: rng.chance(0.8) ? moving + rng.int(0, Math.round(moving * 0.25)) : undefined,
      elevationGainMeters: climb > 0 && rng.chance(0.85) ? round(km * climb * (0.3 + rng.next() * 1.4), 1) : undefined,
      averageHeartRate: rng.chance(0.7) ? round(105 + rng.next() * 70, 1) : undefined,
      city: city?.name,
      country: city?.country,
      gear: GEAR[sportType] && rng.chance(0.6) ? rng.pick(GEAR[sportType]!) : undefined,
      stravaId: rng.chance(0.9) ? String(1_000_000_000 + i * 11 + rng.int(0, 10)) : undefined,
      ...(city && rng.chance(0.75) ? located(rng, near(city, rng, 6), TRACK_SOURCES) : {}),
      notes: rng.chance(0.2) ? sentences(rng, 1, 2) : undefined,
      ...bookkeeping(rng, day),
    };
  },
};

const MOVIE_TYPES = enumChoice('movies', 'type', { movie: 75, tv: 25 });
const MOVIE_GENRE_CHOICE = zipf(MOVIE_GENRES, 0.7);
const MOVIE_TITLES = new UniqueNames(TITLES, 'movies');

const movies: Generator = {
  capacity: Infinity,
  build(i, rng) {
    const type = MOVIE_TYPES.pick(rng);
    const year = 2026 - rng.skewed(0, 76, 1.7);
    const yearStart = dayNumber(year, 1, 1);
    const release = Math.min(TODAY - 1, yearStart + rng.int(0, 364));
    const added = dayBetween(rng, Math.max(release, dayNumber(2009, 1, 1)), TODAY - 1);
    const rating = rng.chance(0.7) ? rng.skewed(0, 10, 0.5) / 2 : undefined;
    const recommended = rating !== undefined && rating >= 4 ? rng.chance(0.6) : rng.chance(0.03);
    const directors = type === 'movie' ? DIRECTORS.pickDistinct(rng, rng.chance(0.05) ? 2 : 1) : rng.chance(0.5) ? [DIRECTORS.pick(rng)] : [];
    return {
      title: MOVIE_TITLES.name(i),
      type,
      year,
      releaseDate: rng.chance(0.7) ? isoDay(release) : undefined,
      addedAt: dateOrDateTime(rng, added, 0.4),
      watchedAt: rng.chance(0.75) ? dateOrDateTime(rng, dayBetween(rng, added, Math.min(TODAY - 1, added + 400)), 0.5) : undefined,
      genres: MOVIE_GENRE_CHOICE.pickDistinct(rng, rng.int(1, 3)),
      director: directors.length > 0 || rng.chance(0.5) ? directors : undefined,
      cast: ACTORS.pickDistinct(rng, rng.int(2, 6)),
      runtimeMinutes: rng.chance(0.9) ? (type === 'movie' ? rng.int(78, 200) : rng.int(22, 65)) : undefined,
      seasons: type === 'tv' && rng.chance(0.9) ? rng.skewed(1, 10, 2) : undefined,
      rating,
      recommended: recommended || rng.chance(0.2) ? recommended : undefined,
      imdbId: rng.chance(0.85) ? `tt${year >= 2015 && rng.chance(0.6) ? rng.int(10_000_000, 39_999_999) : pad(rng.int(1, 9_999_999), 7)}` : undefined,
      tmdbId: rng.chance(0.7) ? rng.int(2, 1_400_000) : undefined,
      review: rng.chance(0.15) ? sentences(rng, 1, 4) : undefined,
      ...bookkeeping(rng, added),
    };
  },
};

const PLACE_CATEGORIES = enumValues('places', 'category');
const PLACE_TITLES = new UniqueNames(PLACE_NAMES, 'places', (n) => String(n));

const places: Generator = {
  capacity: Infinity,
  build(i, rng) {
    const parts = PLACE_TITLES.parts(i);
    const kind = PLACE_KIND_BY_WORD.get(parts[0]!) ?? PLACE_KIND_BY_WORD.get(parts[parts.length - 1]!);
    const category = kind && PLACE_CATEGORIES.includes(kind.category) ? kind.category : rng.pick(PLACE_CATEGORIES);
    const city = CITY_CHOICE.pick(rng);
    const name = PLACE_TITLES.name(i, parts);
    const visited = dayBetween(rng, dayNumber(2010, 1, 1), TODAY - 1);
    return {
      name,
      category,
      city: city.name,
      country: city.country,
      neighborhood: rng.chance(0.75) ? rng.pick(city.neighborhoods) : undefined,
      address: rng.chance(0.6) ? `${rng.pick(city.streets)} ${rng.int(1, 180)}` : undefined,
      ...located(rng, near(city, rng), PLACE_SOURCES),
      website: rng.chance(0.4) ? `https://${slug(name)}.example/` : undefined,
      rating: rng.chance(0.6) ? rng.skewed(4, 10, 0.6) / 2 : undefined,
      visitedAt: rng.chance(0.7) ? isoDay(visited) : undefined,
      notes: rng.chance(0.2) ? sentences(rng, 1, 3) : undefined,
      ...bookkeeping(rng, visited),
    };
  },
};

const EVENT_FIRST_YEAR = 1985;
const EVENT_YEARS = 2027 - EVENT_FIRST_YEAR + 1;
/** Title slots: topic × kind × city × year, so "Rust Conference Kraków 2019" exists at most once. */
const EVENT_SLOTS = new Permutation(EVENT_TOPICS.length * EVENT_KINDS.length * CITIES.length * EVENT_YEARS, hashString('event-slots'));
const EVENT_STATUS_PAST = enumChoice('events', 'status', { completed: 90, cancelled: 7, postponed: 3, scheduled: 0 });
const EVENT_STATUS_FUTURE = enumChoice('events', 'status', { scheduled: 85, cancelled: 7, postponed: 8, completed: 0 });
const EVENT_ROLES = enumChoice('events', 'role', { attendee: 75, speaker: 12, organizer: 6, volunteer: 7 });

const events: Generator = {
  capacity: EVENT_SLOTS.size,
  build(i, rng) {
    let slot = EVENT_SLOTS.at(i);
    const year = EVENT_FIRST_YEAR + (slot % EVENT_YEARS);
    slot = Math.floor(slot / EVENT_YEARS);
    const city = CITIES[slot % CITIES.length]!;
    slot = Math.floor(slot / CITIES.length);
    const kind = EVENT_KINDS[slot % EVENT_KINDS.length]!;
    const topic = EVENT_TOPICS[Math.floor(slot / EVENT_KINDS.length)]!;
    const day = dayNumber(year, 1, 1) + rng.int(0, 364);
    const days = rng.chance(0.5) ? rng.int(1, 4) : 0;
    const form = rng.next();
    let startDate: string;
    let endDate: string | undefined;
    if (form < 0.5) {
      startDate = isoDay(day);
      endDate = days > 0 ? isoDay(day + days) : undefined;
    } else {
      const { utc, offset } = fromLocal(city.timeZone, day * DAY + rng.int(9, 19) * 3600 + rng.pick([0, 1800]));
      const clock: Clock = form < 0.9 ? 'offset' : 'floating';
      startDate = stamp(utc, offset, clock, false);
      endDate = days > 0 || rng.chance(0.3) ? stamp(utc + days * DAY + rng.int(2, 9) * 3600, offset, clock, false) : undefined;
    }
    const status = (day > TODAY ? EVENT_STATUS_FUTURE : EVENT_STATUS_PAST).pick(rng);
    const role = EVENT_ROLES.pick(rng);
    const venue = rng.chance(0.7) ? `${rng.pick(EVENT_VENUES)} ${city.name}` : undefined;
    return {
      title: `${topic} ${kind.word} ${city.name} ${year}`,
      // Some types are written capitalised, as people do; the schema lower-cases them.
      type: rng.chance(0.1) ? kind.type.charAt(0).toUpperCase() + kind.type.slice(1) : kind.type,
      startDate,
      endDate,
      timezone: rng.chance(0.6) ? city.timeZone : undefined,
      venue,
      city: city.name,
      country: city.country,
      ...(venue && rng.chance(0.6) ? located(rng, venueSpot(city, venue), VENUE_SOURCES) : {}),
      url: rng.chance(0.5) ? `https://${slug(`${topic} ${kind.word}`)}.example/${year}/` : undefined,
      status: status !== 'completed' || rng.chance(0.3) ? status : undefined,
      role: role !== 'attendee' || rng.chance(0.3) ? role : undefined,
      notes: rng.chance(0.2) ? sentences(rng, 1, 3) : undefined,
      ...bookkeeping(rng, Math.min(day, TODAY)),
    };
  },
};

const SPORT_FROM = dayNumber(1985, 1, 1);
const SPORT_TO = dayNumber(2027, 12, 31);
/**
 * Kick-off slots: every five minutes from 11:00 to 21:55 local time on every day. A title names
 * its venue (home side or fixed tournament), so equal titles share a time zone and distinct
 * local slots are distinct instants too.
 */
const SPORT_SLOTS = new Permutation((SPORT_TO - SPORT_FROM + 1) * 132, hashString('sport-slots'));
const ENTRANTS = new Map(LEAGUES.map((l) => [l, new Weighted((l.entrants ?? []).map((e) => [e, 1] as const))]));
const LEAGUE_CHOICE = new Weighted(LEAGUES.map((l) => [l, l.sport === 'Football' ? 6 : l.format === 'teams' ? 4 : 2] as const));
const EXPERIENCES = enumChoice('sporting-events', 'experience', { 'in-person': 40, tv: 35, stream: 20, radio: 5 });
const EXPERIENCE_STATUSES = enumValues('sporting-events', 'experienceStatus');
const SPORT_STATUS_PAST = enumChoice('sporting-events', 'status', { completed: 94, cancelled: 3, postponed: 3, scheduled: 0 });
const SPORT_STATUS_FUTURE = enumChoice('sporting-events', 'status', { scheduled: 92, postponed: 5, cancelled: 3, completed: 0 });

/** The first of `wanted` the schema still lists, so a renamed status cannot break generation. */
function enumValue(values: readonly string[], ...wanted: string[]): string {
  return wanted.find((w) => values.includes(w)) ?? values[0]!;
}

function score(league: League, rng: Rng): string {
  const [lo, hi] = league.sport === 'Basketball' ? [70, 130] : league.sport === 'Rugby' ? [6, 42] : league.sport === 'Ice Hockey' ? [0, 7] : [0, 5];
  return `${rng.skewed(lo, hi, 1.3)}–${rng.skewed(lo, hi, 1.3)}`;
}

const sportingEvents: Generator = {
  capacity: SPORT_SLOTS.size,
  build(i, rng) {
    const slot = SPORT_SLOTS.at(i);
    const day = SPORT_FROM + Math.floor(slot / 132);
    const localSeconds = day * DAY + 11 * 3600 + (slot % 132) * 300;
    const league = LEAGUE_CHOICE.pick(rng);
    const home = rng.pick(league.homes);
    const city = cityNamed(home.city);
    let title: string;
    let teams: string[];
    let result: string;
    if (league.format === 'teams') {
      const opponents = [...league.homes.map((h) => h.name), ...league.visitors].filter((n) => n !== home.name);
      const away = rng.pick(opponents);
      title = `${home.name} vs ${away}`;
      teams = [home.name, away];
      result = score(league, rng);
    } else if (league.format === 'players') {
      const [a, b] = ATHLETES.pickDistinct(rng, 2) as [string, string];
      title = `${home.name} ${rng.pick(TENNIS_ROUNDS)}: ${a} vs ${b}`;
      teams = [a, b];
      result = `6–${rng.int(0, 4)}, ${rng.int(3, 7)}–6, 6–${rng.int(0, 4)}`;
    } else {
      title = home.name;
      teams = (league.entrants ? ENTRANTS.get(league)! : ATHLETES).pickDistinct(rng, rng.int(1, 3));
      result = `Winner: ${rng.pick(teams)}`;
    }
    const { utc, offset } = fromLocal(city.timeZone, localSeconds);
    const future = utc > TODAY * DAY;
    const experience = EXPERIENCES.pick(rng);
    const status = (future ? SPORT_STATUS_FUTURE : SPORT_STATUS_PAST).pick(rng);
    const experienceStatus = future
      ? enumValue(EXPERIENCE_STATUSES, 'planned')
      : status === 'cancelled' || rng.chance(0.1)
        ? enumValue(EXPERIENCE_STATUSES, 'missed')
        : experience === 'in-person'
          ? enumValue(EXPERIENCE_STATUSES, 'attended')
          : enumValue(EXPERIENCE_STATUSES, experience === 'radio' ? 'listened' : 'watched', 'watched');
    const clock: Clock = rng.chance(0.85) ? 'offset' : 'Z';
    const inPerson = experience === 'in-person';
    return {
      title,
      sport: league.sport,
      league: rng.chance(0.9) ? league.league : undefined,
      teams,
      date: stamp(utc, offset, clock, false),
      endDate: !future && rng.chance(0.25) ? stamp(utc + rng.int(21, 36) * 300, offset, clock, false) : undefined,
      timezone: rng.chance(0.6) ? city.timeZone : undefined,
      venue: home.venue,
      city: city.name,
      country: city.country,
      ...(inPerson && rng.chance(0.8) ? located(rng, venueSpot(city, home.venue), VENUE_SOURCES) : {}),
      experience,
      experienceStatus,
      status: status !== 'completed' || rng.chance(0.4) ? status : undefined,
      result: status === 'completed' && !future && rng.chance(0.8) ? result : undefined,
      seat: inPerson && rng.chance(0.6) ? `Block ${rng.pick(['A', 'B', 'C', 'D', 'E'])}, Row ${rng.int(1, 40)}, Seat ${rng.int(1, 30)}` : undefined,
      url: rng.chance(0.3) ? `https://${slug(league.league)}.example/matches/${1 + i * 7 + rng.int(0, 6)}` : undefined,
      notes: rng.chance(0.15) ? sentences(rng, 1, 3) : undefined,
      ...bookkeeping(rng, Math.min(day, TODAY)),
    };
  },
};

const MUSIC_TYPES = enumChoice('music', 'type', { track: 70, album: 20, artist: 10 });
const STANCES = enumChoice('music', 'stance', { love: 20, like: 50, neutral: 20, dislike: 10 });
const MUSIC_TITLES = new UniqueNames(TITLES, 'music');
const ARTIST_NAMES = new UniqueNames(PERFORMER_NAMES, 'artists');
const OTHER_GENRES = new Weighted(MUSIC_GENRES.map((g) => [g, 1] as const));
const ISRC_COUNTRIES = ['GB', 'US', 'DE', 'CH', 'FR', 'SE', 'PL', 'BR', 'JP', 'IS'];
const A_Z0_9 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

const music: Generator = {
  capacity: Infinity,
  build(i, rng) {
    const type = MUSIC_TYPES.pick(rng);
    const isArtist = type === 'artist';
    const artist = isArtist ? ARTIST_NAMES.name(i) : PERFORMER_POOL.pick(rng);
    const year = 2026 - rng.skewed(0, 66, 1.3);
    const added = dayBetween(rng, dayNumber(Math.max(2008, year), 1, 1), TODAY - 1);
    const mainGenre = PERFORMER_GENRE.get(artist) ?? rng.pick(MUSIC_GENRES);
    const stance = STANCES.pick(rng);
    const ids: Rec = {
      musicbrainz: rng.chance(0.8) ? uuid4(rng) : undefined,
      isrc:
        type === 'track' && rng.chance(0.8)
          ? `${rng.pick(ISRC_COUNTRIES)}${randomChars(rng, A_Z0_9, 3)}${pad(year % 100, 2)}${pad(rng.int(0, 99_999), 5)}`
          : undefined,
      spotify: !isArtist && rng.chance(0.7) ? randomChars(rng, BASE62, 22) : undefined,
    };
    const hasIds = rng.chance(isArtist ? 0.5 : 0.7) && Object.values(ids).some((v) => v !== undefined);
    return {
      title: isArtist ? artist : MUSIC_TITLES.name(i),
      type,
      artist,
      album: type === 'track' && rng.chance(0.7) ? TITLES.text(rng.int(0, TITLES.size - 1)) : undefined,
      year: !isArtist && rng.chance(0.85) ? year : undefined,
      genres: rng.chance(0.3) ? [...new Set([mainGenre, OTHER_GENRES.pick(rng)])] : [mainGenre],
      stance: stance !== 'like' || rng.chance(0.3) ? stance : undefined,
      durationSeconds: type === 'track' ? rng.int(95, 540) : type === 'album' ? rng.int(1500, 4800) : undefined,
      addedAt: dateOrDateTime(rng, added, 0.2),
      externalIds: hasIds ? ids : undefined,
      notes: rng.chance(0.1) ? sentences(rng, 1, 2) : undefined,
      ...bookkeeping(rng, added),
    };
  },
};

const CONCERT_FROM = dayNumber(1975, 1, 1);
const CONCERT_TO = dayNumber(2027, 12, 31);
/** Artist × day slots: an artist plays at most one show a day here, so (artist, date) never repeats. */
const CONCERT_SLOTS = new Permutation((CONCERT_TO - CONCERT_FROM + 1) * PERFORMERS.length, hashString('concert-slots'));
const CONCERT_STATUS_PAST = enumChoice('concerts', 'status', { completed: 93, cancelled: 4, postponed: 3, scheduled: 0 });
const CONCERT_STATUS_FUTURE = enumChoice('concerts', 'status', { scheduled: 92, postponed: 5, cancelled: 3, completed: 0 });

const concerts: Generator = {
  capacity: CONCERT_SLOTS.size,
  build(i, rng) {
    const slot = CONCERT_SLOTS.at(i);
    const artist = PERFORMERS[slot % PERFORMERS.length]!;
    const day = CONCERT_FROM + Math.floor(slot / PERFORMERS.length);
    const city = CITY_CHOICE.pick(rng);
    const venue = rng.pick(city.venues);
    const form = rng.next();
    let date: string;
    let endDate: string | undefined;
    if (form < 0.35) {
      date = isoDay(day);
      endDate = rng.chance(0.1) ? isoDay(day + rng.int(1, 3)) : undefined;
    } else {
      const { utc, offset } = fromLocal(city.timeZone, day * DAY + 19 * 3600 + rng.int(0, 5) * 1800);
      const clock: Clock = form < 0.9 ? 'offset' : 'floating';
      date = stamp(utc, offset, clock, false);
      endDate = rng.chance(0.2) ? stamp(utc + rng.int(4, 7) * 1800, offset, clock, false) : undefined;
    }
    const future = day > TODAY;
    const status = (future ? CONCERT_STATUS_FUTURE : CONCERT_STATUS_PAST).pick(rng);
    const support = PERFORMER_POOL.pickDistinct(rng, rng.int(0, 2)).filter((a) => a !== artist);
    const yyyy = String(yearOfDay(day));
    return {
      artist,
      title: rng.chance(0.2) ? `${city.name} ${rng.pick(FESTIVAL_WORDS)}` : rng.chance(0.1) ? 'Album release show' : undefined,
      supportActs: support.length > 0 || rng.chance(0.3) ? support : undefined,
      tour: rng.chance(0.35) ? `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)} ${rng.pick(TOUR_WORDS)}` : undefined,
      date,
      endDate,
      timezone: rng.chance(0.5) ? city.timeZone : undefined,
      venue,
      city: city.name,
      country: city.country,
      ...(rng.chance(0.75) ? located(rng, venueSpot(city, venue), VENUE_SOURCES) : {}),
      flyer: rng.chance(0.3)
        ? rng.chance(0.7)
          ? `/flyers/${yyyy}/${slug(artist)}-${isoDay(day)}.jpg`
          : `https://images.example.org/flyers/${yyyy}/${slug(artist)}-${hex(rng, 8)}.jpg`
        : undefined,
      setlistUrl: !future && rng.chance(0.35) ? `https://www.setlist.fm/setlist/${slug(artist)}/${yyyy}/${slug(venue)}-${hex(rng, 8)}.html` : undefined,
      status: status !== 'completed' || rng.chance(0.4) ? status : undefined,
      rating: status === 'completed' && rng.chance(0.55) ? rng.skewed(4, 10, 0.6) / 2 : undefined,
      notes: rng.chance(0.2) ? sentences(rng, 1, 3) : undefined,
      ...bookkeeping(rng, Math.min(day, TODAY)),
    };
  },
};

const PLATFORMS = enumChoice('videos', 'platform', { youtube: 75, vimeo: 12, peertube: 5, other: 8 });
const VIDEO_CATEGORY_CHOICE = zipf(VIDEO_CATEGORIES, 0.6);
const VIDEO_SECONDS: Readonly<Record<string, readonly [number, number]>> = {
  talk: [900, 3600],
  documentary: [2400, 6000],
  music: [150, 600],
  tutorial: [300, 2400],
  lecture: [2700, 5400],
  interview: [1200, 4800],
  'short film': [300, 1500],
  'live session': [600, 2400],
  'video essay': [600, 3600],
};
const PEERTUBE_HOSTS = ['framatube.org', 'peertube.tv', 'tube.tchncs.de', 'video.ploud.fr'];

const videos: Generator = {
  capacity: 2 ** 32,
  build(i, rng) {
    const platform = PLATFORMS.pick(rng);
    // Every URL carries a bijection of i, so two videos never share one.
    const key = mix32(i ^ 0x5f3759df);
    const url =
      platform === 'youtube'
        ? `https://www.youtube.com/watch?v=${encode32(key, BASE64URL, 6)}${randomChars(rng, BASE64URL, 5)}`
        : platform === 'vimeo'
          ? `https://vimeo.com/${100_000_000 + i * 13 + rng.int(0, 12)}`
          : platform === 'peertube'
            ? `https://${rng.pick(PEERTUBE_HOSTS)}/w/${encode32(key, BASE62, 6)}${randomChars(rng, BASE62, 16)}`
            : `https://media.ccc.de/v/${encode32(key, '0123456789abcdefghijklmnopqrstuvwxyz', 7)}-${slug(rng.pick(NOUNS))}`;
    const category = VIDEO_CATEGORY_CHOICE.pick(rng);
    const [minSeconds, maxSeconds] = VIDEO_SECONDS[category] ?? [60, 3600];
    const published = dayBetween(rng, dayNumber(2006, 1, 1), TODAY - 1);
    const noun = rng.pick(NOUNS);
    return {
      title: rng.pick([
        `The ${rng.pick(ADJECTIVES)} ${noun}`,
        `How the ${noun} works`,
        `${rng.pick(ADJECTIVES)} ${noun}: a ${category}`,
        `Why every ${lower(noun)} is ${lower(rng.pick(ADJECTIVES))}`,
        `${noun} (${rng.pick(['live', 'full', 'remastered', 'extended'])})`,
      ]),
      url,
      channel: CHANNELS.pick(rng),
      platform: platform !== 'youtube' || rng.chance(0.5) ? platform : undefined,
      category: rng.chance(0.1) ? category.charAt(0).toUpperCase() + category.slice(1) : category,
      publishedAt: isoDay(published),
      watchedAt: rng.chance(0.7) ? dateOrDateTime(rng, dayBetween(rng, published, Math.min(TODAY - 1, published + 900)), 0.3) : undefined,
      durationSeconds: rng.int(minSeconds, maxSeconds),
      notes: rng.chance(0.15) ? sentences(rng, 1, 2) : undefined,
      ...bookkeeping(rng, published),
    };
  },
};

const podcasts: Generator = {
  capacity: Infinity,
  build(i, rng, count) {
    const show = SHOWS[i % SHOWS.length]!;
    const episode = Math.floor(i / SHOWS.length) + 1;
    // Episodes come out at a steady rhythm, tightened so every show's run ends by "today".
    const perShow = Math.ceil(count / SHOWS.length);
    const spacing = Math.max(1, Math.min(7, Math.floor((TODAY - show.start) / perShow)));
    const published = Math.min(TODAY - 1, show.start + (episode - 1) * spacing);
    const guests = rng.chance(0.5) ? GUESTS.pickDistinct(rng, rng.int(1, 2)).filter((g) => !show.hosts.includes(g)) : [];
    const topic = `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`;
    return {
      title: guests.length > 0 && rng.chance(0.5) ? `${topic}, with ${guests[0]}` : topic,
      show: show.name,
      episode: rng.chance(0.9) ? episode : undefined,
      url: `https://${show.host}/episodes/${episode}`,
      publishedAt: isoDay(published),
      listenedAt: rng.chance(0.7) ? dateOrDateTime(rng, dayBetween(rng, published, Math.min(TODAY - 1, published + 60)), 0.3) : undefined,
      durationSeconds: rng.int(900, 7200),
      hosts: rng.chance(0.8) ? show.hosts : undefined,
      guests: guests.length > 0 || rng.chance(0.3) ? guests : undefined,
      notes: rng.chance(0.1) ? sentences(rng, 1, 2) : undefined,
      ...bookkeeping(rng, published),
    };
  },
};

const TWITTER_EPOCH_MS = 1288834974657n;
const TWEETS_FROM = dayNumber(2011, 1, 1);

function tweetText(rng: Rng): string {
  let text = `${rng.pick(TWEET_OPENERS)} the ${lower(rng.pick(ADJECTIVES))} ${lower(rng.pick(NOUNS))}`;
  if (rng.chance(0.4)) text += ` in ${rng.pick(CITIES).name}`;
  text += rng.pick(['.', '!', '…', '?', '']);
  if (rng.chance(0.35)) text += ` ${fill(rng.pick(SENTENCES), rng)}`;
  if (rng.chance(0.1)) text += `\n\n${fill(rng.pick(SENTENCES), rng)}`;
  if (rng.chance(0.3)) text += ` #${rng.pick(WORDS_FOR_TAGS).replace(/-/g, '')}`;
  if (rng.chance(0.15)) text += ` cc @${FOLLOWED.pick(rng).handle}`;
  if (rng.chance(0.25)) text += ` ${rng.pick(EMOJI)}`;
  if (rng.chance(0.1)) text += ` https://${rng.pick(REAL_PUBLICATIONS)}/${slug(rng.pick(NOUNS))}`;
  return text;
}

/** A snowflake id: the low 22 bits are the record index, so ids are unique for up to 4M tweets. */
function snowflake(ms: number, sequence: number): bigint {
  return ((BigInt(ms) - TWITTER_EPOCH_MS) << 22n) | BigInt(sequence & 0x3fffff);
}

const tweets: Generator = {
  capacity: 2 ** 22,
  build(i, rng) {
    const day = dayBetween(rng, TWEETS_FROM, TODAY - 1);
    const utc = day * DAY + rng.int(0, DAY - 1);
    const author = rng.chance(0.55) ? OWNER : FOLLOWED.pick(rng);
    const id = snowflake(utc * 1000 + rng.int(0, 999), i);
    const host = yearOfDay(day) >= 2023 ? 'x.com' : 'twitter.com';
    const replyTo = FOLLOWED.pick(rng);
    const likes = rng.chance(0.85) ? Math.floor(Math.exp(rng.next() * 9)) - 1 : undefined;
    return {
      tweetId: String(id),
      author: rng.chance(0.8) ? `@${author.handle}` : author.handle,
      authorName: author.name,
      text: tweetText(rng),
      createdAt: stamp(utc, 0, 'Z', true, rng.chance(0.5)),
      url: `https://${host}/${author.handle}/status/${id}`,
      inReplyTo: rng.chance(0.15)
        ? `https://${host}/${replyTo.handle}/status/${snowflake(utc * 1000 - rng.int(60_000, 86_400_000), rng.int(0, 0x3fffff))}`
        : undefined,
      likes,
      reposts: likes !== undefined && rng.chance(0.8) ? Math.floor(likes * rng.next() * 0.3) : undefined,
      ...bookkeeping(rng, day),
    };
  },
};

const CODE_KINDS = enumChoice('code', 'kind', { commit: 35, 'pull-request': 30, issue: 15, release: 12, repository: 8 });
const REPO_TITLES = new UniqueNames(REPO_NAMES, 'repositories', (n) => String(n));
const LANGUAGE_CHOICE = zipf(LANGUAGES, 0.8);
const CONDITIONS = [
  'the input is empty',
  'the cursor is reused',
  'running on Windows',
  'the file has a BOM',
  'the offset is negative',
  'two requests race',
  'the cache is cold',
];

const code: Generator = {
  capacity: 2 ** 32,
  build(i, rng) {
    const kind = CODE_KINDS.pick(rng);
    const day = dayBetween(rng, dayNumber(2010, 1, 1), TODAY - 1);
    const utc = day * DAY + rng.int(0, DAY - 1);
    let repo: string;
    let url: string;
    let title: string;
    const thing = rng.pick(CODE_THINGS);
    if (kind === 'repository') {
      repo = `${OWNER.handle}/${REPO_TITLES.name(i).replace(/ /g, '-')}`;
      url = `https://github.com/${repo}`;
      title = `${repo.split('/')[1]}: ${thing} for ${rng.pick(LANGUAGES)}`;
    } else {
      repo = REPOS.pick(rng);
      // Numbers, versions and hashes all derive from i, so every URL is distinct.
      if (kind === 'release') {
        const version = `${Math.floor(i / 10_000)}.${Math.floor(i / 100) % 100}.${i % 100}`;
        url = `https://github.com/${repo}/releases/tag/v${version}`;
        title = `v${version}`;
      } else if (kind === 'commit') {
        url = `https://github.com/${repo}/commit/${mix32(i).toString(16).padStart(8, '0')}${hex(rng, 32)}`;
        title = `${rng.pick(CODE_VERBS)} ${thing}`;
      } else if (kind === 'issue') {
        url = `https://github.com/${repo}/issues/${1 + i * 3 + rng.int(0, 2)}`;
        title = `${thing.charAt(0).toUpperCase()}${thing.slice(1)} breaks when ${rng.pick(CONDITIONS)}`;
      } else {
        url = `https://github.com/${repo}/pull/${1 + i * 3 + rng.int(0, 2)}`;
        title = `${rng.pick(CODE_VERBS)} ${thing}`;
      }
    }
    const changes = kind === 'commit' || kind === 'pull-request';
    return {
      kind,
      repo,
      title,
      url,
      date: stamp(utc, 0, 'Z'),
      language: rng.chance(0.8) ? LANGUAGE_CHOICE.pick(rng) : undefined,
      additions: changes && rng.chance(0.85) ? rng.skewed(0, 2000, 3) : undefined,
      deletions: changes && rng.chance(0.85) ? rng.skewed(0, 1200, 3) : undefined,
      stars: (kind === 'repository' || kind === 'release') && rng.chance(0.8) ? rng.skewed(0, 20_000, 4) : undefined,
      notes: rng.chance(0.1) ? sentences(rng, 1, 2) : undefined,
      ...bookkeeping(rng, day),
    };
  },
};

const PHOTO_LICENSES = new Weighted([
  ['', 60],
  ['CC-BY-4.0', 20],
  ['CC-BY-SA-4.0', 10],
  ['CC0-1.0', 5],
  ['All rights reserved', 5],
] as const);

const photos: Generator = {
  capacity: Infinity,
  build(i, rng) {
    const day = dayBetween(rng, dayNumber(2005, 1, 1), TODAY - 1);
    const city = rng.chance(0.85) ? CITY_CHOICE.pick(rng) : undefined;
    const localSeconds = day * DAY + rng.int(6 * 3600, 22 * 3600 - 1);
    const { utc, offset } = city ? fromLocal(city.timeZone, localSeconds) : { utc: localSeconds, offset: 0 };
    const form = rng.next();
    // Cameras write floating local time (EXIF); phones and edits add offsets or UTC.
    const clock: Clock = form < 0.5 ? 'floating' : form < 0.8 && city ? 'offset' : 'Z';
    const camera = rng.chance(0.85) ? rng.pick(CAMERAS) : undefined;
    const portrait = rng.chance(0.25);
    const crop = rng.chance(0.1) ? 0.5 + rng.next() * 0.4 : 1;
    const [w, h] = camera ? [camera.width, camera.height] : [4032, 3024];
    const [y, m] = civil(day);
    const subject = rng.pick(PHOTO_SUBJECTS);
    const license = PHOTO_LICENSES.pick(rng);
    const src = rng.chance(0.9) ? `/photos/${y}/${pad2(m)}/IMG_${pad(i + 1, 7)}.jpg` : `https://photos.example.org/${y}/${slug(subject)}-${pad(i + 1, 7)}.webp`;
    return {
      title: city && rng.chance(0.6) ? `${subject}, ${city.name}` : subject,
      src,
      alt: `${subject}${city ? ` in ${city.name}` : ''}, ${lower(rng.pick(ADJECTIVES))} ${lower(rng.pick(NOUNS))} in the ${rng.pick(['foreground', 'background', 'corner', 'frame'])}`,
      takenAt: stamp(utc, offset, clock),
      width: Math.round((portrait ? h : w) * crop),
      height: Math.round((portrait ? w : h) * crop),
      camera: camera?.name,
      lens: camera && rng.chance(0.7) ? rng.pick(camera.lenses) : undefined,
      city: city?.name,
      country: city?.country,
      ...(city && rng.chance(0.8)
        ? located(rng, rng.chance(0.2) ? { ...near(city, rng, 30), altitude: rng.int(200, 3200) } : near(city, rng, 8), PHOTO_SOURCES)
        : {}),
      license: license === '' ? undefined : license,
      notes: rng.chance(0.1) ? sentences(rng, 1, 2) : undefined,
      ...bookkeeping(rng, day),
    };
  },
};

const BOOK_TITLES = new UniqueNames(TITLES, 'books');
const BOOK_STATUSES = enumChoice('books', 'status', { finished: 60, 'to-read': 25, reading: 5, abandoned: 10 });
const BOOK_GENRE_CHOICE = zipf(BOOK_GENRES, 0.6);

const books: Generator = {
  capacity: Infinity,
  build(i, rng) {
    const status = BOOK_STATUSES.pick(rng);
    const started = status !== 'to-read' && rng.chance(0.8) ? dayBetween(rng, dayNumber(2008, 1, 1), TODAY - 1) : undefined;
    const finished =
      status === 'finished' || (status === 'abandoned' && rng.chance(0.3))
        ? started === undefined
          ? dayBetween(rng, dayNumber(2008, 1, 1), TODAY - 1)
          : Math.min(TODAY - 1, started + rng.int(3, 120))
        : undefined;
    const coAuthors = rng.chance(0.1) ? AUTHORS.pickDistinct(rng, rng.int(1, 2)) : [];
    const author = AUTHORS.pick(rng);
    return {
      title: BOOK_TITLES.name(i),
      author,
      coAuthors: coAuthors.length > 0 || rng.chance(0.2) ? coAuthors.filter((a) => a !== author) : undefined,
      isbn: rng.chance(0.85) ? isbn13(rng) : undefined,
      publishedYear: rng.chance(0.9) ? (rng.chance(0.02) ? -rng.int(100, 800) : 2026 - rng.skewed(0, 176, 2.2)) : undefined,
      pages: rng.chance(0.85) ? rng.int(90, 900) : undefined,
      genres: BOOK_GENRE_CHOICE.pickDistinct(rng, rng.int(1, 3)),
      status,
      startedAt: started === undefined ? undefined : isoDay(started),
      finishedAt: finished === undefined ? undefined : isoDay(finished),
      rating: (status === 'finished' && rng.chance(0.8)) || (status === 'abandoned' && rng.chance(0.4)) ? rng.skewed(2, 10, 0.7) / 2 : undefined,
      notes: rng.chance(0.2) ? sentences(rng, 1, 4) : undefined,
      ...bookkeeping(rng, finished ?? started ?? dayNumber(2008, 1, 1)),
    };
  },
};

const WORK_KINDS = enumValues('work', 'kind');
const EMPLOYERS: Readonly<Record<string, readonly string[]>> = {
  job: COMPANIES,
  freelance: COMPANIES,
  education: UNIVERSITIES,
  volunteer: VOLUNTEER_ORGS,
  'side-project': SIDE_PROJECTS,
};
/** Every (employer, title, kind) a position can have; the slot adds the start month. */
const POSITIONS = WORK_KINDS.flatMap((kind) =>
  (WORK_TITLES[kind] ?? ['Contributor']).flatMap((title) => (EMPLOYERS[kind] ?? COMPANIES).map((company) => ({ kind, title, company }))),
);
const SKILL_CHOICE = zipf(SKILLS, 0.5);
const WORK_FROM = 1990 * 12;
const WORK_MONTHS = 2026 * 12 + 10 - WORK_FROM;
const WORK_SLOTS = new Permutation(POSITIONS.length * WORK_MONTHS, hashString('work-slots'));

function workLine(rng: Rng): string {
  return rng
    .pick(WORK_LINES)
    .replace(/\{([tlp])\}/g, (_, slot: string) => (slot === 't' ? rng.pick(CODE_THINGS) : slot === 'l' ? rng.pick(LANGUAGES) : String(rng.int(2, 60))));
}

const work: Generator = {
  capacity: WORK_SLOTS.size,
  build(i, rng) {
    const slot = WORK_SLOTS.at(i);
    const position = POSITIONS[slot % POSITIONS.length]!;
    const startMonth = WORK_FROM + Math.floor(slot / POSITIONS.length);
    const withDay = rng.chance(0.4);
    const month = (m: number): string => `${Math.floor(m / 12)}-${pad2((m % 12) + 1)}${withDay ? `-${pad2(rng.int(1, 28))}` : ''}`;
    const endMonth = startMonth + rng.int(3, 96);
    const open = rng.chance(0.2) || endMonth >= 2026 * 12 + 10;
    const city = CITY_CHOICE.pick(rng);
    const startDay = dayNumber(Math.floor(startMonth / 12), (startMonth % 12) + 1, 1);
    const book = bookkeeping(rng, startDay);
    return {
      company: position.company,
      title: position.title,
      kind: position.kind,
      startDate: month(startMonth),
      endDate: open ? undefined : month(endMonth),
      location: rng.chance(0.8) ? `${city.name}, ${city.country}` : undefined,
      remote: rng.chance(0.2) ? true : rng.chance(0.3) ? false : undefined,
      url: rng.chance(0.5) && position.kind !== 'side-project' ? `https://${slug(position.company)}.example/` : undefined,
      summary: rng.chance(0.6) ? Array.from({ length: rng.int(1, 3) }, () => workLine(rng)).join(' ') : undefined,
      highlights: Array.from({ length: rng.int(0, 4) }, () => workLine(rng)),
      skills: SKILL_CHOICE.pickDistinct(rng, rng.int(0, 8)),
      notes: rng.chance(0.1) ? sentences(rng, 1, 2) : undefined,
      ...book,
      // An open position runs "to date": `updated` is what the timeline's year span reads.
      updated: open && rng.chance(0.7) ? isoDay(TODAY - 1) : book.updated,
    };
  },
};

const PUBLICATIONS = zipf(REAL_PUBLICATIONS, 0.8);
const TAGS = zipf(WORDS_FOR_TAGS, 0.7);

function headline(rng: Rng): string {
  const a = rng.pick(ADJECTIVES);
  const n = rng.pick(NOUNS);
  const m = rng.pick(NOUNS);
  return rng.pick([
    `The case for the ${lower(a)} ${lower(n)}`,
    `What the ${lower(n)} taught me about the ${lower(m)}`,
    `How to build a ${lower(a)} ${lower(n)}`,
    `Notes on the ${a} ${n}`,
    `In praise of the ${lower(n)}`,
    `${a} ${n}: a field guide`,
    `Why the ${lower(n)} is ${lower(a)} again`,
    `The ${n} problem`,
  ]);
}

const reading: Generator = {
  capacity: Infinity,
  build(i, rng) {
    const domain = PUBLICATIONS.pick(rng);
    const host = domain.split('.').length === 2 && rng.chance(0.4) ? `www.${domain}` : domain;
    const saved = dayBetween(rng, dayNumber(2010, 1, 1), TODAY - 1);
    const title = headline(rng);
    // The base-36 token is a bijection of i and never contains a hyphen, so URLs cannot collide.
    const token = (i * 7 + rng.int(0, 6)).toString(36);
    const [y, m, d] = civil(saved);
    const path = rng.pick([`${y}/${pad2(m)}/${pad2(d)}/${slug(title)}-${token}`, `articles/${slug(title)}-${token}`, `p/${token}`]);
    return {
      title,
      url: `https://${host}/${path}`,
      author: rng.chance(0.7) ? WRITERS.pick(rng) : undefined,
      savedAt: dateOrDateTime(rng, saved, 0.4),
      readAt: rng.chance(0.6) ? dateOrDateTime(rng, dayBetween(rng, saved, Math.min(TODAY - 1, saved + 90)), 0.4) : undefined,
      tags: TAGS.pickDistinct(rng, rng.int(0, 4)),
      excerpt: rng.chance(0.4) ? sentences(rng, 1, 3) : undefined,
      notes: rng.chance(0.1) ? sentences(rng, 1, 2) : undefined,
      ...bookkeeping(rng, saved),
    };
  },
};

const WRITING_TITLES = new UniqueNames(TITLES, 'writing');

const writing: Generator = {
  capacity: Infinity,
  build(i, rng) {
    const title = WRITING_TITLES.name(i);
    const published = dayBetween(rng, dayNumber(2008, 1, 1), TODAY - 1);
    const body = rng.chance(0.4) ? markdownBody(rng) : undefined;
    return {
      title,
      // Titles are unique and fold to distinct slugs, so the URL is unique without a counter.
      url: `https://owner.example/writing/${yearOfDay(published)}/${slug(title)}/`,
      publishedAt: isoDay(published),
      summary: rng.chance(0.7) ? sentences(rng, 1, 2) : undefined,
      tags: TAGS.pickDistinct(rng, rng.int(1, 4)),
      wordCount: rng.chance(0.8) ? (body ? body.split(/\s+/).length : rng.int(300, 6000)) : undefined,
      body,
      ...bookkeeping(rng, published),
    };
  },
};

const BLOG_TITLES = new UniqueNames(TITLES, 'blog');

const blog: Generator = {
  capacity: Infinity,
  build(i, rng) {
    const title = BLOG_TITLES.name(i);
    const published = dayBetween(rng, dayNumber(2012, 1, 1), TODAY - 1);
    return {
      title,
      // Titles are unique and fold to distinct slugs.
      slug: slug(title),
      publishedAt: isoDay(published),
      summary: sentences(rng, 1, 2),
      tags: TAGS.pickDistinct(rng, rng.int(1, 4)),
      draft: rng.chance(0.02) ? true : undefined,
      body: markdownBody(rng),
      ...bookkeeping(rng, published),
    };
  },
};

const GENERATORS: Readonly<Record<string, Generator>> = {
  activities,
  movies,
  places,
  events,
  'sporting-events': sportingEvents,
  music,
  concerts,
  videos,
  podcasts,
  tweets,
  code,
  photos,
  books,
  work,
  reading,
  blog,
  writing,
};

// ── layout ─────────────────────────────────────────────────────────────────

/** N split by weight with largest remainders; with N ≥ collections every collection gets one first. */
function distribute(total: number, weights: readonly number[]): number[] {
  const base = total >= weights.length ? 1 : 0;
  const rest = total - base * weights.length;
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (rest * w) / sum);
  const counts = exact.map((e) => base + Math.floor(e));
  let left = total - counts.reduce((a, b) => a + b, 0);
  const order = exact.map((e, k) => [e - Math.floor(e), k] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, k] of order) {
    if (left-- <= 0) break;
    counts[k]!++;
  }
  return counts;
}

function markdownCount(count: number): number {
  return Math.min(MAX_MARKDOWN_FILES, Math.ceil(count * MARKDOWN_SHARE));
}

/** Clears DIR only when it is missing, empty, or holds this generator's marker: never a user's content. */
function prepareOutput(dir: string): void {
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) throw new Error(`${dir} exists and is not a folder`);
    const entries = readdirSync(dir);
    if (entries.length > 0) {
      const marker = join(dir, MARKER);
      const ours = entries.includes(MARKER) && statSync(marker).isFile() && readFileSync(marker, 'utf8').startsWith(MARKER_SIGNATURE);
      if (!ours) throw new Error(`${dir} is not empty and has no ${MARKER} marker from this generator; refusing to delete it`);
      for (const entry of entries) rmSync(join(dir, entry), { recursive: true, force: true });
    }
  }
  mkdirSync(dir, { recursive: true });
}

/** Keeps a few writes in flight so the disk works while the next part is generated, with bounded memory. */
class Writer {
  files = 0;
  readonly #pending: Promise<void>[] = [];
  #failure: unknown;
  async write(path: string, text: string): Promise<void> {
    if (this.#pending.length >= 4) await this.#pending.shift();
    this.#check();
    // Caught at once (a write may fail before its turn to be awaited), reported at the next call.
    this.#pending.push(writeFile(path, text).catch((error: unknown) => void (this.#failure ??= error)));
    this.files++;
  }
  async flush(): Promise<void> {
    while (this.#pending.length > 0) await this.#pending.shift();
    this.#check();
  }
  #check(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }
}

function validate(collection: CollectionDeclaration, index: number, record: Rec): void {
  const result = collection.schema.safeParse(record);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`${collection.name} record ${index} does not match its schema (${issues}); fix bench/generate.ts`);
  }
}

async function generate(options: Options): Promise<void> {
  const started = performance.now();
  // Composed lists (feed-items) have no files: the compiler builds them from the others.
  const names = contentCollections.map((c) => c.name);
  const unknown = names.filter((n) => !GENERATORS[n] || WEIGHTS[n] === undefined);
  if (unknown.length > 0) throw new Error(`no generator for collection(s) ${unknown.join(', ')}; add them to bench/generate.ts`);
  const counts = distribute(
    options.records,
    names.map((n) => WEIGHTS[n]!),
  );
  names.forEach((name, k) => {
    if (counts[k]! > GENERATORS[name]!.capacity)
      throw new Error(`${name}: ${counts[k]} records exceed the ${GENERATORS[name]!.capacity} unique identities the generator can make`);
  });

  prepareOutput(options.out);
  // Written first, so even an interrupted run leaves a folder the next run may clear.
  writeFileSync(
    join(options.out, MARKER),
    `${MARKER_SIGNATURE}; the next run deletes and rewrites this folder.\nrecords: ${options.records}\n${names.map((n, k) => `${n}: ${counts[k]}`).join('\n')}\n`,
  );
  const writer = new Writer();
  let markdownFiles = 0;

  for (const [k, collection] of contentCollections.entries()) {
    const count = counts[k]!;
    if (count === 0) continue;
    const generator = GENERATORS[collection.name]!;
    const dir = join(options.out, collection.name);
    mkdirSync(dir);
    const rng = new Rng(hashString(`${SEED}:${collection.name}`));
    // Markdown bodies draw from their own stream, so a record is the same whichever file it lands in.
    const bodies = new Rng(hashString(`${SEED}:${collection.name}:markdown`));
    const markdown = markdownCount(count);
    let part = '';
    let inPart = 0;
    let parts = 0;
    for (let i = 0; i < count; i++) {
      const record = generator.build(i, rng, count);
      if (i < markdown && record[collection.bodyField] === undefined) record[collection.bodyField] = markdownBody(bodies);
      if (i < 3 || i % VALIDATE_EVERY === 0) validate(collection, i, record);
      if (i < markdown) {
        const { [collection.bodyField]: body, ...front } = record;
        await writer.write(join(dir, `entry-${pad(i + 1, 6)}.md`), `---\n${mapping(front, '', '')}---\n${String(body)}\n`);
        markdownFiles++;
        continue;
      }
      part += mapping(record, '- ', '  ');
      if (++inPart === RECORDS_PER_PART) {
        await writer.write(join(dir, `part-${pad(++parts, 6)}.yaml`), part);
        part = '';
        inPart = 0;
      }
    }
    if (inPart > 0) await writer.write(join(dir, `part-${pad(++parts, 6)}.yaml`), part);
  }
  await writer.flush();
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(
    `generate: ${options.records} records in ${writer.files} files (${writer.files - markdownFiles} YAML, ${markdownFiles} Markdown) under ${options.out} in ${seconds.toFixed(1)} s\n`,
  );
}

const options = parseOptions(process.argv.slice(2));
try {
  await generate(options);
} catch (error) {
  process.stderr.write(`generate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
