/** The search page's Markdown twin (without a query). */
import type { APIRoute } from 'astro';
import { searchMarkdown } from '../../site/markdown.ts';

export const GET: APIRoute = () => new Response(searchMarkdown(undefined), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
