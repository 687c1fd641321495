/** One problem type's Markdown twin. */
import type { APIRoute } from 'astro';
import { PROBLEMS, type ProblemSlug } from '../../../core/problems.ts';
import { problemMarkdown } from '../../../site/markdown.ts';

export function getStaticPaths() {
  return Object.keys(PROBLEMS).map((slug) => ({ params: { slug } }));
}

export const GET: APIRoute = ({ params }) => {
  const slug = params.slug as ProblemSlug;
  return new Response(problemMarkdown({ slug, ...PROBLEMS[slug] }), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
};
