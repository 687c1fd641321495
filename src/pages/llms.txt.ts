/** `/llms.txt` (llmstxt.org): the site's sections, Markdown twins and API entry points for language models. */
import type { APIRoute } from 'astro';
import { homeView } from '../site/home.ts';
import { llmsTxt } from '../site/markdown.ts';
import { withStagedCore } from '../site/staged.ts';

export const GET: APIRoute = () =>
  new Response(
    withStagedCore((core) => llmsTxt(homeView(core), core.image.siteUrl)),
    { headers: { 'Content-Type': 'text/plain; charset=utf-8' } },
  );
