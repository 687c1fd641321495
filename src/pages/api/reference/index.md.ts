/** The API reference's front page as Markdown. */
import type { APIRoute } from 'astro';
import { apiReference } from '../../../site/api-reference.ts';
import { referenceMarkdown } from '../../../site/markdown.ts';

export const GET: APIRoute = () => new Response(referenceMarkdown(apiReference()), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
