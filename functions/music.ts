/**
 * Music queries (SPEC §4.4): `POST /api/music/intersections.json` (body ≤ 32 KiB) and
 * `POST /api/music/station.json` (body ≤ 24 KiB), plus their CORS preflights. In order,
 * before any work: the path (404), the method (405 with `Allow`, or the preflight), the
 * request media type (415), the body size (413), UTF-8 JSON (400), the contract (422
 * naming the path). Both operations are stateless and mutate nothing; every answer,
 * errors included, is `no-store`. `createMusicHandler` works on request facts and a body the
 * adapter already read (bounded); `createMusicFetchHandler` is the Web-standard handler.
 */
import { PublicError } from '../src/core/errors.ts';
import { LIMITS } from '../src/core/limits.ts';
import { factsOf, readBoundedBody, toResponse, type Answer, type RequestFacts } from '../src/http/answer.ts';
import { preflight } from '../src/http/cors.ts';
import { COMMON_HEADERS } from '../src/http/headers.ts';
import { isMediaType } from '../src/http/negotiate.ts';
import { errorAnswer, problemAnswer } from '../src/http/problem.ts';
import { intersect } from '../src/taste/intersect.ts';
import { parseIntersectionRequest, parseStationRequest } from '../src/taste/music-request.ts';
import { buildSimilarityIndex, station, type StationDeps } from '../src/taste/station.ts';
import { URLS } from '../src/urls.ts';

const ALLOW = 'POST, OPTIONS';
const JSON_MEDIA_TYPE = 'application/json';

const MUSIC_HEADERS: Readonly<Record<string, string>> = { ...COMMON_HEADERS, 'Cache-Control': 'no-store' };

type MusicOperation = (request: RequestFacts, body: Uint8Array | null) => Answer;

export interface MusicHandlers {
  intersections: MusicOperation;
  station: MusicOperation;
}

function jsonAnswer(value: unknown): Answer {
  const body = Buffer.from(JSON.stringify(value));
  return { status: 200, headers: { ...MUSIC_HEADERS, 'Content-Type': JSON_MEDIA_TYPE, 'Content-Length': String(body.length) }, body };
}

function operation(path: string, maxBytes: number, run: (input: unknown) => unknown): MusicOperation {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return (request, body) => {
    try {
      if (request.url.pathname !== path) throw new PublicError('not-found', `This operation is served at ${path}.`);
      if (request.method === 'OPTIONS') return preflight(ALLOW, { headers: MUSIC_HEADERS, allowHeaders: 'Accept, Content-Type' });
      if (request.method !== 'POST') {
        return problemAnswer('method-not-allowed', `Send the request body with the POST method; this resource takes ${ALLOW}.`, {
          headers: { ...MUSIC_HEADERS, Allow: ALLOW },
        });
      }
      if (!isMediaType(request.header('Content-Type'), JSON_MEDIA_TYPE)) {
        throw new PublicError('music-media-type', 'Send the request body as JSON with Content-Type: application/json (charset=utf-8 optional).');
      }
      if (body !== null && body.length > maxBytes) {
        throw new PublicError('music-too-large', `The request body is larger than ${maxBytes} bytes; send a smaller one.`);
      }
      let input: unknown;
      try {
        input = JSON.parse(decoder.decode(body ?? new Uint8Array()));
      } catch {
        throw new PublicError('music-malformed', 'The body is not one valid UTF-8 JSON document; send JSON matching the contract.');
      }
      return jsonAnswer(run(input));
    } catch (error) {
      return errorAnswer(error, MUSIC_HEADERS);
    }
  };
}

export function createMusicHandler(catalog: readonly Record<string, unknown>[], deps: StationDeps = {}): MusicHandlers {
  const stationDeps: StationDeps = { similar: deps.similar ?? buildSimilarityIndex(catalog) };
  return {
    intersections: operation(URLS.musicIntersections, LIMITS.musicIntersectionBytesMax, (input) => intersect(catalog, parseIntersectionRequest(input).profile)),
    station: operation(URLS.musicStation, LIMITS.musicStationBytesMax, (input) => station(catalog, parseStationRequest(input), stationDeps)),
  };
}

/** The Web-standard handler of both music operations (tests, any Web-standard host). */
export function createMusicFetchHandler(catalog: readonly Record<string, unknown>[], deps: StationDeps = {}): (request: Request) => Promise<Response> {
  const answers = createMusicHandler(catalog, deps);
  return async (request) => {
    const facts = factsOf(request);
    if (facts.url.pathname === URLS.musicIntersections)
      return toResponse(answers.intersections(facts, await readBoundedBody(request, LIMITS.musicIntersectionBytesMax)));
    if (facts.url.pathname === URLS.musicStation) return toResponse(answers.station(facts, await readBoundedBody(request, LIMITS.musicStationBytesMax)));
    return toResponse(
      problemAnswer('not-found', `Music operations are served at ${URLS.musicIntersections} and ${URLS.musicStation}.`, { headers: MUSIC_HEADERS }),
    );
  };
}
