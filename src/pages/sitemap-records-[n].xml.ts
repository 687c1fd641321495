/** The record pages' sitemaps, 50,000 URLs each. */
import type { APIRoute } from 'astro';
import { recordSitemap, recordSitemapCount } from '../site/sitemap.ts';
import { withStagedCore } from '../site/staged.ts';

export function getStaticPaths() {
  const count = withStagedCore((core) => recordSitemapCount(core.image));
  return Array.from({ length: count }, (_, i) => ({ params: { n: String(i + 1) } }));
}

export const GET: APIRoute = ({ params }) =>
  new Response(
    withStagedCore((core) => recordSitemap(core.image, Number(params.n))),
    { headers: { 'Content-Type': 'application/xml' } },
  );
