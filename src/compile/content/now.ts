/**
 * The build's present: what "in the future" means to the content rules (an event ahead
 * of the build cannot be completed; a status left out is settled from the date). It is
 * an input of the compile, never read from the clock inside it, so the same content and
 * the same present give byte-identical output. `SOURCE_DATE_EPOCH` (the reproducible-builds
 * convention: whole seconds since 1970-01-01T00:00:00Z, checked by src/config.ts, where a
 * malformed value stops the build, as the convention asks) fixes it; without it, the clock.
 */
import { config, type Config } from '../../config.ts';

/** `SOURCE_DATE_EPOCH` as milliseconds, else the clock. */
export function buildNow(settings: Pick<Config, 'SOURCE_DATE_EPOCH'> = config(), clock: () => number = Date.now): number {
  return settings.SOURCE_DATE_EPOCH ?? clock();
}
