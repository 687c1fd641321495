/**
 * REST lists as a client reads them: one page, checked 200 and against the OpenAPI
 * contract (`contractFetch`), or every page of a list by following `links.next` to its
 * end. Shared by the tests that walk lists instead of each keeping its own loop.
 */
import assert from 'node:assert/strict';
import { contractFetch } from './contract.ts';

/** The part of a list envelope every list has (SPEC §4.1). */
export interface ListEnvelope<T> {
  data: T[];
  meta: { totalCount: number };
  links: { next?: string };
}

/** One page at `path`, which must answer 200. */
export async function restPage<E extends ListEnvelope<unknown>>(base: string, path: string, headers: Record<string, string> = {}): Promise<E> {
  const response = await contractFetch(base + path, { headers });
  assert.equal(response.status, 200, `${path}: ${await response.clone().text()}`);
  return (await response.json()) as E;
}

/** Every item of the list starting at `path`, page after page, and the total the last page states. */
export async function walkRest<T>(base: string, path: string): Promise<{ data: T[]; total: number }> {
  const data: T[] = [];
  let next: string | undefined = path;
  let total = -1;
  while (next) {
    const page: ListEnvelope<T> = await restPage<ListEnvelope<T>>(base, next);
    total = page.meta.totalCount;
    data.push(...page.data);
    next = page.links.next;
  }
  return { data, total };
}
