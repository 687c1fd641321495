/**
 * The whole-collection exports are static files; this handler answers only for the ones
 * the build withheld. An export whose collection has located records without provenance
 * is not written, and its path answers a 503 problem rather than a 404 or a partial file.
 */
import type { Image } from '../src/core/image.ts';
import { exportAt } from '../src/urls.ts';
import type { Answer, RequestFacts } from '../src/http/answer.ts';
import { problemAnswer } from '../src/http/problem.ts';

export function createWithheldExportHandler(image: Image): (request: RequestFacts) => Answer | undefined {
  return (request) => {
    const spec = exportAt(request.url.pathname);
    if (!spec || image.provenanceComplete(spec.collection)) return undefined;
    return problemAnswer(
      'location-provenance-incomplete',
      `Some ${spec.collection} records do not say where their coordinates came from, so this export is off until the owner completes them; the build lists them.`,
    );
  };
}
