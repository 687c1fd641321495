/**
 * Mastodon (Preferences → Import and export → Request your archive): a ZIP with
 * `outbox.json` (an ActivityStreams OrderedCollection of `Create` activities holding
 * `Note`s, and `Announce`s) and `actor.json`. One tweets record per public post, matched by
 * its status id, the author as `@user@host`, the text from the post's HTML (paragraphs and
 * line breaks kept, tags dropped, entities decoded). Privacy: a post is public only when
 * its `to` names the public collection; unlisted, followers-only and direct posts never
 * reach a file, nor do boosts (someone else's post) or the archive's likes, bookmarks and
 * media. A content warning is not kept (the collection has no field for it).
 */
import { entriesNamed, readEntry } from '../archive.ts';
import { ImportRefused } from '../problems.ts';
import { yearPart, type Candidate, type ImportSource, type ReadContext } from '../source.ts';

const PUBLIC = new Set(['https://www.w3.org/ns/activitystreams#Public', 'as:Public', 'Public']);

interface Note {
  id?: string;
  type?: string;
  url?: string;
  published?: string;
  inReplyTo?: string | null;
  content?: string;
  to?: string | string[];
}

interface Activity {
  type?: string;
  to?: string | string[];
  object?: Note | string;
}

const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** A post's HTML as the plain text it shows: paragraphs apart by a blank line, `<br>` as a new line. */
export function htmlText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*<p[^>]*>/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
      }
      return ENTITIES[name.toLowerCase()] ?? all;
    })
    .trim();
}

async function readJson(context: ReadContext, name: string): Promise<unknown> {
  const entry = entriesNamed(context.input, new RegExp(`^${name.replace('.', '\\.')}$`))[0];
  if (!entry) throw new ImportRefused(`${context.input.shown} is not a Mastodon archive: it has no ${name}.`);
  try {
    return JSON.parse((await readEntry(entry)).toString('utf8')) as unknown;
  } catch (error) {
    if (error instanceof ImportRefused) throw error;
    throw new ImportRefused(`${entry.name} is not valid JSON (${(error as Error).message}).`);
  }
}

async function* read(context: ReadContext): AsyncGenerator<Candidate> {
  const actor = (await readJson(context, 'actor.json')) as { id?: string; preferredUsername?: string; name?: string };
  const outbox = (await readJson(context, 'outbox.json')) as { type?: string; orderedItems?: unknown };
  if (!actor.id || !actor.preferredUsername) throw new ImportRefused('actor.json names no account (id and preferredUsername).');
  if (!Array.isArray(outbox.orderedItems)) throw new ImportRefused('outbox.json is not an ActivityStreams collection (no orderedItems).');
  const host = new URL(actor.id).host;
  const author = `@${actor.preferredUsername}@${host}`;
  const items = outbox.orderedItems as Activity[];
  for (let i = 0; i < items.length; i++) {
    const activity = items[i]!;
    if (activity.type === 'Announce') {
      context.dropped('boosts');
      continue;
    }
    const note = activity.object;
    if (activity.type !== 'Create' || typeof note !== 'object' || note === null || note.type !== 'Note') continue;
    if (!list(note.to ?? activity.to).some((t) => PUBLIC.has(t))) {
      context.dropped('posts that are not public');
      continue;
    }
    yield {
      origin: `outbox.json[${i}]`,
      fields: {
        tweetId: note.id?.split('/').pop(),
        author,
        authorName: actor.name?.trim() || actor.preferredUsername,
        text: htmlText(note.content ?? ''),
        createdAt: note.published,
        url: note.url ?? note.id,
        inReplyTo: note.inReplyTo ?? undefined,
      },
    };
  }
}

export const mastodon: ImportSource = {
  name: 'mastodon',
  collection: 'tweets',
  sourceIdOf: (r) => (typeof r.tweetId === 'string' ? r.tweetId : undefined),
  fileOf: (r) => `mastodon-${yearPart(r.createdAt)}.yaml`,
  sortKeyOf: (r) => `${String(r.createdAt ?? '')}\u0000${String(r.tweetId ?? '').padStart(20, '0')}`,
  dateOf: (r) => (typeof r.createdAt === 'string' ? r.createdAt : undefined),
  read,
};
