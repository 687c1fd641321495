/**
 * `/robots.txt`: every crawler may read the site, and the owner's AI-use preferences are
 * stated as a Content-Signal line (contentsignals.org), the same stance the pages and APIs
 * send as `Content-Signal` and `Content-Usage` headers.
 */
import type { APIRoute } from 'astro';
import { CONTENT_SIGNAL } from '../http/headers.ts';
import { PAGES } from '../urls.ts';
import { withStagedCore } from '../site/staged.ts';

export const GET: APIRoute = () => {
  const siteUrl = withStagedCore((core) => core.image.siteUrl);
  const text = [
    '# The owner’s preferences for automated use of this content (https://contentsignals.org/):',
    '# search: yes (index and link to it), ai-input: yes (use it to answer a question), ai-train: no (do not train models on it).',
    'User-Agent: *',
    `Content-Signal: ${CONTENT_SIGNAL.replaceAll(' ', '')}`,
    'Allow: /',
    '',
    `Sitemap: ${new URL(PAGES.sitemap, siteUrl).href}`,
    '',
  ].join('\n');
  return new Response(text, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
