/**
 * A collection page's markup: its frame (the site layout's props, src/layouts/Site.astro)
 * and its body (the records, the filters in use, sorting, page sizes, facets, the pager),
 * written as the one template of the page: src/components/CollectionPage.astro places the
 * body in the layout for the prerendered page one and the rerender route, and the runtime
 * (functions/pages.ts) places it in the layout's frame for a page with a query string,
 * without rendering through Astro on each request (issue 42: the render cost four times the
 * REST query beside it). The frame is the layout as Astro renders it for a stand-in path
 * and body, cut at both, once per collection and generation; a page is then the frame
 * with its canonical URL, its twin's address and its body put in, escaped as Astro escapes them
 * (tests/site/collection-page-properties.test.ts holds the two paths to the same bytes).
 */
import type { PictureView } from './media.ts';
import type { CollectionView, ItemView, LinkView } from './view.ts';
import { markdownTwinUrl } from '../urls.ts';

/** Text as Astro escapes an expression (`escapeHTML`: the five HTML specials). */
const TEXT = /[&<>'"]/;
const TEXT_ALL = /[&<>'"]/g;
const TEXT_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&quot;' };
export const escapeText = (value: string) => (TEXT.test(value) ? value.replace(TEXT_ALL, (c) => TEXT_ENTITIES[c]!) : value);

/** An attribute value as Astro writes one (`toAttributeString`: `&` and `"` only). */
export const escapeAttribute = (value: string) => (value.includes('&') || value.includes('"') ? value.replace(/&/g, '&amp;').replace(/"/g, '&quot;') : value);

/** ` name="value"`, as Astro writes an attribute: nothing for undefined, the bare name for an empty string. */
const attribute = (name: string, value: string | number | undefined) =>
  value === undefined ? '' : value === '' ? ` ${name}` : ` ${name}="${escapeAttribute(String(value))}"`;

/** The props of the site layout (src/layouts/Site.astro) for a collection page. */
export interface CollectionFrame {
  title: string;
  description: string;
  path: string;
  markdown: string;
  section: string;
}

export function collectionFrame(view: Pick<CollectionView, 'name' | 'title' | 'description' | 'path'>): CollectionFrame {
  return {
    title: `${view.title} · Collections`,
    description: view.description,
    path: view.path,
    // A page with a query string is its own twin's address (negotiated); page one has a file beside it.
    markdown: view.path.includes('?') ? view.path : markdownTwinUrl(view.path),
    section: view.name,
  };
}

function picture(p: PictureView): string {
  return `<img class="u-photo"${attribute('src', p.src)}${attribute('srcset', p.srcset)} sizes="6rem"${attribute('width', p.width)}${attribute('height', p.height)}${attribute('alt', p.alt)} loading="lazy" decoding="async">`;
}

function item(entry: ItemView): string {
  const date = entry.date
    ? `<time class="dt-published"${attribute('datetime', entry.date.iso)}>${escapeText(entry.date.text)}</time>${entry.detail ? ' · ' : ''}`
    : '';
  const detail = entry.detail ? `<span class="p-category">${escapeText(entry.detail)}</span>` : '';
  return (
    `<li class="h-entry"${attribute('data-canonical-id', entry.canonicalId)}><a class="title u-url p-name"${attribute('href', entry.href)}>${escapeText(entry.title)}</a>` +
    `<div class="meta">${date}${detail}</div>${entry.picture ? picture(entry.picture) : ''}</li>`
  );
}

/** The records section's content, as parts (a row each) for `pageBytes`. */
function records(view: CollectionView): string[] {
  const { empty } = view;
  if (empty) {
    const imports =
      empty.imports.length > 0 ? `<p>or bring them from a service's export:</p><pre><code>${escapeText(empty.imports.join('\n'))}</code></pre>` : '';
    const sync = empty.sync
      ? `<p>or keep them current from ${escapeText(empty.sync.sources.join(', '))} with <code>${escapeText(empty.sync.command)}</code>.</p>`
      : '';
    return [
      `<div class="first-record"><p>No records yet. To add the first, write a file in <code>${escapeText(empty.folder)}</code> (docs/content.md says how), or run</p>` +
        `<pre><code>${escapeText(empty.create)}</code></pre>${imports}${sync}</div>`,
    ];
  }
  if (view.items.length === 0)
    return [`<p>No records match. <a${attribute('href', `/${view.name}/`)}>See all ${escapeText(view.title.toLowerCase())}</a>.</p>`];
  return ['<ol class="items">', ...view.items.map(item), '</ol>'];
}

/** Links to the first and the next page of a list (keyset cursors move forward only); nothing when there is neither. src/components/Pager.astro places it on the search page. */
export function pager(first: string | undefined, next: string | undefined): string {
  if (!first && !next) return '';
  const firstLink = first ? `<a${attribute('href', first)} rel="first">← First page</a>` : '';
  const nextLink = next ? `<a${attribute('href', next)} rel="next">Next page →</a>` : '';
  return `<nav aria-label="Pages"><ul class="pager"><li>${firstLink}</li><li>${nextLink}</li></ul></nav>`;
}

const chips = (links: readonly LinkView[], label: (link: LinkView) => string) =>
  `<ul>${links.map((l) => `<li><a class="chip"${attribute('href', l.href)}${attribute('aria-current', l.active ? 'true' : undefined)}>${label(l)}</a></li>`).join('')}</ul>`;

/** The page's main content, as src/components/CollectionPage.astro places it in the layout. */
export const collectionBody = (view: CollectionView): string => bodyParts(view).join('');

/** The page's main content in parts, each encoded on its own (`pageBytes`). */
function bodyParts(view: CollectionView): string[] {
  const showing = view.items.length === view.totalCount ? `${view.totalCount} records` : `${view.items.length} of ${view.totalCount} records on this page`;
  const home = view.applied.length === 0 && !view.first ? 'page' : undefined;
  const applied =
    view.applied.length > 0
      ? `<nav aria-label="Filters in use"><ul class="applied">${view.applied
          .map(
            (a) =>
              `<li><a class="chip" aria-current="true"${attribute('href', a.href)}>${escapeText(a.label)} <span aria-hidden="true">×</span><span class="visually-hidden"> (remove)</span></a></li>`,
          )
          .join('')}</ul></nav>`
      : '';
  const plain = (l: LinkView) => escapeText(l.label);
  const facets = view.facets
    .map((f) => `<h2>${escapeText(f.label)}</h2>${chips(f.values, (v) => `${escapeText(v.label)} <span class="count-badge">${v.count}</span>`)}`)
    .join('');
  return [
    `<nav class="breadcrumbs" aria-label="Breadcrumbs"><ol><li><a href="/">Home</a></li><li><a${attribute('href', `/${view.name}/`)}${attribute('aria-current', home)}>${escapeText(view.title)}</a></li></ol></nav>` +
      `<h1>${escapeText(view.title)}</h1><p class="lede">${escapeText(view.description)}</p>` +
      `<p class="muted">${escapeText(showing)}. The same list as <a${attribute('href', view.apiPath)}>JSON</a>.</p>${applied}` +
      `<div class="layout"><section aria-labelledby="records" class="h-feed"><h2 id="records" class="p-name">Records</h2>`,
    ...records(view),
    `${pager(view.first, view.next)}</section>`,
    `<aside class="filters" aria-label="Filters and sorting"><h2>Sort by</h2>${chips(view.sorts, plain)}<h2>Per page</h2>${chips(view.sizes, plain)}${facets}</aside></div>`,
  ];
}

/** The stand-ins the frame is rendered with: a query string and a body no page has. */
const FRAME_QUERY = '?collection-page-frame';
export const FRAME_BODY = '<collection-page-frame-body>';

/** The view the frame of collection `view` is rendered from: its path with the stand-in query. */
export const frameView = (view: CollectionView): CollectionView => ({ ...view, path: `/${view.name}/${FRAME_QUERY}` });

/** A frame cut at its stand-ins: the pieces between them, and what goes into each gap. */
export interface Frame {
  pieces: string[];
  gaps: ('canonical' | 'markdown' | 'body')[];
}

/**
 * The frame of `name`'s pages from the layout rendered around FRAME_BODY for frameView's
 * path; undefined when it is not of that shape (the caller then renders through Astro).
 */
export function cutFrame(html: string, name: string, siteUrl: string): Frame | undefined {
  const path = `/${name}/${FRAME_QUERY}`;
  // The frame's path has a query string, so the layout names it as its own Markdown twin: each
  // other place it shows is the canonical URL.
  const stand: Record<Frame['gaps'][number], string> = {
    canonical: escapeAttribute(siteUrl ? new URL(path, siteUrl).href : '\u0000'),
    markdown: escapeAttribute(path),
    body: FRAME_BODY,
  };
  const pieces: string[] = [];
  const gaps: Frame['gaps'] = [];
  let from = 0;
  for (;;) {
    let next: { at: number; gap: keyof typeof stand } | undefined;
    for (const gap of ['canonical', 'markdown', 'body'] as const) {
      const at = html.indexOf(stand[gap], from);
      // The canonical URL holds the path further on: the earliest stand-in found is the one there.
      if (at >= 0 && (next === undefined || at < next.at)) next = { at, gap };
    }
    if (next === undefined) break;
    pieces.push(html.slice(from, next.at));
    gaps.push(next.gap);
    from = next.at + stand[next.gap].length;
  }
  pieces.push(html.slice(from));
  return gaps.filter((g) => g === 'body').length === 1 ? { pieces, gaps } : undefined;
}

/**
 * A page of the collection, encoded: its frame with its canonical URL, its twin's address
 * and its body put in. Each part is encoded on its own into one buffer: most are one-byte
 * strings, which encode at once, where the page as one string is two-byte as soon as one
 * arrow or ellipsis is in it, and encoding it whole cost as much as building it (measured:
 * 60–100 µs for a page of 18 kB, 13 % of the page in a CPU profile).
 */
export function pageBytes(frame: Frame, view: CollectionView, siteUrl: string): Buffer {
  const fill = {
    canonical: siteUrl ? escapeAttribute(new URL(view.path, siteUrl).href) : '',
    markdown: escapeAttribute(collectionFrame(view).markdown),
  };
  const parts = [frame.pieces[0]!];
  for (let i = 0; i < frame.gaps.length; i++) {
    const gap = frame.gaps[i]!;
    if (gap === 'body') parts.push(...bodyParts(view));
    else parts.push(fill[gap]);
    parts.push(frame.pieces[i + 1]!);
  }
  let length = 0;
  for (const part of parts) length += Buffer.byteLength(part);
  const bytes = Buffer.allocUnsafe(length);
  let at = 0;
  for (const part of parts) at += bytes.write(part, at);
  return bytes;
}
