/** One tag of the API reference as Markdown. */
import type { APIRoute } from 'astro';
import { apiReference, tagView } from '../../../../site/api-reference.ts';
import { referenceTagMarkdown } from '../../../../site/markdown.ts';

export function getStaticPaths() {
  return apiReference().tags.map((t) => ({ params: { tag: t.name } }));
}

export const GET: APIRoute = ({ params }) =>
  new Response(referenceTagMarkdown(tagView(apiReference(), params.tag!)!), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
