/**
 * Pocket (getpocket.com/export, before it closed in 2025): a ZIP of CSV parts
 * (`part_000000.csv`: `title,url,time_added,tags,status`), or the older single HTML file
 * (`ril_export.html`: lists of `<a href time_added tags>` under "Unread" and "Read
 * Archive"). One reading record per saved link, matched by its URL: `time_added` (Unix
 * seconds) as `savedAt`, the `|`- (or, in HTML, `,`-) separated tags. A link Pocket kept
 * without a title is titled with its URL. Not kept: the unread/archive status (the export
 * says when a link was saved, never when it was read, so no `readAt` is made up).
 */
import { readEntry } from '../archive.ts';
import { readCsv, type Columns } from '../csv.ts';
import { ImportRefused } from '../problems.ts';
import { yearPart, type Candidate, type ImportSource, type ReadContext } from '../source.ts';

type Key = 'title' | 'url' | 'timeAdded' | 'tags';

const COLUMNS: Columns<Key> = {
  title: { names: ['title'] },
  url: { names: ['url'], required: true },
  timeAdded: { names: ['time_added'], required: true },
  tags: { names: ['tags'] },
};

const isoSeconds = (s: string | undefined) => (s && /^\d{1,12}$/.test(s) ? new Date(Number(s) * 1000).toISOString().replace('.000Z', 'Z') : s);

function record(title: string | undefined, url: string | undefined, added: string | undefined, tags: string[]): Record<string, unknown> {
  return { title: title?.trim() || url, url, savedAt: isoSeconds(added), tags: tags.length ? [...new Set(tags)].sort() : undefined };
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const decode = (s: string) => s.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);
const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag)?.[1];

async function* readHtml(context: ReadContext, name: string, html: string): AsyncGenerator<Candidate> {
  const links = [...html.matchAll(/<a\s[^>]*>([\s\S]*?)<\/a>/gi)];
  if (!links.length) throw new ImportRefused(`${name} is not a Pocket HTML export: it holds no saved links.`);
  for (const [i, m] of links.entries()) {
    const tag = m[0].slice(0, m[0].indexOf('>') + 1);
    const tags = attr(tag, 'tags');
    yield {
      origin: `${name} link ${i + 1}`,
      fields: record(
        decode(m[1]!.replace(/<[^>]*>/g, '')),
        attr(tag, 'href') && decode(attr(tag, 'href')!),
        attr(tag, 'time_added'),
        tags
          ? decode(tags)
              .split(',')
              .map((t) => t.trim())
              .filter(Boolean)
          : [],
      ),
    };
  }
  void context;
}

async function* read(context: ReadContext): AsyncGenerator<Candidate> {
  const html = context.input.entries.find((e) => /\.html?$/i.test(e.name));
  const parts = context.input.entries.filter((e) => /\.csv$/i.test(e.name));
  if (!parts.length && html) {
    yield* readHtml(context, html.name, (await readEntry(html)).toString('utf8'));
    return;
  }
  if (!parts.length) throw new ImportRefused(`${context.input.shown} is not a Pocket export: it has no part_*.csv nor an HTML export.`);
  for (const part of parts) {
    for await (const row of readCsv(part, 'a Pocket export part (title,url,time_added,tags,status)', COLUMNS)) {
      const tags = row.get('tags');
      yield {
        origin: `${part.name} row ${row.row}`,
        fields: record(
          row.get('title'),
          row.get('url'),
          row.get('timeAdded'),
          tags
            ? tags
                .split('|')
                .map((t) => t.trim())
                .filter(Boolean)
            : [],
        ),
      };
    }
  }
}

export const pocket: ImportSource = {
  name: 'pocket',
  collection: 'reading',
  sourceIdOf: (r) => (typeof r.url === 'string' ? r.url : undefined),
  fileOf: (r) => `pocket-${yearPart(r.savedAt)}.yaml`,
  sortKeyOf: (r) => `${String(r.savedAt ?? '')}\u0000${String(r.url ?? '')}`,
  dateOf: (r) => (typeof r.savedAt === 'string' ? r.savedAt : undefined),
  read,
};
