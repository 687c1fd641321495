/**
 * The path item of each REST collection, `/api/<name>.json`: GET (the list in every
 * format the server negotiates for it), HEAD (the same headers, no body) and OPTIONS
 * (the CORS preflight). Responses follow the order in which the handler checks a
 * request — quota (429), API version (400), query length (414), query (400), Accept
 * (406), location provenance (503) — then 200 or, on a matching precondition, 304.
 */
import type { CollectionDeclaration } from '../collections/define.ts';
import { serializersFor } from '../formats/index.ts';
import { schemaStem } from '../collections/item-schema.ts';
import { FORMATS, GEOGRAPHIC_MEDIA_TYPES, listContent } from './media.ts';
import { collectionParameters } from './parameters.ts';
import { PROBLEM_RESPONSES, problemRef, slugsWithStatus, type ProblemStatus } from './problems.ts';
import { headerRefs, LIST, PREFLIGHT, PROBLEM } from './response-headers.ts';
import type { JsonSchema, Operation, PathItem, Response } from './types.ts';
import { collectionUrl } from '../urls.ts';

/** The media types the server offers for a collection, in its order of preference. */
export const offeredMediaTypes = (c: CollectionDeclaration): string[] => serializersFor(c).map((s) => s.mediaType);

/** Whether a collection is offered in a map format (and may therefore answer 503). */
export const isGeographic = (c: CollectionDeclaration): boolean => offeredMediaTypes(c).some((m) => GEOGRAPHIC_MEDIA_TYPES.has(m));

const errorStatuses = (c: CollectionDeclaration): ProblemStatus[] => [400, 406, 414, 429, ...(isGeographic(c) ? [503 as const] : []), 500];

function notModified(): Response {
  return { description: 'Not modified: the client’s copy (If-None-Match, or else If-Modified-Since) is current. No body.', headers: headerRefs(LIST) };
}

function negotiation(c: CollectionDeclaration): string {
  const rows = offeredMediaTypes(c).map((m) => `| \`${m}\` | ${FORMATS[m]?.description ?? ''} |`);
  return [
    'Representations, chosen by `Accept` (q-values and wildcards honoured; none acceptable answers 406):',
    '',
    '| Media type | Body |',
    '| --- | --- |',
    ...rows,
  ].join('\n');
}

function getOperation(c: CollectionDeclaration, itemSchema: JsonSchema): Operation {
  const stem = schemaStem(c);
  const responses: Operation['responses'] = {
    200: { description: `A page of ${c.title}.`, headers: headerRefs(LIST), content: listContent(c, offeredMediaTypes(c), itemSchema) },
    304: notModified(),
  };
  for (const status of errorStatuses(c)) responses[status] = problemRef(status);
  return {
    operationId: `list${stem}`,
    summary: `List ${c.title}`,
    description: `${c.description}\n\n${negotiation(c)}`,
    tags: [c.name],
    parameters: collectionParameters(c, itemSchema),
    responses,
    security: [],
  };
}

function headOperation(c: CollectionDeclaration, itemSchema: JsonSchema): Operation {
  const responses: Operation['responses'] = {
    200: { description: 'The headers the GET would answer with, and no body.', headers: headerRefs(LIST) },
    304: notModified(),
  };
  for (const status of errorStatuses(c)) {
    const slugs = slugsWithStatus(status)
      .map((s) => `\`${s}\``)
      .join(', ');
    const headers = headerRefs(status === 429 ? [...PROBLEM, 'RetryAfter'] : PROBLEM);
    responses[status] = { description: `As for GET (${slugs || PROBLEM_RESPONSES[status]}), headers only: HEAD answers have no body.`, headers };
  }
  return {
    operationId: `head${schemaStem(c)}`,
    summary: `Headers of a ${c.title} page`,
    description: 'The same parameters, checks and headers as GET, without the body: a cheap way to read `X-Total-Count`, `ETag` or the links.',
    tags: [c.name],
    parameters: collectionParameters(c, itemSchema),
    responses,
    security: [],
  };
}

function preflightOperation(c: CollectionDeclaration): Operation {
  return {
    operationId: `preflight${schemaStem(c)}`,
    summary: `CORS preflight for ${c.title}`,
    description: 'Answered for every origin, before quotas and any other check.',
    tags: [c.name],
    responses: { 204: { description: 'Cross-origin requests are allowed; no body.', headers: headerRefs(PREFLIGHT) } },
    security: [],
  };
}

export function collectionPathItem(c: CollectionDeclaration, itemSchema: JsonSchema): [string, PathItem] {
  const item: PathItem = {
    summary: c.title,
    description:
      `${c.description} Read-only: any method other than GET, HEAD and OPTIONS answers 405 method-not-allowed (problem details) with \`Allow: GET, HEAD, OPTIONS\`. ` +
      'An API-wide quota applies to GET and HEAD (429 once spent).',
    get: getOperation(c, itemSchema),
    head: headOperation(c, itemSchema),
    options: preflightOperation(c),
  };
  return [collectionUrl(c.name), item];
}
