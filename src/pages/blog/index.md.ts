/** The blog index's Markdown twin. */
import type { APIRoute } from 'astro';
import { blogPosts } from '../../components/page-data.ts';
import { blogIndexMarkdown } from '../../site/markdown.ts';
import { withStagedCore } from '../../site/staged.ts';

export const GET: APIRoute = () =>
  new Response(
    withStagedCore((core) => blogIndexMarkdown(blogPosts(core))),
    { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } },
  );
