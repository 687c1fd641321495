/**
 * Markdown twins of HTML answers made on request (the owner lane's consent, connected
 * clients and sign-in error pages): every HTML page has one, as the README says. A page
 * carries its twin beside its HTML (`Answer.markdown`), and the dispatcher sends the one
 * `Accept` prefers (`answerFor`): Markdown to a client that prefers it to HTML, HTML
 * otherwise (browsers, `*∕*`, no Accept), with `Vary: Accept` either way. The twin of a
 * small server-side template is written from its HTML by `htmlMarkdown`, which knows the
 * few elements such templates use (headings, paragraphs, lists, emphasis, code, links,
 * forms and their buttons) and drops any other tag, keeping its text.
 */
import type { Answer } from './answer.ts';
import { negotiate } from './negotiate.ts';

export const MARKDOWN_MEDIA_TYPE = 'text/markdown; charset=utf-8';

/** The answer with its Markdown twin attached. */
export function withMarkdownTwin(answer: Answer, markdown: string): Answer {
  return { ...answer, headers: { ...answer.headers, Vary: 'Accept' }, markdown: Buffer.from(markdown) };
}

/** Whether `Accept` prefers Markdown to HTML (ties go to HTML: browsers and `*∕*` get the page). */
export const prefersMarkdown = (accept: string | null) => negotiate(accept, ['text/html', 'text/markdown']) === 'text/markdown';

/** The representation `Accept` asks for: the twin in place of the HTML when Markdown is preferred. */
export function answerFor(accept: string | null, answer: Answer): Answer {
  if (answer.markdown === undefined) return answer;
  const { markdown, ...html } = answer;
  if (!prefersMarkdown(accept)) return html;
  return {
    ...html,
    headers: { ...html.headers, 'Content-Type': MARKDOWN_MEDIA_TYPE, 'Content-Length': String(markdown.byteLength) },
    body: html.body === null ? null : markdown,
  };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };
const text = (html: string) => html.replace(/<[^>]*>/g, '').replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name]!);

/** A server-side template's HTML fragment as Markdown. */
export function htmlMarkdown(html: string): string {
  const markdown = html
    // A form is for a browser: say where it posts and what it offers.
    .replace(/<form\b[^>]*\baction="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g, (_, action: string, inner: string) => {
      const buttons = [...inner.matchAll(/<button\b[^>]*>([\s\S]*?)<\/button>/g)].map((m) => `**${text(m[1]!).trim()}**`);
      return `\n\nIn a browser, this page offers ${buttons.join(' or ')} (a form posted to \`${text(action)}\`).\n\n`;
    })
    .replace(/<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1>/g, (_, level: string, inner: string) => `\n\n${'#'.repeat(Number(level))} ${inner.trim()}\n\n`)
    .replace(/<li\b[^>]*>/g, '\n- ')
    .replace(/<\/(ul|ol|p)>|<(ul|ol|p)\b[^>]*>/g, '\n\n')
    .replace(/<\/?(strong|b)>/g, '**')
    .replace(/<\/?(em|i)>/g, '_')
    .replace(/<\/?code>/g, '`')
    .replace(/<a\b[^>]*\bhref="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g, (_, href: string, inner: string) => `[${inner}](${href})`);
  return (
    text(markdown)
      .split('\n')
      .map((line) => line.trim())
      // A list item that holds blocks (a heading, a form) keeps them, not an empty bullet.
      .filter((line) => line !== '-')
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}

/** A whole page's twin: its title as the heading, then its content. */
export const pageMarkdown = (title: string, html: string) => `# ${title}\n\n${htmlMarkdown(html)}\n`;
