/**
 * Blog post bodies, Markdown to HTML: remark parses, remark-rehype turns the syntax tree
 * into HTML (raw HTML in the Markdown is dropped, never passed through), rehype-sanitize
 * keeps only GitHub's safe subset (no scripts, styles, event handlers or `javascript:`
 * URLs), and only then rehype-highlight adds its `hljs` classes to fenced code with a
 * language — sanitising first means the highlighter's own markup is never stripped.
 */
import rehypeHighlight from 'rehype-highlight';
import rehypeSanitize from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';

const processor = unified().use(remarkParse).use(remarkRehype).use(rehypeSanitize).use(rehypeHighlight).use(rehypeStringify);

export function markdownToHtml(markdown: string): string {
  return String(processor.processSync(markdown));
}

const TABLE_ROW = /^\|.*\|\s*$/;
const TABLE_RULE = /^\|(\s*:?-+:?\s*\|)+\s*$/;

/** A table row's cells: between the outer pipes, split at pipes that are not escaped. */
const cells = (row: string) => row.trim().slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));

/** One cell's Markdown as inline HTML (the paragraph remark wraps it in, unwrapped). */
const inline = (markdown: string) => markdownToHtml(markdown).trim().replace(/^<p>([\s\S]*)<\/p>$/, '$1');

/**
 * As markdownToHtml, with GFM pipe tables too (the OpenAPI descriptions hold tables of
 * media types and limits): each table becomes a `<table>` whose cells go through the same
 * sanitising pipeline; the rest is CommonMark as before.
 */
export function markdownWithTablesToHtml(markdown: string): string {
  const lines = markdown.split('\n');
  const html: string[] = [];
  let text: string[] = [];
  const flush = () => {
    if (text.join('').trim() !== '') html.push(markdownToHtml(text.join('\n')));
    text = [];
  };
  for (let i = 0; i < lines.length; i++) {
    if (!(TABLE_ROW.test(lines[i]!) && TABLE_RULE.test(lines[i + 1] ?? ''))) {
      text.push(lines[i]!);
      continue;
    }
    flush();
    const head = cells(lines[i]!);
    const rows: string[][] = [];
    for (i += 2; i < lines.length && TABLE_ROW.test(lines[i]!); i++) rows.push(cells(lines[i]!));
    i--;
    html.push(
      `<table><thead><tr>${head.map((c) => `<th scope="col">${inline(c)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`,
    );
  }
  flush();
  return html.join('\n');
}
