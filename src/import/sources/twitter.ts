/**
 * Twitter / X (Settings → Your account → Download an archive of your data): a ZIP whose
 * `data/tweets.js` (older archives: `tweet.js`; large ones add `tweets-part1.js`, …) is
 * JavaScript, `window.YTD.tweets.part0 = [{"tweet": {…}}]`: the assignment is checked and
 * the array read as JSON, one tweet at a time as the file streams in, never evaluated.
 * The handle and name come from `data/account.js`. One record per tweet, matched by its
 * id: the text with its t.co links expanded and HTML entities decoded, the date in UTC,
 * likes and reposts (strings in the archive) as numbers, the reply's link. Never read:
 * direct messages and everything else in the archive. Left out: retweets (the text is
 * someone else's).
 */
import { entryChunks, type ExportEntry } from '../archive.ts';
import { jsonArrayElements, JsonArrayError } from '../json-array.ts';
import { ImportRefused } from '../problems.ts';
import { yearPart, type Candidate, type ImportSource, type ReadContext } from '../source.ts';

interface ArchivedTweet {
  id_str?: string;
  full_text?: string;
  created_at?: string;
  favorite_count?: string | number;
  retweet_count?: string | number;
  in_reply_to_status_id_str?: string;
  in_reply_to_screen_name?: string;
  retweeted_status?: unknown;
  entities?: { urls?: { url?: string; expanded_url?: string }[] };
}

const YTD_HEAD = /^\uFEFF?\s*window\.YTD\.[A-Za-z0-9_]+\.part\d+\s*=\s*/;
/** After the array: whitespace, and the statement's `;`. */
const YTD_TAIL = /^[ \t\n\r]*(?:;\s*)?$/;

/**
 * The elements of the array a `window.YTD.<name>.partN = […]` file assigns, read from
 * the entry's stream one at a time (src/import/json-array.ts), each as JSON.
 */
export async function* readYtd(entry: ExportEntry): AsyncGenerator<unknown> {
  const head = (text: string, end: boolean) => {
    const m = YTD_HEAD.exec(text);
    if (!m) throw new ImportRefused(`${entry.name} is not an X/Twitter archive file: it does not start with window.YTD.<name>.part<N> =`);
    return (!end && m[0].length === text.length) || 'not an array';
  };
  try {
    yield* jsonArrayElements(entryChunks(entry), { head, tail: YTD_TAIL });
  } catch (error) {
    if (error instanceof JsonArrayError) throw new ImportRefused(`${entry.name} is not readable: ${error.message}`);
    throw error;
  }
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const decode = (s: string) => s.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `Wed Oct 10 20:19:24 +0000 2018` → `2018-10-10T20:19:24Z`. */
export function twitterDate(text: string | undefined): string | undefined {
  const m = /^\w{3} (\w{3}) (\d{2}) (\d{2}:\d{2}:\d{2}) \+0000 (\d{4})$/.exec(text ?? '');
  const month = m ? MONTHS.indexOf(m[1]!) : -1;
  return m && month >= 0 ? `${m[4]}-${String(month + 1).padStart(2, '0')}-${m[2]}T${m[3]}Z` : text;
}

const count = (v: string | number | undefined) => (v === undefined ? undefined : typeof v === 'number' ? v : /^\d+$/.test(v) ? Number(v) : v);

async function* read(context: ReadContext): AsyncGenerator<Candidate> {
  const parts = context.input.entries.filter((e) => /(^|\/)(tweets?(-part\d+)?)\.js$/.test(e.name));
  if (!parts.length) throw new ImportRefused(`${context.input.shown} is not an X/Twitter archive: it has no data/tweets.js.`);
  const accountEntry = context.input.entries.find((e) => /(^|\/)account\.js$/.test(e.name));
  if (!accountEntry)
    throw new ImportRefused(`${context.input.shown} is not an X/Twitter archive: it has no data/account.js (the handle the tweets are posted under).`);
  const accounts: unknown[] = [];
  for await (const item of readYtd(accountEntry)) accounts.push(item);
  const account = (accounts[0] as { account?: { username?: string; accountDisplayName?: string } } | undefined)?.account;
  if (!account?.username) throw new ImportRefused(`${accountEntry.name} names no username.`);
  const handle = account.username;
  for (const part of parts) {
    let i = -1;
    for await (const item of readYtd(part)) {
      i++;
      const tweet = ((item as { tweet?: ArchivedTweet }).tweet ?? item) as ArchivedTweet;
      const text = tweet.full_text ?? '';
      if (tweet.retweeted_status !== undefined || text.startsWith('RT @')) {
        context.dropped('retweets');
        continue;
      }
      let expanded = text;
      for (const u of tweet.entities?.urls ?? []) if (u.url && u.expanded_url) expanded = expanded.split(u.url).join(u.expanded_url);
      const replyId = tweet.in_reply_to_status_id_str;
      yield {
        origin: `${part.name}[${i}]`,
        fields: {
          tweetId: tweet.id_str,
          author: `@${handle}`,
          authorName: account.accountDisplayName ?? handle,
          text: decode(expanded),
          createdAt: twitterDate(tweet.created_at),
          url: `https://x.com/${handle}/status/${tweet.id_str}`,
          inReplyTo: replyId ? `https://x.com/${tweet.in_reply_to_screen_name ?? 'i/web'}/status/${replyId}` : undefined,
          likes: count(tweet.favorite_count),
          reposts: count(tweet.retweet_count),
        },
      };
    }
  }
}

export const twitter: ImportSource = {
  name: 'twitter',
  collection: 'tweets',
  sourceIdOf: (r) => (typeof r.tweetId === 'string' ? r.tweetId : undefined),
  fileOf: (r) => `twitter-${yearPart(r.createdAt)}.yaml`,
  sortKeyOf: (r) => `${String(r.createdAt ?? '')}\u0000${String(r.tweetId ?? '').padStart(20, '0')}`,
  dateOf: (r) => (typeof r.createdAt === 'string' ? r.createdAt : undefined),
  read,
};
