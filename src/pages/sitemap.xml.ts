/**
 * `/sitemap.xml` (sitemaps.org): the prerendered pages — home, every collection's page,
 * the blog and its posts, the API guide, subscriptions. Record pages are rendered on
 * request and reached through the collection pages' links.
 */
import type { APIRoute } from 'astro';
import { blogPath } from '../collections/blog.ts';
import { blogPosts } from '../components/page-data.ts';
import { withStagedCore } from '../site/staged.ts';
import { pageCollections } from '../site/view.ts';
import { collectionPageUrl, PAGES, URLS } from '../urls.ts';

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export const GET: APIRoute = () => {
  const { siteUrl, posts } = withStagedCore((core) => ({ siteUrl: core.image.siteUrl, posts: blogPosts(core) }));
  const paths = ['/', ...pageCollections.map((c) => collectionPageUrl(c.name)), URLS.blog, ...posts.map((p) => blogPath(String(p.slug))), PAGES.api, URLS.subscribe];
  const urls = paths.map((path) => `  <url><loc>${escapeXml(new URL(path, siteUrl).href)}</loc></url>`).join('\n');
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(xml, { headers: { 'Content-Type': 'application/xml' } });
};
