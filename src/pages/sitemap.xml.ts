/** `/sitemap.xml`: the sitemap index (src/site/sitemap.ts). */
import type { APIRoute } from 'astro';
import { sitemapIndex } from '../site/sitemap.ts';
import { withStagedCore } from '../site/staged.ts';

export const GET: APIRoute = () =>
  new Response(
    withStagedCore((core) => sitemapIndex(core.image)),
    { headers: { 'Content-Type': 'application/xml' } },
  );
