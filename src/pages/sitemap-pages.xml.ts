/** The prerendered pages' sitemap. */
import type { APIRoute } from 'astro';
import { pagesSitemap } from '../site/sitemap.ts';
import { withStagedCore } from '../site/staged.ts';

export const GET: APIRoute = () =>
  new Response(
    withStagedCore((core) => pagesSitemap(core.image)),
    { headers: { 'Content-Type': 'application/xml' } },
  );
