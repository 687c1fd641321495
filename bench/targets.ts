/**
 * What the benchmark loads: one target per surface, its requests drawn from the built
 * image (real filter values, words, record IDs and a signed deep cursor), so every request
 * answers 2xx with real work behind it. GraphQL, MCP, RPC and the site page rendered on
 * request each name the REST target that asks the same question, for the ratio between them.
 */
import { collection } from '../src/collections/index.ts';
import { encodeCursor } from '../src/core/cursor.ts';
import { Image, recordsTable, sortColumn } from '../src/core/image.ts';
import { parseQuery } from '../src/core/params.ts';
import { queryBinding } from '../src/core/query.ts';
import { LIMITS } from '../src/core/limits.ts';
import { bindings } from '../src/graphql/schema.ts';
import type { LoadRequest } from './load.ts';

export interface Target {
  id: string;
  label: string;
  /** What is sent, in words, for the README. */
  request: string;
  requests: LoadRequest[];
  sameQuestionAs?: string;
  /** Whether a 2xx body is the answer asked for (a tool error or a GraphQL error can be a 200). */
  ok?: (body: string) => boolean;
  /** The same bytes as a file under the build's client folder, which nginx can serve. */
  staticPath?: string;
  /** Connections when the surface bounds one client's concurrency below the benchmark's. */
  connections?: number;
}

