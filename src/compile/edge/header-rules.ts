/**
 * The `_headers` file static hosts read (Cloudflare Pages, Netlify), compiled from what
 * the runtime sends for each static URL into a few wildcard rules. Cloudflare Pages reads
 * at most 100 rules of at most 2,000 characters a line and applies every rule whose
 * pattern matches, joining the values of a header set by two of them; Netlify does not
 * join the same way. So the compiler keeps one invariant that makes both hosts agree:
 * for every URL and every header, exactly one matching rule sets it (with the runtime's
 * value), and none sets a header the runtime does not send there.
 *
 * Rules are found header by header, top down: a value every file shares is one `/*`
 * rule; otherwise files are split by kind (their extension, or `/` for a page) into
 * `<prefix>*.<ext>` rules, narrowing the prefix only where a kind's value differs under
 * it; what stays truly per file (a list's `Link`, `X-Total-Count`, `Last-Modified`) gets
 * an exact rule. Patterns are shared by the headers that use them,
 * so the count grows with the site's structure, not with its records. A file a host would
 * cut is refused: `compileHeaderRules` throws, naming the limit.
 *
 * Pure (no Node APIs): the edge worker bundles `headerNamesAt` to drop the headers a
 * host adds on its own.
 */
import { LIMITS } from '../../core/limits.ts';

/** One rule of the file: a URL pattern and the headers it sets. */
export interface HeaderRule {
  pattern: string;
  headers: Record<string, string>;
}

/** URL path → the headers the runtime sends there (ETag and Content-Length left out: hosts compute their own). */
export type UrlHeaders = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** Headers a host computes from the bytes it serves; never written into rules. */
const LEFT_TO_HOST = new Set(['etag', 'content-length']);

/** Thrown when the rules would exceed what a host reads; the build stops with its message. */
export class HeaderRulesError extends Error {
  override name = 'HeaderRulesError';
}

