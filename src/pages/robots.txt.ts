/**
 * `/robots.txt`: every crawler may read the site, and the owner's AI-use preferences are
 * stated as a Content-Signal line (contentsignals.org), from the profile (content/site.yaml,
 * whose defaults are the stance the pages and APIs send as `Content-Signal` and
 * `Content-Usage` headers).
 */
import type { APIRoute } from 'astro';
import { contentSignalLine } from '../collections/profile.ts';
import { PAGES } from '../urls.ts';
import { withStagedCore } from '../site/staged.ts';

export const GET: APIRoute = () => {
  const { siteUrl, profile } = withStagedCore((core) => ({ siteUrl: core.image.siteUrl, profile: core.image.profile }));
  const signal = profile.contentSignal;
  const text = [
    '# The owner’s preferences for automated use of this content (https://contentsignals.org/):',
    `# search=${signal.search}: index and link to it; ai-input=${signal['ai-input']}: use it to answer a question; ai-train=${signal['ai-train']}: train models on it.`,
    'User-Agent: *',
    `Content-Signal: ${contentSignalLine(profile)}`,
    'Allow: /',
    '',
    `Sitemap: ${new URL(PAGES.sitemap, siteUrl).href}`,
    '',
  ].join('\n');
  return new Response(text, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
