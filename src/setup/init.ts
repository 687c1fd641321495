/**
 * `npm run init -- --name "…" --url https://… [--force]`: turns the checkout into the
 * owner's own site. In this order: checks the arguments (the name and address as the
 * profile takes them); asks git whether the content folder holds changes it does not know
 * about (an untracked file, a modified or staged one) and refuses, changing nothing, when it
 * does — they may be records the owner wrote — unless `--force`; checks every path the demo
 * list names; then removes the demo's files (content/demo.txt, src/setup/demo.ts), the
 * folders they leave empty and the list, and writes `content/site.yaml`. What is left builds
 * and serves as an empty site. Exit codes: 0 done, 1 refused (nothing changed), 2 a usage
 * mistake.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import yaml from 'js-yaml';
import { PROFILE_FILE, profileSchema } from '../collections/profile.ts';
import { schemaProblems } from '../compile/content/records.ts';
import { removeContentFile } from '../owner/content-file.ts';
import { ContentWriter } from '../owner/writer.ts';
import { DEMO_MANIFEST, demoFiles, unsafeDemoPath } from './demo.ts';

export class InitRefused extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`npm run init changed nothing:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

export interface InitOptions {
  contentDir: string;
  /** Where the content lock and the write journal are (`STATE_DIR`): init writes as every writer of content/ does. */
  stateDir: string;
  name: string;
  url: string;
  force?: boolean;
}

export interface InitReport {
  removed: string[];
  profile: string;
}

/** What git does not know about under `dir`: untracked, modified or staged paths; undefined when git cannot say (no git, or not a repository). */
export function unknownChanges(dir: string): string[] | undefined {
  const run = spawnSync('git', ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', '.'], { cwd: dir, encoding: 'utf8' });
  if (run.error || run.status !== 0) return undefined;
  const root = spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd: dir, encoding: 'utf8' }).stdout.trim();
  // -z: entries are NUL-separated, a rename's second path its own entry; paths are relative to the repository's root.
  const entries = run.stdout.split('\0').filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    out.push(
      relative(dir, join(root, entry.slice(3)))
        .split('\\')
        .join('/'),
    );
    if (entry[0] === 'R' || entry[0] === 'C') i++;
  }
  return out;
}

/** The profile `init` writes: the name and address, and every other field as a comment to fill in. */
export function profileText(name: string, url: string): string {
  const scalars = yaml.dump({ name, url }, { schema: yaml.CORE_SCHEMA, lineWidth: -1 });
  return `# Your profile (docs/making-it-yours.md), checked like every record. Only name is required.
# url is the site's address, used where SITE_URL is not set (SITE_URL always wins).
${scalars}# note: A sentence or two about you.
# photo:
#   src: /profile/me.jpg        # the file content/media/profile/me.jpg
#   alt: What the photo shows
# me:                           # rel=me: your profiles elsewhere, which link back here
#   - https://mastodon.example/@you
# site:
#   title: ${name.replace(/\n/g, ' ')}’s collections
#   description: Films, places, concerts, books, music, runs and more, as a site and as APIs.
#   language: en
# contentSignal:                # contentsignals.org, stated in robots.txt
#   search: yes
#   ai-input: yes
#   ai-train: no
`;
}

export async function initSite(options: InitOptions): Promise<InitReport> {
  const contentDir = resolve(options.contentDir);
  const problems: string[] = [];
  const text = profileText(options.name, options.url);
  const parsed = profileSchema.safeParse(yaml.load(text, { schema: yaml.CORE_SCHEMA }));
  if (!parsed.success) {
    const given = { name: options.name, url: options.url };
    for (const p of schemaProblems(parsed.error, given)) problems.push(`--${p.field}: ${p.reason}`);
  }
  if (!options.force) {
    const changes = unknownChanges(contentDir);
    if (changes === undefined)
      problems.push(`${contentDir}: not in a git repository, so changes of yours in it cannot be told from the demo (--force goes ahead)`);
    else if (changes.length > 0)
      problems.push(
        `${changes.length} change${changes.length === 1 ? '' : 's'} git does not know about in the content folder, which may be yours (commit them, or --force goes ahead): ${changes.slice(0, 10).join(', ')}${changes.length > 10 ? ', …' : ''}`,
      );
  }
  const listed = demoFiles(contentDir);
  if (listed.length === 0 && existsSync(join(contentDir, PROFILE_FILE)) && !options.force)
    problems.push(`${DEMO_MANIFEST}: no demo list, so this site was made yours already; --force writes a new ${PROFILE_FILE} over yours`);
  for (const file of listed) {
    const unsafe = unsafeDemoPath(file);
    if (unsafe) problems.push(`${DEMO_MANIFEST}: ${file}: ${unsafe}`);
  }
  if (problems.length) throw new InitRefused(problems);

  // Under the one content writer's lock (a running server's write is waited for, never
  // raced): the demo's files go (each unlink flushed), and the profile is a journaled,
  // atomic write like every other.
  const writer = new ContentWriter({ contentDir, stateDir: options.stateDir, holder: 'npm run init' });
  const removed: string[] = [];
  await writer.exclusive(async () => {
    const folders = new Set<string>();
    for (const file of listed) {
      const path = join(contentDir, file);
      if (!existsSync(path)) continue;
      removeContentFile(path);
      removed.push(file);
      for (let dir = dirname(path); dir.startsWith(contentDir + '/') || dir.startsWith(contentDir + '\\'); dir = dirname(dir)) folders.add(dir);
    }
    // Deepest first, so a folder emptied by its subfolders' removal goes too; a folder holding anything else stays.
    for (const dir of [...folders].sort((a, b) => b.length - a.length)) if (existsSync(dir) && readdirSync(dir).length === 0) rmdirSync(dir);
    const manifest = join(contentDir, DEMO_MANIFEST);
    if (existsSync(manifest)) removeContentFile(manifest);
    const meta = { client: 'npm run init', tool: 'init', collection: '', canonicalId: '', change: {}, revision: '' };
    await writer.writeFile(meta, join(contentDir, PROFILE_FILE), undefined, text);
  });
  return { removed, profile: join(contentDir, PROFILE_FILE) };
}

const USAGE = 'usage: npm run init -- --name "Your Name" --url https://your.site [--force]';

if (import.meta.main) {
  const { config } = await import('../config.ts');
  let args;
  try {
    args = parseArgs({
      options: { name: { type: 'string' }, url: { type: 'string' }, force: { type: 'boolean', default: false }, help: { type: 'boolean' } },
    }).values;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (!args.name || !args.url) {
    process.stderr.write(`${USAGE}\n`);
    process.exit(2);
  }
  try {
    const contentDir = config().CONTENT_DIR;
    const report = await initSite({ contentDir, stateDir: config().STATE_DIR, name: args.name, url: args.url, force: args.force });
    const shown = relative(process.cwd(), report.profile);
    process.stdout.write(
      [
        `removed the demo: ${report.removed.length} files`,
        `wrote ${shown}: your profile (add a note, a photo, rel=me links; docs/making-it-yours.md)`,
        '',
        'next:',
        '  npm start                                  # your empty site on http://localhost:4321',
        '  npm run new -- movies "Heat"               # a first record (any collection)',
        '  npm run import -- letterboxd export.zip    # or your data from a service (docs/importing.md)',
        `  SITE_URL=${args.url} npm run build        # where you deploy (docs/deploying.md)`,
        '',
      ].join('\n'),
    );
  } catch (error) {
    if (error instanceof InitRefused) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
