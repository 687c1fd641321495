/**
 * RFC 9457 problem responses, generated from the problem catalog (`PROBLEMS`). Each
 * error status gets one reusable response whose schema narrows the shared `Problem`
 * schema to that status and to the slugs the catalog registers for it, with one example
 * per slug; a slug added to the catalog appears here without touching this file.
 */
import { PROBLEMS, type ProblemSlug } from '../core/problems.ts';
import { PROBLEM_MEDIA_TYPE } from '../http/problem.ts';
import { headerRefs, PROBLEM, type HeaderName } from './response-headers.ts';
import { ref, type Example, type Header, type JsonSchema, type Reference, type Response } from './types.ts';
import { problemUrl } from '../urls.ts';

export const PROBLEM_SCHEMA: JsonSchema = {
  title: 'Problem',
  description:
    'RFC 9457 problem details. `type` ends in a slug registered at `/problems/`; `detail` says what happened and what to do, and never echoes internals.',
  type: 'object',
  properties: {
    type: { type: 'string', format: 'uri-reference', description: 'The problem type: `/problems/<slug>`.' },
    title: { type: 'string', description: 'The reason phrase of the status.' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    detail: { type: 'string' },
    parameter: { type: 'string', description: 'The query parameter at fault, when there is one.' },
  },
  required: ['type', 'title', 'status', 'detail'],
  additionalProperties: false,
};

export const slugsWithStatus = (status: number): ProblemSlug[] => (Object.keys(PROBLEMS) as ProblemSlug[]).filter((slug) => PROBLEMS[slug].status === status);

/** The problem statuses that have a reusable response, and the component name of each. */
export const PROBLEM_RESPONSES = {
  400: 'BadRequest',
  403: 'Forbidden',
  404: 'NotFound',
  406: 'NotAcceptable',
  408: 'RequestTimeout',
  417: 'ExpectationFailed',
  413: 'ContentTooLarge',
  421: 'MisdirectedRequest',
  414: 'UriTooLong',
  415: 'UnsupportedMediaType',
  422: 'UnprocessableContent',
  426: 'UpgradeRequired',
  429: 'TooManyRequests',
  431: 'RequestHeaderFieldsTooLarge',
  500: 'InternalError',
  503: 'ServiceUnavailable',
} as const;
export type ProblemStatus = keyof typeof PROBLEM_RESPONSES;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function problemResponse(status: ProblemStatus, headers: Record<string, Header | Reference>): Response {
  const slugs = slugsWithStatus(status);
  const narrowed: JsonSchema = { status: { const: status } };
  if (slugs.length > 0) narrowed.type = { pattern: `(^|/)problems/(${slugs.map(escapeRegExp).join('|')})$` };
  const examples: Record<string, Example> = {};
  for (const slug of slugs) {
    const { title, when } = PROBLEMS[slug];
    examples[slug] = { summary: when, value: { type: problemUrl(slug), title, status, detail: when } };
  }
  const listed = slugs.length > 0 ? slugs.map((s) => `\`${s}\``).join(', ') : 'none registered yet';
  return {
    description: `Problem details; problem types: ${listed}.`,
    headers,
    content: {
      [PROBLEM_MEDIA_TYPE]: {
        schema: { allOf: [ref('schemas', 'Problem')], properties: narrowed },
        ...(slugs.length > 0 ? { examples } : {}),
      },
    },
  };
}

/** Every reusable problem response, for `components.responses`. */
export function problemResponses(): Record<string, Response> {
  const extra: Partial<Record<ProblemStatus, HeaderName[]>> = { 429: ['RetryAfter'] };
  const responses: Record<string, Response> = {};
  for (const [code, name] of Object.entries(PROBLEM_RESPONSES)) {
    const status = Number(code) as ProblemStatus;
    const headers: Record<string, Header | Reference> = headerRefs([...PROBLEM, ...(extra[status] ?? [])]);
    // A refused request still reports what is left of the quota.
    if (status === 429)
      headers.RateLimit = {
        description: 'The exhausted quota: `r=0` and the seconds until it resets.',
        required: true,
        schema: { type: 'string', pattern: '(^|;)r=0(;|$)' },
      };
    responses[name] = problemResponse(status, headers);
  }
  return responses;
}

export const problemRef = (status: ProblemStatus) => ref('responses', PROBLEM_RESPONSES[status]);
