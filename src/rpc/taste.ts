/**
 * `taste`: the taste and music endpoints as capabilities — `summary()` is
 * `/api/taste/summary.json`, `profile()` the `/.well-known/taste-profile.json` document,
 * `music.intersect(input)` and `music.station(input)` the two music POSTs. The inputs are
 * the POST bodies as values, checked by the same contract parsers (a breach is
 * INVALID_ARGUMENT naming the path in the input, as the 422 does), and bounded as those
 * bodies are: the JSON text of an input may be no longer than the POST's byte bound. The
 * records, the similarity index and the profile are the generation's (src/taste/sources.ts),
 * shared with REST and MCP.
 */
import { RpcTarget } from 'capnweb';
import { isPublicError } from '../core/errors.ts';
import { LIMITS } from '../core/limits.ts';
import { intersect, type IntersectResult } from '../taste/intersect.ts';
import { parseIntersectionRequest, parseStationRequest } from '../taste/music-request.ts';
import type { TasteProfile } from '../taste/profile.ts';
import type { TasteSources } from '../taste/sources.ts';
import { station, type StationResult } from '../taste/station.ts';
import { tasteSummary } from '../taste/summary.ts';
import type { RpcContext } from './context.ts';
import { fromPublicError, invalidArgument } from './errors.ts';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/** An input as its POST body would be: bounded by the same byte count, parsed by the same contract. */
function bodyOf(argument: string, input: unknown, bytesMax: number): unknown {
  let text: string;
  try {
    text = JSON.stringify(input) ?? '';
  } catch {
    throw invalidArgument(argument, 'the input is a JSON value.');
  }
  if (Buffer.byteLength(text) > bytesMax) throw invalidArgument(argument, `the input is larger than ${bytesMax} bytes as JSON, the bound of its POST body.`);
  return JSON.parse(text) as unknown;
}

const asArgument = (argument: string) => (error: unknown) => fromPublicError(error, (parameter) => (parameter ? `${argument}.${parameter}` : argument));

export class Music extends RpcTarget {
  readonly #context: RpcContext;
  readonly #sources: TasteSources;
  constructor(context: RpcContext, sources: TasteSources) {
    super();
    this.#context = context;
    this.#sources = sources;
  }

  /** `POST /api/music/intersections.json`: the input is its body, `{profile}`. */
  intersect(input: unknown): IntersectResult {
    this.#context.session.call('taste.music.intersect');
    const body = bodyOf('intersect(input)', input, LIMITS.musicIntersectionBytesMax);
    try {
      const request = parseIntersectionRequest(body);
      this.#context.session.spend('taste.music.intersect', 1 + Math.ceil(this.#sources.music.length / 100));
      return intersect(this.#sources.music, request.profile);
    } catch (error) {
      throw asArgument('intersect(input)')(error);
    }
  }

  /** `POST /api/music/station.json`: the input is its body. */
  station(input: unknown): StationResult {
    this.#context.session.call('taste.music.station');
    const body = bodyOf('station(input)', input, LIMITS.musicStationBytesMax);
    try {
      const request = parseStationRequest(body);
      this.#context.session.spend('taste.music.station', 1 + Math.ceil(this.#sources.music.length / 100));
      return station(this.#sources.music, request, this.#sources.stationDeps);
    } catch (error) {
      throw asArgument('station(input)')(error);
    }
  }
}

export class TasteMembers extends RpcTarget {
  readonly #context: RpcContext;
  readonly #sources: TasteSources;
  readonly #music: Music;
  constructor(context: RpcContext, sources: TasteSources) {
    super();
    this.#context = context;
    this.#sources = sources;
    this.#music = new Music(context, sources);
  }

  /** `/api/taste/summary.json`: `{collection?, exampleLimit?}` are its query parameters. */
  summary(options: unknown = {}): Record<string, unknown> {
    this.#context.session.call('taste.summary');
    if (!isPlainObject(options)) throw invalidArgument('summary(options)', 'options is {collection?: "movies", exampleLimit?: number}.');
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(options)) {
      if (typeof value !== 'string' && typeof value !== 'number') throw invalidArgument(`summary.${name.slice(0, 40)}`, 'a string or a number.');
      params.set(name, String(value));
    }
    try {
      this.#context.session.spend('taste.summary', 1 + Math.ceil(this.#sources.movies.length / 100));
      return tasteSummary(this.#sources.movies, params, this.#context.core.image.asOf('movies'));
    } catch (error) {
      if (isPublicError(error)) throw asArgument('summary')(error);
      throw error;
    }
  }

  /** The portable music taste profile (`/.well-known/taste-profile.json`). */
  profile(): TasteProfile {
    this.#context.session.call('taste.profile');
    this.#context.session.spend('taste.profile', 1 + Math.ceil(this.#sources.music.length / 100));
    return this.#sources.profile;
  }

  get music(): Music {
    return this.#music;
  }
}