/** A file's kind: its extension, `/` for a page (a path ending in `/`), '' when it has neither. */
function kindOf(path: string): string {
  if (path.endsWith('/')) return '/';
  const last = path.slice(path.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot > 0 ? last.slice(dot) : '';
}

interface Entry {
  path: string;
  value: string | undefined;
}

type Emit = (pattern: string, value: string) => void;

const uniform = (entries: readonly Entry[]) => entries.every((e) => e.value === entries[0]!.value);

/** The longest common prefix of some strings. */
function commonPrefix(strings: readonly string[]): string {
  let prefix = strings[0]!;
  for (const s of strings) {
    let i = 0;
    while (i < prefix.length && i < s.length && prefix[i] === s[i]) i++;
    prefix = prefix.slice(0, i);
  }
  return prefix;
}

/**
 * Covers `entries` (every file of `kind` whose path starts with `stem`): one `stem*kind`
 * rule when they agree — it matches exactly the paths that start with `stem` and end with
 * `kind` — else the files split by the character after `stem`, each part narrowed to its
 * longest common prefix (so `/sitemap-1.xml … /sitemap-9.xml` stay one `/sitemap*.xml`
 * rule however many there are). A file whose stem is all of `stem` gets an exact rule.
 */
function coverKind(stem: string, kind: string, entries: readonly Entry[], emit: Emit): void {
  if (uniform(entries)) {
    const value = entries[0]!.value;
    if (value === undefined) return;
    const pattern = `${stem === '' ? '/' : stem}*${kind}`;
    emit(pattern, value);
    // Only `/` escapes `/*/` (a splat between two slashes needs both).
    const matcher = patternRegExp(pattern);
    for (const e of entries) if (!matcher.test(e.path)) emit(e.path, value);
    return;
  }
  const parts = new Map<string, Entry[]>();
  for (const e of entries) {
    const own = e.path.slice(0, e.path.length - kind.length);
    if (own === stem) {
      if (e.value !== undefined) emit(e.path, e.value);
    } else {
      const part = parts.get(own[stem.length]!);
      if (part) part.push(e);
      else parts.set(own[stem.length]!, [e]);
    }
  }
  for (const part of parts.values()) coverKind(commonPrefix(part.map((e) => e.path.slice(0, e.path.length - kind.length))), kind, part, emit);
}

/** Covers every file: one `/*` rule when all agree, else kind by kind (a file with no kind always by an exact rule). */
function cover(entries: readonly Entry[], emit: Emit): void {
  if (uniform(entries)) {
    if (entries[0]!.value !== undefined) emit('/*', entries[0]!.value);
    return;
  }
  const kinds = new Map<string, Entry[]>();
  for (const e of entries) {
    const group = kinds.get(kindOf(e.path));
    if (group) group.push(e);
    else kinds.set(kindOf(e.path), [e]);
  }
  for (const [kind, group] of kinds) {
    if (kind === '') {
      for (const e of group) if (e.value !== undefined) emit(e.path, e.value);
    } else coverKind('', kind, group, emit);
  }
}

/** Characters a rule's path may hold (its `*` aside): a `*` or a `:name` would be read as a pattern, and hosts differ on encoded bytes. */
const PLAIN_PATH = /^\/[A-Za-z0-9._~\/-]*$/;

/** The rules that give every URL of `urls` exactly its headers; throws when a host would cut them. */
export function compileHeaderRules(urls: UrlHeaders): HeaderRule[] {
  const paths = Object.keys(urls).sort();
  const names = new Map<string, string>();
  for (const path of paths)
    for (const name of Object.keys(urls[path]!))
      if (!LEFT_TO_HOST.has(name.toLowerCase())) names.set(name.toLowerCase(), names.get(name.toLowerCase()) ?? name);
  const lowered = new Map(paths.map((path) => [path, new Map(Object.entries(urls[path]!).map(([k, v]) => [k.toLowerCase(), v]))]));
  const rules = new Map<string, Record<string, string>>();
  for (const [lower, name] of [...names].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const entries = paths.map((path) => ({ path, value: lowered.get(path)!.get(lower) }));
    cover(entries, (pattern, value) => {
      if (!PLAIN_PATH.test(pattern.replace('*', ''))) {
        throw new HeaderRulesError(
          `_headers: ${pattern} needs a rule of its own (its ${name} differs from its neighbours'), but its path has characters a host would read as a pattern or decode differently; rename the file.`,
        );
      }
      const headers = rules.get(pattern) ?? {};
      headers[name] = value;
      rules.set(pattern, headers);
    });
  }
  const compiled = [...rules].map(([pattern, headers]) => ({ pattern, headers })).sort(byGenerality);
  checkLimits(compiled);
  return compiled;
}

/** Wide rules first, exact ones last: the file reads from general to particular. */
const byGenerality = (a: HeaderRule, b: HeaderRule) => {
  const rank = (p: string) => (p.includes('*') ? 0 : 1);
  return rank(a.pattern) - rank(b.pattern) || (a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0);
};

function checkLimits(rules: readonly HeaderRule[]): void {
  if (rules.length > LIMITS.cdnHeaderRulesMax) {
    throw new HeaderRulesError(
      `_headers: the static files need ${rules.length} rules, more than the ${LIMITS.cdnHeaderRulesMax} Cloudflare Pages reads (cdnHeaderRulesMax); the rest would be ignored. Give files that differ in a header a folder or an extension of their own.`,
    );
  }
  for (const line of renderLines(rules)) {
    if (line.length > LIMITS.cdnHeaderLineCharsMax) {
      throw new HeaderRulesError(
        `_headers: a line of ${line.length} characters is longer than the ${LIMITS.cdnHeaderLineCharsMax} Cloudflare Pages reads (cdnHeaderLineCharsMax): ${line.slice(0, 80)}…`,
      );
    }
  }
}

function renderLines(rules: readonly HeaderRule[]): string[] {
  return rules.flatMap((rule) => [rule.pattern, ...Object.entries(rule.headers).map(([k, v]) => `  ${k}: ${v}`)]);
}

/** The file's text: one block per rule. */
export function renderHeaderRules(rules: readonly HeaderRule[]): string {
  return `${renderLines(rules).join('\n')}\n`;
}

/**
 * Whether a rule's pattern matches a URL path, as Cloudflare Pages documents it: `*` (at
 * most one) matches any characters, `/` included, also none; `:name` matches one segment.
 */
export function patternMatches(pattern: string, path: string): boolean {
  return patternRegExp(pattern).test(path);
}

function patternRegExp(pattern: string): RegExp {
  const source = pattern
    .split(/(\*|:[A-Za-z]\w*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') && part.length > 1 ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

const compiled = new WeakMap<HeaderRule, RegExp>();
const compiledOf = (rule: HeaderRule) => {
  let regexp = compiled.get(rule);
  if (!regexp) compiled.set(rule, (regexp = patternRegExp(rule.pattern)));
  return regexp;
};

/** The names of the headers the rules set at `path` (lower case). */
export function headerNamesAt(rules: readonly HeaderRule[], path: string): Set<string> {
  const names = new Set<string>();
  for (const rule of rules) if (compiledOf(rule).test(path)) for (const name of Object.keys(rule.headers)) names.add(name.toLowerCase());
  return names;
}
