/**
 * Reading a service's answer as what it must be, or failing the source with the kind of
 * what was wrong: HTML where a feed or JSON was expected (a login page, a error page, a
 * captive portal — all answered `200`) is `not-a-feed`; XML or JSON that does not parse
 * is `malformed`. Whether a parsed document has the right shape (an RSS channel, a
 * `payload` object) is the source's to check (`wrong-shape`). The XML parser is
 * @xmldom/xmldom, as the importers' track files use; it resolves no external entity and
 * fetches nothing. Every error and fatal error stops the parse: a feed that parses only
 * by guessing is refused whole rather than half read.
 */
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import type { Answer } from './client.ts';
import { SyncFailure } from './client.ts';
import { shownUrl } from '../net/fetch.ts';

const contentType = (answer: Answer) => (answer.headers['content-type'] ?? '').toLowerCase();
const looksHtml = (answer: Answer, text: string) => contentType(answer).includes('html') || /^\s*(<!doctype html|<html)/i.test(text);

/** The answer's JSON; throws SyncFailure (`not-a-feed`, `malformed`). */
export function jsonOf(answer: Answer): unknown {
  const text = answer.body.toString('utf8');
  if (looksHtml(answer, text)) throw new SyncFailure('not-a-feed', `${shownUrl(answer.url)} answered an HTML page, not JSON`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new SyncFailure('malformed', `${shownUrl(answer.url)} answered JSON that does not parse`);
  }
}

/** The answer's XML document; throws SyncFailure (`not-a-feed`, `malformed`). */
export function xmlOf(answer: Answer): Document {
  const text = answer.body.toString('utf8');
  if (looksHtml(answer, text) && !/^\s*<\?xml/.test(text)) throw new SyncFailure('not-a-feed', `${shownUrl(answer.url)} answered an HTML page, not a feed`);
  try {
    return new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') throw new Error(message);
      },
    }).parseFromString(text, 'text/xml');
  } catch {
    throw new SyncFailure('malformed', `${shownUrl(answer.url)} answered XML that does not parse`);
  }
}

/** The element children of `parent` named `local` in namespace `ns` (null: no namespace). */
export function children(parent: Element, local: string, ns: string | null = null): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType !== 1) continue;
    const element = node as Element;
    if (element.localName === local && (element.namespaceURI ?? null) === ns) found.push(element);
  }
  return found;
}

/** The trimmed text of the first child `local` (in `ns`), CDATA included; undefined when absent or empty. */
export function childText(parent: Element, local: string, ns: string | null = null): string | undefined {
  const element = children(parent, local, ns)[0];
  const text = element?.textContent?.trim();
  return text ? text : undefined;
}

/** The `item`s of an RSS 2.0 document's channel; throws SyncFailure (`wrong-shape`) for any other document. */
export function rssItems(document: Document, answer: Answer): Element[] {
  const root = document.documentElement;
  const channel = root && root.localName === 'rss' ? children(root, 'channel')[0] : undefined;
  if (!channel) throw new SyncFailure('wrong-shape', `${shownUrl(answer.url)} answered XML that is not an RSS 2.0 feed (no rss/channel)`);
  return children(channel, 'item');
}

/** Whether `value` is a plain object (a JSON object). */
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * An RFC 822 date (`Sun, 5 May 2024 21:10:32 +1200`) as its own calendar day
 * (`2024-05-05`), in the offset it is written in: the day the member lived, not the UTC one.
 */
export function dayOf(rfc822: string | undefined): string | undefined {
  const m = rfc822 ? /(\d{1,2})\s+([A-Za-z]{3})[a-z]*\.?\s+(\d{4})/.exec(rfc822) : null;
  const month = m ? MONTHS.indexOf(m[2]!.toLowerCase()) : -1;
  return m && month >= 0 ? `${m[3]}-${String(month + 1).padStart(2, '0')}-${m[1]!.padStart(2, '0')}` : undefined;
}
