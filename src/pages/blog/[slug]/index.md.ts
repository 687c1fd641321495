/** Each post's Markdown twin, beside its page. */
import type { APIRoute } from 'astro';
import { blogPosts } from '../../../components/page-data.ts';
import { blogPostMarkdown } from '../../../site/markdown.ts';
import { withStagedCore } from '../../../site/staged.ts';

export function getStaticPaths() {
  return withStagedCore((core) => blogPosts(core).map((post) => ({ params: { slug: String(post.slug) }, props: { post } })));
}

export const GET: APIRoute = ({ props }) =>
  new Response(blogPostMarkdown((props as { post: Record<string, unknown> }).post), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
