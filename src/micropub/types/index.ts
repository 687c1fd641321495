/**
 * The post types this site takes (issue 40), in the order Post Type Discovery checks
 * them, and the discovery itself: a post is the first type whose marking property it
 * carries; any other post is named by the W3C Post Type Discovery algorithm (a note, an
 * article, a like…) so the refusal can say what was sent and what is taken.
 */
import { first, text, textOf, type Mf2Object } from '../mf2.ts';
import type { PostType } from '../post-type.ts';
import { books } from './books.ts';
import { events } from './events.ts';
import { movies } from './movies.ts';
import { music } from './music.ts';
import { places } from './places.ts';

export const POST_TYPES: readonly PostType[] = [events, movies, books, places, music];

/** Post Type Discovery's name for a post no type here takes (W3C Note, §4), for the refusal. */
function discoveredName(entry: Mf2Object): string {
  const props = entry.properties;
  const kinds: [string, string][] = [
    ['rsvp', 'RSVP'],
    ['repost-of', 'repost'],
    ['like-of', 'like'],
    ['in-reply-to', 'reply'],
    ['bookmark-of', 'bookmark'],
    ['video', 'video'],
    ['photo', 'photo'],
  ];
  for (const [property, name] of kinds) if (props[property] !== undefined) return name;
  const name = text(entry, 'name');
  const content = textOf(first(entry, 'content')) ?? text(entry, 'summary') ?? '';
  return name && !content.replace(/\s+/g, ' ').startsWith(name.replace(/\s+/g, ' ')) ? 'article' : 'note';
}

/** The post's type here, or a description of why none takes it. */
export function postTypeOf(entry: Mf2Object): PostType | { refused: string } {
  const type = POST_TYPES.find((t) => t.matches(entry));
  if (type) return type;
  const kind = entry.type.find((t) => t !== 'h-entry') ?? discoveredName(entry);
  return {
    refused: `This site keeps collections, and a ${kind.replace(/^h-/, '')} post has none. It takes: ${POST_TYPES.map((t) => `${t.marker} (${t.collection})`).join(', ')}.`,
  };
}

export const postTypeFor = (collection: string) => POST_TYPES.find((t) => t.collection === collection);
