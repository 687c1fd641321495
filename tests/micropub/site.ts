/**
 * The Micropub endpoint as its tests run it: the owner-write site of tests/owner/site.ts
 * (the built `dist/`, a copy of its content, the process's generations, so each post is
 * rebuilt and swapped) with tokens minted under IndieAuth scopes, and small clients that
 * post form, multipart and JSON bodies as Micropub clients do.
 */
import assert from 'node:assert/strict';
import { startOwnerSite, type OwnerSite } from '../owner/site.ts';
import { MICROPUB_URLS } from '../../src/urls.ts';

export { startOwnerSite, type OwnerSite };

export interface Posted {
  status: number;
  location: string | null;
  body: Record<string, unknown>;
}

async function read(response: Response): Promise<Posted> {
  const text = await response.text();
  return { status: response.status, location: response.headers.get('location'), body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** A client of one site with one token. */
export function client(site: OwnerSite, token: string | undefined) {
  const endpoint = `${site.base}${MICROPUB_URLS.micropub}`;
  const auth = (): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});
  return {
    endpoint,
    form: async (fields: [string, string][] | Record<string, string>, headers: Record<string, string> = auth()) =>
      read(
        await fetch(endpoint, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
          body: new URLSearchParams(fields).toString(),
        }),
      ),
    json: async (body: unknown, headers: Record<string, string> = auth()) =>
      read(await fetch(endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) })),
    multipart: async (form: FormData, headers: Record<string, string> = auth(), url = endpoint) =>
      read(await fetch(url, { method: 'POST', headers, body: form })),
    query: async (params: string, headers: Record<string, string> = auth()) => read(await fetch(`${endpoint}?${params}`, { headers })),
  };
}

/** A record's fields as REST serves them, by its page URL (`/collection/canonicalId`). */
export async function served(site: Pick<OwnerSite, 'base'>, url: string): Promise<Record<string, unknown> | undefined> {
  const [, collection, canonicalId] = new URL(url).pathname.split('/');
  const response = await fetch(`${site.base}/api/${collection}.json?limit=100&q=`);
  assert.equal(response.status, 200);
  let page = (await response.json()) as { data: Record<string, unknown>[]; links: { next?: string } };
  for (;;) {
    const found = page.data.find((r) => r.canonicalId === canonicalId);
    if (found) return found;
    if (!page.links.next) return undefined;
    page = (await (await fetch(new URL(page.links.next, site.base))).json()) as typeof page;
  }
}

/** Sparkles' film post (src/js/Editors/MediaEditor.js `buildEntry`), for a film of `title` and `year`. */
export const sparklesWatch = (title: string, year: string, extra: Record<string, unknown[]> = {}) => ({
  type: ['h-entry'],
  properties: {
    summary: [`Watched ${title}, ${year} - ★★★★½`],
    featured: ['https://image.tmdb.org/t/p/w500/poster.jpg'],
    published: ['2026-12-06'],
    'watch-of': [
      {
        type: ['h-cite'],
        properties: {
          name: [title],
          photo: ['https://image.tmdb.org/t/p/w500/poster.jpg'],
          uid: ['tmdb:603'],
          url: ['https://themoviedb.org/movie/603'],
          published: [year],
        },
      },
    ],
    progress: ['finished'],
    rating: ['4.5'],
    ...extra,
  },
});
