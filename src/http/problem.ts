/**
 * RFC 9457 problem details for every HTTP error of the public API. The type is a URI
 * under `/problems/` ending in the catalog slug; the detail is the PublicError's safe
 * message. Anything that is not a PublicError becomes a generic 500 whose detail says
 * nothing about the cause: stacks and driver messages never leave the process.
 */
import { isPublicError, PROBLEMS, type ProblemSlug } from '../core/errors.ts';

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  parameter?: string;
}

export function problemBody(slug: ProblemSlug, detail: string, parameter?: string): ProblemBody {
  const { status, title } = PROBLEMS[slug];
  const body: ProblemBody = { type: `/problems/${slug}`, title, status, detail };
  if (parameter !== undefined) body.parameter = parameter;
  return body;
}

export function problemResponse(slug: ProblemSlug, detail: string, init: { parameter?: string; headers?: HeadersInit } = {}): Response {
  const body = problemBody(slug, detail, init.parameter);
  const headers = new Headers(init.headers);
  headers.set('Content-Type', PROBLEM_MEDIA_TYPE);
  headers.set('Cache-Control', 'no-store');
  return new Response(JSON.stringify(body), { status: body.status, headers });
}

export function errorResponse(error: unknown, headers?: HeadersInit): Response {
  if (isPublicError(error)) return problemResponse(error.slug, error.detail, { parameter: error.parameter, headers });
  console.error(error);
  return problemResponse('internal-error', 'The server failed to answer this request; retry later with backoff.', { headers });
}
