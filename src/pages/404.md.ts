/** The not-found page's Markdown twin: what an agent that prefers Markdown gets for a path with nothing published at it (status 404). */
import type { APIRoute } from 'astro';
import { PAGES } from '../urls.ts';

const TWIN = `# Nothing here

Nothing is published at this address. It may have moved, or the link may be mistyped.

The [home page](/) lists every collection; [search](${PAGES.search}) looks through all of them, and the [API guide](${PAGES.api}) says where programs start.
`;

export const GET: APIRoute = () => new Response(TWIN, { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
