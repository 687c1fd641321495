/** The home page's Markdown twin. */
import type { APIRoute } from 'astro';
import { homeView } from '../site/home.ts';
import { homeMarkdown } from '../site/markdown.ts';
import { withStagedCore } from '../site/staged.ts';

export const GET: APIRoute = () =>
  new Response(
    withStagedCore((core) => homeMarkdown(homeView(core))),
    { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } },
  );
