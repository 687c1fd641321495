/**
 * The owner's profile, `content/site.yaml`: checked with the records (every problem at
 * once, `path: field: reason`), stored in the image, and read by the home page, its JSON-LD
 * and twin, the feeds, llms.txt, the MCP server card and robots.txt; without the file the
 * owner's name is `SITE_AUTHOR`'s.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { contentSignalLine } from '../../src/collections/profile.ts';
import { compile, ContentError } from '../../src/compile/compile.ts';
import { Image } from '../../src/core/image.ts';
import { QueryCore } from '../../src/core/query.ts';
import { homeView } from '../../src/site/home.ts';
import { homeMarkdown, llmsTxt } from '../../src/site/markdown.ts';

function build(files: Record<string, string>, siteAuthor?: string) {
  const root = mkdtempSync(join(tmpdir(), 'profile-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, 'content', path, '..'), { recursive: true });
    writeFileSync(join(root, 'content', path), text);
  }
  const out = join(root, 'out');
  const run = () =>
    compile({
      contentDir: join(root, 'content'),
      imagePath: join(out, 'site.db'),
      clientDir: join(out, 'client'),
      secret: 's',
      siteUrl: 'https://ada.example',
      siteAuthor,
    });
  return { run, image: join(out, 'site.db'), client: join(out, 'client') };
}

const heat = `---\ntitle: Heat\ntype: movie\nyear: 1995\naddedAt: 2024-01-03\n---\n`;

test('an invalid profile is listed with the records’ problems, all at once, as path: field: reason', () => {
  const { run } = build({
    'site.yaml': 'nam: Ada\nme: [not-a-url]\nsite: {language: "english language"}\ncontentSignal: {ai-train: maybe}\n',
    'movies/bad.md': `---\ntitle: X\ntype: film\nyear: 1995\naddedAt: 2024-01-03\n---\n`,
  });
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof ContentError);
    const lines = error.problems.map((p) => `${p.origin.replace(/^.*content\//, 'content/')}: ${p.field}: ${p.reason}`);
    assert.ok(lines.includes('content/site.yaml: name: required field is missing'), lines.join('\n'));
    assert.ok(lines.includes('content/site.yaml: nam: unknown field (check its spelling)'), lines.join('\n'));
    assert.ok(lines.some((l) => l.startsWith('content/site.yaml: me.0: ')));
    assert.ok(lines.some((l) => l.startsWith('content/site.yaml: site.language: expected a language tag')));
    assert.ok(lines.some((l) => l.startsWith('content/site.yaml: contentSignal.ai-train: ')));
    assert.ok(lines.some((l) => l.startsWith('content/movies/bad.md: type: ')));
    return true;
  });
});

test('a profile that is not one mapping is a problem of its file', () => {
  const { run } = build({ 'site.yaml': '- name: Ada\n' });
  assert.throws(run, (error: unknown) => error instanceof ContentError && error.problems.some((p) => p.origin.endsWith('site.yaml') && p.field === '(file)'));
});

test('the profile drives the home page, its JSON-LD and twin, the feeds, llms.txt, the server card and robots’ signal', () => {
  const {
    run,
    image: path,
    client,
  } = build({
    'site.yaml': [
      'name: Ada Lovelace',
      'note: Writes about engines.',
      'me: [https://mastodon.example/@ada, https://github.com/ada]',
      'site: {title: Ada’s notebook, description: Engines and looms., language: en-GB}',
      'contentSignal: {ai-train: yes}',
      '',
    ].join('\n'),
    'movies/heat.md': heat,
  });
  run();
  const image = new Image(path);
  try {
    const profile = image.profile;
    assert.equal(profile.fromFile, true);
    assert.equal(contentSignalLine(profile), 'search=yes,ai-input=yes,ai-train=yes');
    const view = homeView(new QueryCore(image));
    assert.equal(view.owner.name, 'Ada Lovelace');
    assert.equal(view.owner.title, 'Ada’s notebook');
    assert.equal(view.owner.language, 'en-GB');
    assert.deepEqual(view.owner.me, ['https://mastodon.example/@ada', 'https://github.com/ada']);
    const person = JSON.parse(view.jsonLd) as Record<string, unknown>;
    assert.deepEqual(person, {
      '@context': 'https://schema.org',
      '@type': 'Person',
      name: 'Ada Lovelace',
      url: 'https://ada.example',
      description: 'Writes about engines.',
      sameAs: ['https://mastodon.example/@ada', 'https://github.com/ada'],
    });
    assert.match(homeMarkdown(view), /^# Ada’s notebook\n\nWrites about engines\./);
    assert.match(llmsTxt(view, image.siteUrl), /^# Ada’s notebook\n\n> Ada Lovelace's curated collections/);
  } finally {
    image.close();
  }
  const feed = JSON.parse(readFileSync(join(client, 'feed.json'), 'utf8')) as { authors: { name: string }[] };
  assert.deepEqual(
    feed.authors.map((a) => a.name),
    ['Ada Lovelace'],
  );
  assert.match(readFileSync(join(client, 'feed.xml'), 'utf8'), /<author>\s*<name>Ada Lovelace<\/name>/);
  const card = JSON.parse(readFileSync(join(client, '.well-known/mcp/server-card.json'), 'utf8')) as { description: string };
  assert.match(card.description, /^Ada Lovelace's curated collections/);
});

test('without content/site.yaml the owner is SITE_AUTHOR, with the site’s defaults', () => {
  const { run, image: path } = build({ 'movies/heat.md': heat }, 'Grace Hopper');
  run();
  const image = new Image(path);
  try {
    const { fromFile, ...profile } = image.profile;
    assert.equal(fromFile, false);
    assert.deepEqual(profile, {
      name: 'Grace Hopper',
      me: [],
      title: 'Grace Hopper’s collections',
      description: 'Films, places, concerts, books, music, runs and more, as a site and as APIs.',
      language: 'en',
      contentSignal: { search: 'yes', 'ai-input': 'yes', 'ai-train': 'no' },
    });
  } finally {
    image.close();
  }
});
