/**
 * `GET|HEAD /api/taste/summary.json`: the movie taste summary (SPEC §2.3) for the query's
 * `collection` and `exampleLimit`. The summary depends only on the image and
 * `exampleLimit`, so each distinct answer is computed once and replayed with its ETag. The
 * movie records are the generation's (src/taste/sources.ts), shared with RPC and MCP.
 */
import { LIMITS } from '../src/core/limits.ts';
import { BoundedCache } from '../src/core/memo.ts';
import type { QueryCore } from '../src/core/query.ts';
import type { Answer, RequestFacts } from '../src/http/answer.ts';
import { answerBytes } from '../src/http/answer-cache.ts';
import { conditionalAnswer } from '../src/http/conditional.ts';
import { documentHeaders } from '../src/http/headers.ts';
import type { ListAnswer } from '../src/http/list.ts';
import { errorAnswer, problemAnswer } from '../src/http/problem.ts';
import { TasteSources } from '../src/taste/sources.ts';
import { parseSummaryParams, tasteSummary } from '../src/taste/summary.ts';

export function createTasteSummaryHandler(core: QueryCore, sources = new TasteSources(core)): (request: RequestFacts) => Answer {
  // Keyed by the validated exampleLimit, so spellings of the same query share one answer.
  const answers = new BoundedCache<ListAnswer>({ bytes: LIMITS.tasteAnswerCacheBytes, valueBytes: answerBytes });
  return (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return problemAnswer('method-not-allowed', 'The taste summary is read-only; use GET or HEAD.', { headers: { Allow: 'GET, HEAD' } });
    }
    try {
      const key = String(parseSummaryParams(request.url.searchParams).exampleLimit);
      let answer = answers.get(key);
      if (!answer) {
        const asOf = core.image.asOf('movies');
        const body = Buffer.from(`${JSON.stringify(tasteSummary(sources.movies, request.url.searchParams, asOf))}\n`);
        answer = { body, headers: { ...documentHeaders('application/json', body, core.image.lastModified('movies')), 'Content-Length': String(body.length) } };
        answers.set(key, answer);
      }
      return conditionalAnswer(
        request.method,
        { ifNoneMatch: request.header('If-None-Match'), ifModifiedSince: request.header('If-Modified-Since') },
        answer.headers,
        answer.body,
        answer.headers,
      );
    } catch (error) {
      return errorAnswer(error);
    }
  };
}
