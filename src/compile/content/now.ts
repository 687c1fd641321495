/**
 * The build's present: what "in the future" means to the content rules (an event ahead
 * of the build cannot be completed; a status left out is settled from the date). It is
 * an input of the compile, never read from the clock inside it, so the same content and
 * the same present give byte-identical output. `SOURCE_DATE_EPOCH` (the reproducible-builds
 * convention: whole seconds since 1970-01-01T00:00:00Z) fixes it; without it, the clock.
 */

/** `SOURCE_DATE_EPOCH` as milliseconds, else the clock; a malformed value stops the build, as the convention asks. */
export function buildNow(env: Readonly<Record<string, string | undefined>> = process.env, clock: () => number = Date.now): number {
  const epoch = env.SOURCE_DATE_EPOCH;
  if (epoch === undefined || epoch === '') return clock();
  if (!/^\d{1,12}$/.test(epoch.trim())) throw new Error(`SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01T00:00:00Z, such as 1795392000; got ${JSON.stringify(epoch)}`);
  return Number(epoch.trim()) * 1000;
}
