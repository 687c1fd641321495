/** The subscribe page's Markdown twin: the calendars (webcal: and download links) and the place exports. */
import type { APIRoute } from 'astro';
import { escapeMarkdown } from '../../site/markdown.ts';
import { withStagedCore } from '../../site/staged.ts';
import { CALENDARS, EXPORTS } from '../../urls.ts';

export const GET: APIRoute = () => {
  const host = new URL(withStagedCore((core) => core.image.siteUrl)).host;
  const text = [
    '# Subscribe and export',
    '',
    '## Calendars',
    '',
    'Read-only iCalendar feeds; calendar apps refresh them about twice a day.',
    '',
    ...CALENDARS.map(
      (c) => `- ${escapeMarkdown(c.name)}: [subscribe](<webcal://${host}${c.path}>) · [download](<${c.path}>) — ${escapeMarkdown(c.description)}`,
    ),
    '',
    '## Places',
    '',
    ...EXPORTS.map((e) => `- [${e.path}](<${e.path}>) (${e.mediaType})`),
    '',
  ].join('\n');
  return new Response(text, { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
};
