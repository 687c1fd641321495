/**
 * The cross-collection lists that are not collections: `GET /api/search.json` (ranked
 * hits across every content collection) and the feed documents `/feed.json` (JSON Feed
 * 1.1) and `/feed.xml` (Atom). Search answers like a collection list — the same envelope,
 * headers, cursors, negotiation (JSON, CSV) and problems — with its own parameters and
 * item schema; the names it takes come from the search parser's sources, not a copy.
 */
import { contentCollections } from '../collections/index.ts';
import { LIMITS } from '../core/limits.ts';
import { renderCsv } from '../formats/csv.ts';
import { ATOM_MEDIA_TYPE, JSON_FEED_MEDIA_TYPE } from '../formats/feed.ts';
import { SEARCH_COLUMNS } from '../http/search-list.ts';
import { CANONICAL_ID_PATTERN } from '../collections/item-schema.ts';
import { commonParameterRefs } from './parameters.ts';
import { PROBLEM_RESPONSES, problemRef, slugsWithStatus, type ProblemStatus } from './problems.ts';
import { headerRefs, LIST, PREFLIGHT, PROBLEM, type HeaderName } from './response-headers.ts';
import { ref, type JsonSchema, type Operation, type Parameter, type PathItem, type Reference } from './types.ts';
import { URLS } from '../urls.ts';

const NAMES = contentCollections.map((c) => c.name);
const ERRORS: ProblemStatus[] = [400, 406, 414, 429, 500];

const EXAMPLE_HIT = {
  canonicalId: 'itm_0123456789abcdef01234567',
  collection: 'blog',
  title: 'Running along the Spree',
  field: 'title',
  url: 'https://example.com/blog/running-along-the-spree/',
  date: '2021-05-02',
  year: 2021,
};

const uri = { type: 'string', format: 'uri' };

export const SEARCH_SCHEMAS: Record<string, JsonSchema> = {
  JsonFeed: {
    title: 'JSON Feed 1.1',
    description: 'The feed as JSON Feed 1.1 (https://jsonfeed.org/version/1.1); `_collections` is an extension naming each item’s collection and record.',
    type: 'object',
    properties: {
      version: { const: 'https://jsonfeed.org/version/1.1' },
      title: { type: 'string' },
      home_page_url: uri,
      feed_url: uri,
      description: { type: 'string' },
      language: { type: 'string' },
      authors: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
      items: {
        type: 'array',
        maxItems: LIMITS.feedDocumentItems,
        items: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            url: uri,
            title: { type: 'string' },
            content_text: { type: 'string' },
            date_published: { type: 'string', format: 'date-time' },
            tags: { type: 'array', items: { type: 'string' } },
            _collections: {
              type: 'object',
              properties: { collection: { type: 'string', enum: NAMES }, canonicalId: { type: 'string', pattern: CANONICAL_ID_PATTERN } },
              required: ['collection', 'canonicalId'],
            },
          },
          required: ['id', 'url', 'title', 'content_text', 'date_published'],
        },
      },
    },
    required: ['version', 'title', 'home_page_url', 'feed_url', 'items'],
  },
  SearchHit: {
    title: 'Search hit',
    description: 'One record that matched, whichever collection it belongs to.',
    type: 'object',
    properties: {
      canonicalId: { type: 'string', pattern: CANONICAL_ID_PATTERN, description: 'The record’s identifier, the same on every surface.' },
      collection: { type: 'string', enum: NAMES, description: 'The collection the record belongs to.' },
      title: { type: 'string', minLength: 1, description: 'The record’s one-line title.' },
      field: {
        type: 'string',
        minLength: 1,
        description: 'The searched field that matched: the collection’s first searched field when it holds the text, else the first other one that does.',
      },
      url: { type: 'string', format: 'uri', description: 'Where the record is read: a blog post’s or piece’s own URL, else its detail page.' },
      date: { type: 'string', description: 'The date of what happened (a date, or a date-time as the record gives it); absent when the record has none.' },
      year: { type: 'integer', minimum: 0, maximum: 9999, description: 'The year of `date`.' },
    },
    required: ['canonicalId', 'collection', 'title', 'field', 'url'],
    additionalProperties: false,
  },
  SearchPage: {
    title: 'Search page',
    type: 'object',
    properties: { data: { type: 'array', items: ref('schemas', 'SearchHit') }, meta: ref('schemas', 'PageMeta'), links: ref('schemas', 'PageLinks') },
    required: ['data', 'meta', 'links'],
    additionalProperties: false,
  },
};

function parameters(): (Parameter | Reference)[] {
  const common = commonParameterRefs().filter((r) => !r.$ref.endsWith('/facets'));
  return [
    ...common,
    {
      name: 'q',
      in: 'query',
      required: true,
      description: `The text to find: a case- and accent-insensitive substring of any searched field of any collection (the fields each collection's \`q\` searches). Required; empty, blank or longer than ${LIMITS.searchCharsMax} characters answers 400 invalid-query.`,
      schema: { type: 'string', minLength: 1, maxLength: LIMITS.searchCharsMax },
      example: 'zurich',
    },
    {
      name: 'collection',
      in: 'query',
      description: 'Only hits from these collections (repeat the parameter for several); an unknown name answers 400 invalid-query.',
      schema: { type: 'array', items: { type: 'string', enum: NAMES }, minItems: 1 },
      style: 'form',
      explode: true,
    },
    { name: 'year', in: 'query', description: 'Only hits whose date falls in this year.', schema: { type: 'integer', minimum: 1000, maximum: 9999 } },
  ];
}

