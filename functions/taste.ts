/**
 * `GET|HEAD /api/taste/summary.json`: the movie taste summary (SPEC §2.3) for the query's
 * `collection` and `exampleLimit`. The summary depends only on the image and those two
 * parameters, so each distinct answer is computed once and replayed with its ETag.
 */
import { collection } from '../src/collections/index.ts';
import type { QueryCore } from '../src/core/query.ts';
import type { Answer, RequestFacts } from '../src/http/answer.ts';
import { conditionalAnswer } from '../src/http/conditional.ts';
import { documentHeaders } from '../src/http/headers.ts';
import { errorAnswer, problemAnswer } from '../src/http/problem.ts';
import { tasteSummary, TASTE_SUMMARY_CANONICAL_URL } from '../src/taste/summary.ts';

export const TASTE_SUMMARY_PATH = TASTE_SUMMARY_CANONICAL_URL;
/** Distinct summaries kept: there are only a dozen valid `exampleLimit` values. */
const ANSWERS_MAX = 64;

export function tasteSummaryAnswer(core: QueryCore): (request: RequestFacts) => Answer {
  const movies = collection('movies')!;
  let records: Record<string, unknown>[] | undefined;
  const answers = new Map<string, { body: Buffer; headers: Record<string, string> }>();
  return (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return problemAnswer('method-not-allowed', 'The taste summary is read-only; use GET or HEAD.', { headers: { Allow: 'GET, HEAD' } });
    }
    try {
      // Each distinct valid query string is computed once (bounded); invalid ones throw every time.
      const key = request.url.search;
      let answer = answers.get(key);
      if (!answer) {
        records ??= core.records(movies);
        const asOf = core.image.asOf('movies');
        const body = Buffer.from(`${JSON.stringify(tasteSummary(records, request.url.searchParams, asOf))}\n`);
        answer = { body, headers: { ...documentHeaders('application/json', body, asOf), 'Content-Length': String(body.length) } };
        if (answers.size < ANSWERS_MAX) answers.set(key, answer);
      }
      return conditionalAnswer(request.method, { ifNoneMatch: request.header('If-None-Match'), ifModifiedSince: request.header('If-Modified-Since') }, answer.headers, answer.body);
    } catch (error) {
      return errorAnswer(error);
    }
  };
}

