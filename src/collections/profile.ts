/**
 * The owner's profile, `content/site.yaml`: who keeps the site and how it presents itself
 * (name, a short note, a photo, `rel=me` links, the site's title, description and language,
 * and the Content-Signal preferences robots.txt states). A declaration like a collection's,
 * checked by the same compile and reported the same way (`path: field: reason`, every
 * problem at once). Only `name` is required, so `npm run init` can write a valid profile
 * from a name alone. The compiled profile is stored in the image, so every surface that
 * names the owner (the home page, JSON-LD, feeds, llms.txt, the MCP server card, robots.txt)
 * reads the same one, and a checkout without the file falls back to `SITE_AUTHOR`.
 */
import { z } from 'zod';
import { httpUrl, longText, shortText } from './fields.ts';

/** The profile's file, relative to the content folder. */
export const PROFILE_FILE = 'site.yaml';

const signal = z.enum(['yes', 'no']);

export const profileSchema = z.strictObject({
  name: shortText,
  // The site's public address as `npm run init` was given it: what the build links to when
  // SITE_URL is not set. SITE_URL, a deployment setting, always wins.
  url: httpUrl.optional(),
  note: longText.optional(),
  photo: z
    .strictObject({
      // A path under content/media/, as a photo record's `src` (the build publishes it there).
      src: z.string().regex(/^\/[^\s]*$/, 'expected a path starting with / (the file under content/media/)'),
      alt: shortText,
    })
    .optional(),
  me: z.array(httpUrl).max(20).default([]),
  site: z
    .strictObject({
      title: shortText.optional(),
      description: shortText.optional(),
      // BCP 47, as <html lang> takes it; the common shapes (en, pt-PT, zh-Hant-TW).
      language: z
        .string()
        .regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, 'expected a language tag such as en or pt-PT')
        .optional(),
    })
    .default({}),
  // contentsignals.org: the three signals, yes or no each; the defaults are the project's stance.
  contentSignal: z
    .strictObject({ search: signal.default('yes'), 'ai-input': signal.default('yes'), 'ai-train': signal.default('no') })
    .default({ search: 'yes', 'ai-input': 'yes', 'ai-train': 'no' }),
});

export type ProfileFile = z.output<typeof profileSchema>;

/** The profile every surface reads: the file's, with the site's defaults filled in. */
export interface SiteProfile {
  name: string;
  note?: string;
  photo?: { src: string; alt: string };
  me: string[];
  title: string;
  description: string;
  language: string;
  contentSignal: { search: 'yes' | 'no'; 'ai-input': 'yes' | 'no'; 'ai-train': 'yes' | 'no' };
  /** Whether the owner wrote it (`content/site.yaml`), or it is the fallback of a checkout without one. */
  fromFile: boolean;
}

/** The demo owner, named where no profile and no `SITE_AUTHOR` say otherwise. */
export const DEFAULT_SITE_AUTHOR = 'Inês Carvalho';

export const DEFAULT_DESCRIPTION = 'Films, places, concerts, books, music, runs and more, as a site and as APIs.';

/** The profile the surfaces read, from the file when there is one, else from the owner's name alone. */
export function siteProfile(file: ProfileFile | undefined, fallbackName: string): SiteProfile {
  const name = file?.name ?? fallbackName;
  return {
    name,
    ...(file?.note ? { note: file.note } : {}),
    ...(file?.photo ? { photo: file.photo } : {}),
    me: file?.me ?? [],
    title: file?.site.title ?? `${name}’s collections`,
    description: file?.site.description ?? DEFAULT_DESCRIPTION,
    language: file?.site.language ?? 'en',
    contentSignal: file?.contentSignal ?? { search: 'yes', 'ai-input': 'yes', 'ai-train': 'no' },
    fromFile: file !== undefined,
  };
}

/** The Content-Signal value as robots.txt writes it (`search=yes,ai-input=yes,ai-train=no`). */
export const contentSignalLine = (profile: Pick<SiteProfile, 'contentSignal'>) =>
  Object.entries(profile.contentSignal)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