function errors(head: boolean): Operation['responses'] {
  const responses: Operation['responses'] = {};
  for (const status of ERRORS) {
    if (!head) {
      responses[status] = problemRef(status);
      continue;
    }
    const slugs = slugsWithStatus(status)
      .map((s) => `\`${s}\``)
      .join(', ');
    responses[status] = {
      description: `As for GET (${slugs || PROBLEM_RESPONSES[status]}), headers only.`,
      headers: headerRefs(status === 429 ? [...PROBLEM, 'RetryAfter'] : PROBLEM),
    };
  }
  return responses;
}

const notModified = { description: 'Not modified: the client’s copy is current. No body.', headers: headerRefs(LIST) };

function searchPath(): PathItem {
  const description =
    'Ranked, cursor-paged hits across every content collection (the blog included). Ranking is deterministic: hits in a collection’s first searched field (its title or name) first, then hits in its other searched fields; within each, newer before older (records without a date last), then canonicalId. Each hit says its collection and the field that matched. Answered from a trigram full-text index built at compile time.\n\n' +
    'Representations, chosen by `Accept`: `application/json` (the list envelope) and `text/csv` (the hit fields as columns).';
  const csv = renderCsv(SEARCH_COLUMNS, [EXAMPLE_HIT]);
  return {
    summary: 'Search',
    description: 'Read-only: any method other than GET, HEAD and OPTIONS answers 405 with `Allow: GET, HEAD, OPTIONS`. The API-wide quota applies.',
    get: {
      operationId: 'search',
      summary: 'Search every collection',
      description,
      tags: ['search'],
      parameters: parameters(),
      responses: {
        200: {
          description: 'A page of hits.',
          headers: headerRefs(LIST),
          content: {
            'application/json': {
              schema: ref('schemas', 'SearchPage'),
              examples: {
                page: {
                  summary: 'A one-hit page',
                  value: {
                    data: [EXAMPLE_HIT],
                    meta: { totalCount: 1, pageSize: 50, timestamp: '2024-05-01T18:30:00Z' },
                    links: { self: `${URLS.search}?q=spree`, first: `${URLS.search}?q=spree` },
                  },
                },
              },
            },
            'text/csv': { schema: { type: 'string' }, examples: { page: { summary: 'A one-hit page', value: csv } } },
          },
        },
        304: notModified,
        ...errors(false),
      },
      security: [],
    },
    head: {
      operationId: 'headSearch',
      summary: 'Headers of a search page',
      description: 'The same parameters, checks and headers as GET, without the body.',
      tags: ['search'],
      parameters: parameters(),
      responses: { 200: { description: 'The headers the GET would answer with, and no body.', headers: headerRefs(LIST) }, 304: notModified, ...errors(true) },
      security: [],
    },
    options: {
      operationId: 'preflightSearch',
      summary: 'CORS preflight for search',
      description: 'Answered for every origin, before quotas and any other check.',
      tags: ['search'],
      responses: { 204: { description: 'Cross-origin requests are allowed; no body.', headers: headerRefs(PREFLIGHT) } },
      security: [],
    },
  };
}

const FEED_HEADERS: readonly HeaderName[] = ['ETag', 'CacheControl', 'LastModified', 'ApiVersion', 'ContentUsage', 'ContentSignal', 'AccessControlAllowOrigin'];

function feedPath(operationId: string, summary: string, description: string, mediaType: string): PathItem {
  return {
    get: {
      operationId,
      summary,
      description: `${description} The newest ${LIMITS.feedDocumentItems} items of \`/api/feed-items.json\`, written at build time; \`updated\` is the newest item’s date, links are absolute.`,
      tags: ['feed-items'],
      security: [],
      responses: {
        200: {
          description: 'The feed.',
          headers: headerRefs(FEED_HEADERS),
          content: { [mediaType]: { schema: mediaType === JSON_FEED_MEDIA_TYPE ? ref('schemas', 'JsonFeed') : { type: 'string' } } },
        },
        304: { description: 'Not modified: the client’s copy is current. No body.', headers: headerRefs(['ETag', 'CacheControl', 'LastModified']) },
      },
    },
  };
}

export function searchPaths(): Record<string, PathItem> {
  return {
    [URLS.search]: searchPath(),
    [URLS.jsonFeed]: feedPath(
      'jsonFeed',
      'The feed as JSON Feed 1.1',
      'What happened across the collections, as JSON Feed 1.1 (`application/feed+json`).',
      JSON_FEED_MEDIA_TYPE,
    ),
    [URLS.atomFeed]: feedPath(
      'atomFeed',
      'The feed as Atom',
      'What happened across the collections, as an Atom 1.0 feed (RFC 4287, `application/atom+xml`).',
      ATOM_MEDIA_TYPE,
    ),
  };
}
