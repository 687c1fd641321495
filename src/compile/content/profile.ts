/**
 * Reading the owner's profile, `content/site.yaml` (src/collections/profile.ts declares
 * it), with the same loader and the same problem shape as the records, so an invalid
 * profile is listed with every other content problem as `content/site.yaml: field: reason`.
 * No file is no problem: the profile falls back to the owner's name from `SITE_AUTHOR`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROFILE_FILE, profileSchema, siteProfile, type ProfileFile, type SiteProfile } from '../../collections/profile.ts';
import { loadFile, type LoadProblem } from './load.ts';
import { schemaProblems } from './records.ts';

/** The profile's file as written, or its problems; `file` undefined when there is none (or it is invalid). */
export function readProfile(contentDir: string, shownRoot: string): { file?: ProfileFile; problems: LoadProblem[] } {
  const path = join(contentDir, PROFILE_FILE);
  if (!existsSync(path)) return { problems: [] };
  const loaded = loadFile(contentDir, path, shownRoot);
  if (loaded.problems.length) return { problems: loaded.problems };
  const entry = loaded.entries[0];
  // A sequence is read as several entries (or none); the profile is one mapping.
  if (entry === undefined || loaded.entries.length !== 1 || entry.origin.endsWith(']') || typeof entry.data !== 'object' || entry.data === null) {
    return { problems: [{ origin: join(shownRoot, PROFILE_FILE), field: '(file)', reason: 'expected one mapping of field: value' }] };
  }
  const parsed = profileSchema.safeParse(entry.data);
  if (!parsed.success) return { problems: schemaProblems(parsed.error, entry.data as Record<string, unknown>).map((p) => ({ origin: entry.origin, ...p })) };
  return { file: parsed.data, problems: [] };
}

/** The profile the build stores in the image: the file's, else the owner's name alone. */
export function loadProfile(contentDir: string, shownRoot: string, fallbackName: string): { profile: SiteProfile; url?: string; problems: LoadProblem[] } {
  const { file, problems } = readProfile(contentDir, shownRoot);
  return { profile: siteProfile(file, fallbackName), ...(file?.url ? { url: file.url } : {}), problems };
}
