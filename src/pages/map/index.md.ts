/** The map page's Markdown twin: the located records with their coordinates. */
import type { APIRoute } from 'astro';
import { mapMarkdown } from '../../site/markdown.ts';
import { mapView, MAPPED } from '../../site/map.ts';
import { withStagedCore } from '../../site/staged.ts';

export const GET: APIRoute = () =>
  new Response(
    withStagedCore((core) => mapMarkdown(mapView(core, MAPPED()))),
    { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } },
  );
