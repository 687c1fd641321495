/**
 * `sync.yaml` (or the file `SYNC_CONFIG` names): one top-level key per service to keep
 * current, with the owner's public handle there, and an optional `baseUrl` that replaces
 * the service's address (a mirror, or a test server). Secrets never go in this file: they
 * come from the environment (src/config.ts), and what a sync remembers goes to
 * `STATE_DIR` (its cursor: src/import/cursor.ts; the rest: src/sync/state.ts). Every key is checked before any source runs, and every
 * problem is reported at once (`goodreads.shelves: expected at least one shelf`); an
 * unknown key is refused rather than ignored, since a misspelt source would otherwise
 * never sync and never say so.
 */
import { readFileSync, statSync } from 'node:fs';
import yaml from 'js-yaml';
import { z } from 'zod';
import { LIMITS } from '../core/limits.ts';

const baseUrl = z
  .string()
  .refine((v) => URL.canParse(v) && ['http:', 'https:'].includes(new URL(v).protocol), 'expected an absolute http or https URL')
  .transform((v) => v.replace(/\/+$/, ''))
  .optional();

/** A handle as the services spell them: letters, digits and `_.-`. */
const handle = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'expected a user name (letters, digits, _ . -)');

/** Each source's entry: exactly the keys of issue 39, and `baseUrl`. */
export const SOURCE_CONFIGS = {
  letterboxd: z.strictObject({ user: handle, baseUrl }),
  goodreads: z.strictObject({
    userId: z
      .union([z.string(), z.number().int()])
      .transform(String)
      .pipe(z.string().regex(/^\d{1,12}$/, 'expected the numeric Goodreads user id')),
    shelves: z
      .array(z.string().regex(/^[a-z0-9_-]{1,64}$/, 'expected a shelf name such as read'))
      .min(1, 'expected at least one shelf')
      .max(LIMITS.syncShelvesMax, `expected at most ${LIMITS.syncShelvesMax} shelves (syncShelvesMax)`),
    baseUrl,
  }),
  listenbrainz: z.strictObject({ user: handle, baseUrl }),
  mastodon: z.strictObject({
    account: z
      .string()
      .regex(/^@?[A-Za-z0-9_]{1,30}@[A-Za-z0-9.-]{1,253}$/, 'expected user@instance')
      .transform((v) => v.replace(/^@/, '')),
    baseUrl,
  }),
  github: z.strictObject({ user: z.string().regex(/^[A-Za-z0-9-]{1,39}$/, 'expected a GitHub user name'), baseUrl }),
  strava: z.strictObject({ baseUrl }),
} as const;

export type SourceName = keyof typeof SOURCE_CONFIGS;
export const SOURCE_NAMES = Object.keys(SOURCE_CONFIGS) as SourceName[];
export type SourceConfig<N extends SourceName> = z.output<(typeof SOURCE_CONFIGS)[N]>;
export type SyncConfig = { [N in SourceName]?: SourceConfig<N> };

/** A configuration that cannot be used; `problems` lists every one. */
export class SyncConfigError extends Error {
  override readonly name = 'SyncConfigError';
  readonly problems: readonly string[];
  constructor(message: string, problems: readonly string[] = []) {
    super(problems.length ? `${message}\n  ${problems.join('\n  ')}` : message);
    this.problems = problems;
  }
}

/** The configuration in `text` (YAML), checked whole; throws SyncConfigError. */
export function parseSyncConfig(text: string, shown = 'sync.yaml'): SyncConfig {
  let data: unknown;
  try {
    data = yaml.load(text, { schema: yaml.CORE_SCHEMA });
  } catch (error) {
    throw new SyncConfigError(`${shown} is not YAML (${(error as Error).message.split('\n')[0]}).`);
  }
  if (data === undefined || data === null) return {};
  if (typeof data !== 'object' || Array.isArray(data)) throw new SyncConfigError(`${shown} must be a mapping of services (letterboxd: { user: alice }).`);
  const problems: string[] = [];
  const config: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const schema = (SOURCE_CONFIGS as Record<string, z.ZodType>)[key];
    if (!schema) {
      problems.push(`${key}: not a source this sync knows (${SOURCE_NAMES.join(', ')})`);
      continue;
    }
    const parsed = schema.safeParse(value ?? {});
    if (parsed.success) config[key] = parsed.data;
    else for (const issue of parsed.error.issues) problems.push(`${[key, ...issue.path].join('.')}: ${issue.message}`);
  }
  if (problems.length) throw new SyncConfigError(`${shown} cannot be used:`, problems);
  return config as SyncConfig;
}

/** The configuration file at `path`; throws SyncConfigError (absent, too large, or wrong). */
export function readSyncConfig(path: string): SyncConfig {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    throw new SyncConfigError(`${path} does not exist: write one entry per service to keep current (see docs/sync.md), or set SYNC_CONFIG.`);
  }
  if (size > LIMITS.syncConfigBytesMax) throw new SyncConfigError(`${path} is larger than ${LIMITS.syncConfigBytesMax} bytes, the limit syncConfigBytesMax.`);
  return parseSyncConfig(readFileSync(path, 'utf8'), path);
}
