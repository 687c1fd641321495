/**
 * RFC 9457 problem details for every HTTP error of the public API. The type is a URI
 * under `/problems/` ending in the catalog slug; the detail is the PublicError's safe
 * message. Anything that is not a PublicError becomes a generic 500 whose detail says
 * nothing about the cause: stacks and driver messages never leave the process.
 */
import { isPublicError } from '../core/errors.ts';
import { PROBLEMS, type ProblemSlug } from '../core/problems.ts';
import type { Answer } from './answer.ts';
import { COMMON_HEADERS } from './headers.ts';
import { problemUrl } from '../urls.ts';

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
  const body: ProblemBody = { type: problemUrl(slug), title, status, detail };
  if (parameter !== undefined) body.parameter = parameter;
  return body;
}

export function problemAnswer(slug: ProblemSlug, detail: string, init: { parameter?: string; headers?: Record<string, string> } = {}): Answer {
  const problem = problemBody(slug, detail, init.parameter);
  const body = Buffer.from(JSON.stringify(problem));
  return {
    status: problem.status,
    headers: {
      ...COMMON_HEADERS,
      ...init.headers,
      'Content-Type': PROBLEM_MEDIA_TYPE,
      'Content-Length': String(body.length),
      'Cache-Control': 'no-store',
    },
    body,
  };
}

export function errorAnswer(error: unknown, headers?: Record<string, string>): Answer {
  if (isPublicError(error)) return problemAnswer(error.slug, error.detail, { parameter: error.parameter, headers });
  console.error(error);
  return problemAnswer('internal-error', 'The server failed to answer this request; retry later with backoff.', { headers });
}
