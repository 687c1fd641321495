/** The API guide's Markdown twin. */
import type { APIRoute } from 'astro';
import { apiGuideMarkdown } from '../../site/markdown.ts';

export const GET: APIRoute = () => new Response(apiGuideMarkdown(), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
