/** The Markdown twin of every collection's page one, prerendered beside its HTML page. */
import type { APIRoute } from 'astro';
import { collectionMarkdown } from '../../site/markdown.ts';
import { withStagedCore } from '../../site/staged.ts';
import { firstPageView, pageCollection, pageCollections } from '../../site/view.ts';

export function getStaticPaths() {
  return pageCollections.map((c) => ({ params: { collection: c.name } }));
}

export const GET: APIRoute = ({ params }) =>
  new Response(
    withStagedCore((core) => collectionMarkdown(firstPageView(core, pageCollection(params.collection!)!))),
    {
      headers: { 'Content-Type': 'text/markdown; charset=utf-8' },
    },
  );
