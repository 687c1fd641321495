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
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';

const processor = unified().use(remarkParse).use(remarkRehype).use(rehypeSanitize).use(rehypeHighlight).use(rehypeStringify);

export function markdownToHtml(markdown: string): string {
  return String(processor.processSync(markdown));
}

const withTables = unified().use(remarkParse).use(remarkGfm).use(remarkRehype).use(rehypeSanitize).use(rehypeHighlight).use(rehypeStringify);

/**
 * As markdownToHtml, with GitHub Flavored Markdown (remark-gfm) too: the OpenAPI
 * descriptions hold tables of media types and limits. Blog bodies keep CommonMark alone,
 * so what an owner wrote renders as it always did.
 */
export function markdownWithTablesToHtml(markdown: string): string {
  return String(withTables.processSync(markdown));
}
