/** The problem registry's Markdown twin. */
import type { APIRoute } from 'astro';
import { PROBLEMS } from '../../core/problems.ts';
import { problemsMarkdown } from '../../site/markdown.ts';

export const GET: APIRoute = () =>
  new Response(problemsMarkdown(Object.entries(PROBLEMS).map(([slug, p]) => ({ slug, ...p }))), {
    headers: { 'Content-Type': 'text/markdown; charset=utf-8' },
  });
