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
import { yearPart, type Candidate, type ImportSource, type Mapped, type ReadContext } from '../source.ts';

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

/**
 * One post as Mastodon gives it (a `Create{Note}` of the archive's outbox, or a Status of
 * the API, src/sync/sources/mastodon.ts), reduced to what a record takes and what decides
 * whether it is kept.
 */
export interface PostRaw {
  /** The status id (the snowflake: the last segment of the archive's Note id). */
  id: string | undefined;
  /** `@user@host`. */
  author: string;
  authorName: string;
  html: string;
  published: string | undefined;
  url: string | undefined;
  /** The URL of the post it answers, when the source says it. */
  inReplyTo?: string | undefined;
  /** Addressed to the public collection (the archive's `to`; the API's `visibility: public`). */
  public: boolean;
  /** A boost: someone else's post. */
  boost: boolean;
}

/** The one mapping of a Mastodon post onto a tweets record, for the archive and the API. */
export function mapPost(post: PostRaw): Mapped {
  if (post.boost) return { skip: 'boosts' };
  if (!post.public) return { skip: 'posts that are not public' };
  return {
    fields: {
      tweetId: post.id,
      author: post.author,
      authorName: post.authorName,
      text: htmlText(post.html),
      createdAt: post.published,
      url: post.url,
      inReplyTo: post.inReplyTo ?? undefined,
    },
  };
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
    const note = activity.object;
    const boost = activity.type === 'Announce';
    if (!boost && (activity.type !== 'Create' || typeof note !== 'object' || note === null || note.type !== 'Note')) continue;
    const n: Note = typeof note === 'object' && note !== null ? note : {};
    const mapped = mapPost({
      id: n.id?.split('/').pop(),
      author,
      authorName: actor.name?.trim() || actor.preferredUsername,
      html: n.content ?? '',
      published: n.published,
      url: n.url ?? n.id,
      inReplyTo: n.inReplyTo ?? undefined,
      public: list(n.to ?? activity.to).some((t) => PUBLIC.has(t)),
      boost,
    });
    if ('fields' in mapped) yield { origin: `outbox.json[${i}]`, fields: mapped.fields };
    else if ('skip' in mapped) context.dropped(mapped.skip);
    else context.problem({ origin: `outbox.json[${i}]`, ...mapped.problem });
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
