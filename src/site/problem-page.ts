/**
 * A refusal as a person reads it: the page a browser gets for a bad link to a site page
 * (`/movies/?year=abc`, a record that is not there, a method a page does not take, a spent
 * quota), and its Markdown twin for agents. Same status as the problem it stands for; it
 * says what was wrong (the problem's detail names the parameter and what it accepts) and
 * leads back. The HTML is the site's own not-found page (`/404.html`, prerendered in the
 * site's frame: navigation, styles, footer) with its title, description and main content
 * replaced, so it needs no render on request and keeps the site's look and policy (no
 * script, no inline style). Every interpolated value is escaped.
 */

/** Where a refused request stands: a site page (or a path with no route, or a target refused before routing), or an API surface. */
export type ProblemSite = 'page' | 'unrouted' | 'api';

export interface ProblemView {
  status: number;
  /** The problem's title (`Bad Request`). */
  title: string;
  /** The problem's safe detail: what was wrong and what is accepted. */
  detail: string;
  /** The query parameter at fault, when one is. */
  parameter?: string;
  /** The problem type's page (`/problems/invalid-query`). */
  type: string;
  /** Seconds until a retry is admitted (429, 503). */
  retryAfter?: string;
  /** Where to go from here, nearest first. */
  back: readonly { href: string; label: string }[];
}

/** A heading a person understands, by status; the problem's title otherwise. */
const HEADINGS: Record<number, string> = {
  400: 'This link asks for something the page cannot show',
  404: 'Nothing here',
  405: 'This page cannot take that request',
  406: 'This page is not available in that form',
  413: 'The request is too large',
  414: 'This link is too long',
  429: 'Too many requests',
  431: 'The request headers are too large',
};

export const headingOf = (view: ProblemView) => HEADINGS[view.status] ?? view.title;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

function retryText(view: ProblemView): string | undefined {
  return view.retryAfter === undefined ? undefined : `Try again in ${view.retryAfter} seconds.`;
}

/** The page's main content, as HTML. */
function mainHtml(view: ProblemView): string {
  const parts = [`<h1>${escape(headingOf(view))}</h1>`, `<p class="lede">${escape(view.detail)}</p>`];
  if (view.parameter !== undefined) parts.push(`<p>The parameter at fault is <code>${escape(view.parameter)}</code>.</p>`);
  const retry = retryText(view);
  if (retry) parts.push(`<p>${escape(retry)}</p>`);
  parts.push(`<p>Status ${view.status} (${escape(view.title)}): <a href="${escape(view.type)}">what this error means</a>.</p>`);
  parts.push(`<ul>${view.back.map((b) => `<li><a href="${escape(b.href)}">${escape(b.label)}</a></li>`).join('')}</ul>`);
  return parts.join('');
}

/**
 * The HTML page: `shell` is the site's not-found page, whose title, description and main
 * content give way to the problem's. Undefined when the shell has not the expected shape.
 */
export function problemPageHtml(shell: string, view: ProblemView): string | undefined {
  const start = shell.indexOf('<main id="main">');
  const end = shell.indexOf('</main>', start);
  if (start < 0 || end < 0) return undefined;
  const title = escape(`${headingOf(view)} · Collections`);
  const description = escape(view.detail);
  const head = shell
    .slice(0, start)
    .replace(/<title>[^<]*<\/title>/, `<title>${title}</title>`)
    .replace(/(<meta (?:name="description"|property="og:description") content=")[^"]*(")/g, `$1${description}$2`)
    .replace(/(<meta property="og:title" content=")[^"]*(")/, `$1${title}$2`);
  return `${head}<main id="main">${mainHtml(view)}${shell.slice(end)}`;
}

/** The Markdown twin of the page. */
export function problemPageMarkdown(view: ProblemView): string {
  // `<field>` in a detail is text, not a tag a Markdown renderer should drop.
  const lines = [`# ${headingOf(view)}`, '', view.detail.replace(/[<>]/g, (c) => `\\${c}`), ''];
  if (view.parameter !== undefined) lines.push(`- Parameter at fault: \`${view.parameter}\``);
  const retry = retryText(view);
  if (retry) lines.push(`- ${retry}`);
  lines.push(`- Status: ${view.status} ${view.title} ([what this error means](${view.type}))`, '');
  lines.push(view.back.map((b) => `[${b.label}](${b.href})`).join(' · '), '');
  return lines.join('\n');
}
