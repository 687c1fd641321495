/**
 * What the taste layer reads of one generation, and what it builds from it: the records
 * of a collection (recommendations, the movie summary), the music catalog, its
 * similarity index (stations) and the music taste profile. Each is built on first use
 * and kept: the image never changes under a generation, so the `Runtime` holds one of
 * these and REST, RPC and MCP all read it (src/runtime/runtime.ts).
 */
import { collection } from '../collections/index.ts';
import type { QueryCore } from '../core/query.ts';
import { tasteProfile, type TasteProfile } from './profile.ts';
import { buildSimilarityIndex, type StationDeps } from './station.ts';

export class TasteSources {
  readonly #core: QueryCore;
  readonly #records = new Map<string, Record<string, unknown>[]>();
  #stationDeps: StationDeps | undefined;
  #profile: TasteProfile | undefined;

  constructor(core: QueryCore) {
    this.#core = core;
  }

  /** Every public record of a collection, in the core's order; read once. */
  records(name: string): Record<string, unknown>[] {
    let records = this.#records.get(name);
    if (!records) {
      const declaration = collection(name);
      if (!declaration) throw new Error(`no collection named ${name}`);
      this.#records.set(name, (records = this.#core.records(declaration)));
    }
    return records;
  }

  get movies(): Record<string, unknown>[] {
    return this.records('movies');
  }

  /** The music catalog the intersection, the station and the profile read. */
  get music(): Record<string, unknown>[] {
    return this.records('music');
  }

  /** What a station needs besides the catalog: its similarity index, built once over it. */
  get stationDeps(): StationDeps {
    this.#stationDeps ??= { similar: buildSimilarityIndex(this.music) };
    return this.#stationDeps;
  }

  /** The portable music taste profile (`/.well-known/taste-profile.json`). */
  get profile(): TasteProfile {
    this.#profile ??= tasteProfile(this.music, this.#core.image.asOf('music'));
    return this.#profile;
  }
}