const get = (paths: string[], headers?: Record<string, string>): LoadRequest[] => paths.map((path) => ({ method: 'GET', path, headers }));
const HTML = { Accept: 'text/html' };
const MARKDOWN = { Accept: 'text/markdown' };
const JSON_POST = { 'Content-Type': 'application/json' };
/** The SPEC's example statement. */
const SQL_EXAMPLE = 'SELECT title, published_at FROM public.writing ORDER BY published_at DESC LIMIT 10';
const MCP_HEADERS = { ...JSON_POST, Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-11-25' };

export function targets(imagePath: string, name: string): { targets: Target[]; collectionRecords: number } {
  const declaration = collection(name)!;
  const image = new Image(imagePath);
  const rows = <T>(sql: string, ...params: (string | number)[]) => image.db.prepare(sql).all(...params) as T[];
  const collectionRecords = image.count(name);
  const sortField = declaration.defaultSort[0]!.field;
  const deepOffset = Math.floor(collectionRecords * 0.9);
  const deep = rows<{ cid: string; k: string }>(
    `SELECT cid, ${sortColumn(sortField)} AS k FROM ${recordsTable(name)} ORDER BY ${sortColumn(sortField)} DESC, cid DESC LIMIT 1 OFFSET ?`,
    deepOffset,
  )[0]!;
  const deepCursor = encodeCursor(image.cursorKey, queryBinding(parseQuery(declaration, new URLSearchParams())), { values: [deep.k], canonicalId: deep.cid });
  const words = [
    ...new Set(
      rows<{ json: string }>(`SELECT json FROM ${recordsTable(name)} LIMIT 400`)
        .flatMap((r) => String((JSON.parse(r.json) as Record<string, unknown>)[declaration.search[0]!]).split(/\s+/))
        .filter((w) => /^\p{L}{5,}$/u.test(w))
        .map((w) => w.toLowerCase()),
    ),
  ].slice(0, 40);
  const filter = Object.entries(declaration.filters).find(([, spec]) => spec.kind.type === 'string')?.[0] ?? Object.keys(declaration.filters)[0]!;
  const filterValues = rows<{ key: string }>(`SELECT DISTINCT key FROM "${name}:tags" WHERE dim = ? LIMIT 40`, filter).map((r) => encodeURIComponent(r.key));
  const recordIds = rows<{ cid: string }>(`SELECT cid FROM ${recordsTable(name)} ORDER BY rid LIMIT 40`).map((r) => r.cid);
  const genres = rows<{ key: string }>(`SELECT DISTINCT key FROM "movies:tags" WHERE dim = 'genre' LIMIT 20`).map((r) => r.key);
  image.close();

  const api = `/api/${name}.json`;
  const movies = collection('movies')!;
  const graphqlQuery = `{ ${bindings.find((b) => b.collection === movies)!.field}(first: 50) { nodes { canonicalId ${movies.search[0]} ${movies.dateField} } pageInfo { hasNextPage endCursor } totalCount } }`;
  const mcp = (genre: string) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'taste.find', arguments: { collection: 'movies', filters: { genre }, limit: 50 } },
    });
  // What the capnweb client sends for `content.movies.matching({genre}).first(50)`, then `records()` and `info()`, pipelined.
  const rpc = (genre: string) =>
    [
      `["push",["pipeline",0,["content","movies","matching"],[${JSON.stringify({ genre })}]]]`,
      '["push",["pipeline",1,["first"],[50]]]',
      '["push",["pipeline",2,["records"],[]]]',
      '["push",["pipeline",2,["info"],[]]]',
      '["pull",3]',
      '["pull",4]',
    ].join('\n');
  const list: Target[] = [
    { id: 'rest-page-one', label: 'REST page one', request: `GET ${api}`, requests: get([api]) },
    {
      id: 'rest-filtered',
      label: `REST filtered (${filter}=…)`,
      request: `GET ${api}?${filter}=… (${filterValues.length} values)`,
      requests: get(filterValues.map((v) => `${api}?${filter}=${v}`)),
    },
    {
      id: 'rest-q',
      label: 'REST q search',
      request: `GET ${api}?q=… (${words.length} words)`,
      requests: get(words.map((w) => `${api}?q=${encodeURIComponent(w)}`)),
    },
    {
      id: 'rest-deep-cursor',
      label: `REST deep cursor (record ${deepOffset.toLocaleString('en')})`,
      request: `GET ${api}?cursor=… (a signed cursor 90 % into the collection)`,
      requests: get([`${api}?cursor=${deepCursor}`]),
    },
    {
      id: 'static-page-one',
      label: 'static page one (prerendered file)',
      request: `GET /${name}/ (the prerendered collection page, served as a file)`,
      requests: get([`/${name}/`], HTML),
      staticPath: `/${name}/`,
    },
    {
      id: 'search',
      label: 'cross-collection search (q=…)',
      request: `GET /api/search.json?q=… (${words.length} words)`,
      requests: get(words.map((w) => `/api/search.json?q=${encodeURIComponent(w)}`)),
    },
    // SQL as issue 31 measured it: one client, 16 connections naming 64 clients, and 64
    // connections for the same 64 (X-Forwarded-For through a trusted proxy, the loopback).
    // One client may have only `sqlClientStatementsMax` statements in flight (429 past it),
    // so it is loaded on that many connections.
    ...[
      { id: 'sql', clients: 1, connections: LIMITS.sqlClientStatementsMax },
      { id: 'sql-16', clients: 64, connections: 16 },
      { id: 'sql-64', clients: 64, connections: 64 },
    ].map(({ id, clients, connections }) => ({
      id,
      label: `SQL QUERY (latest 10 writing), ${connections} connections, ${clients === 1 ? '1 client' : `${clients} clients`}`,
      request: `QUERY /api/sql: ${SQL_EXAMPLE}${clients === 1 ? '' : ` (X-Forwarded-For: one of ${clients} addresses)`}`,
      connections,
      requests: Array.from({ length: clients }, (_, i) => ({
        method: 'QUERY',
        path: '/api/sql',
        headers: { 'Content-Type': 'application/sql', ...(clients === 1 ? {} : { 'X-Forwarded-For': `198.51.100.${i + 1}` }) },
        body: SQL_EXAMPLE,
      })),
    })),
    { id: 'rest-movies', label: 'REST movies, limit 50', request: 'GET /api/movies.json?limit=50', requests: get(['/api/movies.json?limit=50']) },
    {
      id: 'graphql',
      label: 'GraphQL movies(first: 50), 3 fields',
      request: `POST /graphql: ${graphqlQuery}`,
      requests: [
        {
          method: 'POST',
          path: '/graphql',
          headers: { ...JSON_POST, Accept: 'application/graphql-response+json' },
          body: JSON.stringify({ query: graphqlQuery }),
        },
      ],
      sameQuestionAs: 'rest-movies',
      ok: (body) => !('errors' in (JSON.parse(body) as object)),
    },
    {
      id: 'rest-movies-genre',
      label: 'REST movies, genre=…, limit 50',
      request: `GET /api/movies.json?genre=…&limit=50 (${genres.length} genres)`,
      requests: get(genres.map((g) => `/api/movies.json?genre=${encodeURIComponent(g)}&limit=50`)),
    },
    {
      id: 'mcp',
      label: 'MCP tools/call taste.find (movies, genre, 50)',
      request: 'POST /mcp: tools/call taste.find {collection: movies, filters: {genre}, limit: 50}',
      requests: genres.map((g) => ({ method: 'POST', path: '/mcp', headers: MCP_HEADERS, body: mcp(g) })),
      sameQuestionAs: 'rest-movies-genre',
      ok: (body) => body.includes('"result"') && !body.includes('"isError":true'),
    },
    {
      id: 'rpc',
      label: 'RPC batch records() + info() (movies, genre, 50)',
      request: 'POST /api/rpc: an HTTP batch of content.movies.matching({genre}).first(50), then records() and info(), pipelined',
      requests: genres.map((g) => ({ method: 'POST', path: '/api/rpc', body: rpc(g) })),
      sameQuestionAs: 'rest-movies-genre',
      ok: (body) => !body.includes('"reject"'),
    },
    {
      id: 'site-filtered',
      label: `site: collection page, ${filter}=… (rendered on request)`,
      request: `GET /${name}/?${filter}=… (HTML)`,
      requests: get(
        filterValues.map((v) => `/${name}/?${filter}=${v}`),
        HTML,
      ),
      sameQuestionAs: 'rest-filtered',
    },
    {
      id: 'site-record',
      label: 'site: record page',
      request: `GET /${name}/{id} (HTML, ${recordIds.length} records)`,
      requests: get(
        recordIds.map((id) => `/${name}/${id}`),
        HTML,
      ),
    },
    {
      id: 'site-record-markdown',
      label: 'site: record page, Markdown twin',
      request: `GET /${name}/{id} with Accept: text/markdown (${recordIds.length} records)`,
      requests: get(
        recordIds.map((id) => `/${name}/${id}`),
        MARKDOWN,
      ),
    },
  ];
  return { targets: list, collectionRecords };
}
