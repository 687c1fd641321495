/**
 * The incremental rebuild against the full build: after any sequence of edits, additions,
 * deletions, moves and invalid saves, the output a rebuild writes holds the same image
 * rows (tests/helpers/image-rows.ts), the same compiled files byte for byte with the same
 * manifest entries (so the same ETags), and the same SQL image as a full compile of the
 * same content; an unchanged rebuild writes nothing, and an invalid one writes nothing
 * and names every problem.
 *
 * @slow: about a hundred compiles against incremental rebuilds (scripts/test.ts starts it first, in a process of its own).
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import yaml from 'js-yaml';
import { compile, ContentError, type Manifest } from '../../src/compile/compile.ts';
import { prepareImage, rebuildOutput, type BuildOutput, type PageRenderer } from '../../src/compile/incremental/rebuild.ts';
import { withSecurity, writeManifest } from '../../src/compile/artifacts/manifest.ts';
import { Image } from '../../src/core/image.ts';
import { QueryCore } from '../../src/core/query.ts';
import { calendarDocuments, exportDocuments } from '../../src/compile/artifacts/exports.ts';
import { RecordOrders } from '../../src/compile/artifacts/record-order.ts';
import { keptRecordSitemaps } from '../../src/compile/incremental/pages.ts';
import { FragmentStore } from '../../src/formats/fragments.ts';
import { buildLayout } from '../../src/paths.ts';
import { blogPosts } from '../../src/components/page-data.ts';
import { parseQuery } from '../../src/core/params.ts';
import { homeView } from '../../src/site/home.ts';
import { pagesSitemap, recordSitemap, sitemapIndex } from '../../src/site/sitemap.ts';
import { collectionView, pageCollection } from '../../src/site/view.ts';
import fc from '../helpers/fc.ts';
import { imageRows } from '../helpers/image-rows.ts';

type Rec = Record<string, unknown>;
/** A content folder as data: YAML files hold a list of records; Markdown files front matter and a body. */
type Files = Map<string, Rec[] | { front: Rec; body: string }>;

const load = (file: string) => yaml.load(readFileSync(join('content', file), 'utf8'), { schema: yaml.CORE_SCHEMA }) as Rec[];
const markdown = (file: string) => {
  const text = readFileSync(join('content', file), 'utf8');
  const match = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(text)!;
  return { front: yaml.load(match[1]!, { schema: yaml.CORE_SCHEMA }) as Rec, body: match[2]! };
};

/** A small site drawn from the demo content: lists that feed the calendars, the exports, the feeds, search, SQL and the taste profile. */
function baseFiles(): Files {
  const files: Files = new Map();
  const split = (collection: string, source: string, n: number) => {
    const records = load(source).slice(0, n);
    files.set(`${collection}/a.yaml`, records.slice(0, Math.ceil(n / 2)));
    files.set(`${collection}/b.yaml`, records.slice(Math.ceil(n / 2)));
  };
  split('concerts', 'concerts/2015-2017-lisbon.yaml', 4);
  split('places', 'places/tokyo.yaml', 4);
  split('tweets', 'tweets/2023-2025.yaml', 4);
  split('music', 'music/tracks.yaml', 4);
  split('sporting-events', 'sporting-events/athletics.yaml', 3);
  files.set('blog/one.md', markdown('blog/2021-a-tidy-desk-is-a-backlog.md'));
  files.set('blog/two.md', markdown('blog/2025-feeds-are-still-good.md'));
  files.set('writing/one.md', markdown('writing/2016-backpressure-explained-with-a-tram.md'));
  return files;
}

function render(value: Rec[] | { front: Rec; body: string }): string {
  return Array.isArray(value)
    ? yaml.dump(value, { schema: yaml.CORE_SCHEMA })
    : `---\n${yaml.dump(value.front, { schema: yaml.CORE_SCHEMA })}---\n${value.body}`;
}

function writeFiles(dir: string, files: Files, only?: readonly string[]): void {
  for (const name of only ?? [...files.keys()]) {
    const path = join(dir, name);
    const value = files.get(name);
    if (value === undefined) rmSync(path, { force: true });
    else {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, render(value));
    }
  }
}

/** Pages are Astro's; here a page is its route and the data it reads, which is all a page depends on. */
const renderPage: PageRenderer = async (core, route) => {
  const [kind, name] = route.split('/').slice(2);
  // The sitemaps are the functions the prerendered files and the rerender route call.
  if (kind === 'sitemap') return Buffer.from(sitemapIndex(core.image));
  if (kind === 'sitemap-pages') return Buffer.from(pagesSitemap(core.image));
  if (kind === 'sitemap-records') return Buffer.from(recordSitemap(core.image, Number(name)));
  const listed = kind?.startsWith('collection') ? pageCollection(name ?? '') : undefined;
  const data =
    kind === 'home' || kind === 'home.md' || kind === 'llms'
      ? homeView(core)
      : listed
        ? collectionView(core, parseQuery(listed, new URLSearchParams()))
        : blogPosts(core);
  return Buffer.from(`${route}\n${JSON.stringify(data)}`);
};

function fullBuild(root: string, content: string, name: string): { dir: string; manifest: Manifest } {
  const dir = join(root, name);
  const layout = buildLayout(dir);
  const result = compile({ contentDir: content, imagePath: layout.image, clientDir: layout.client, secret: 's' });
  return { dir, manifest: result.manifest };
}

function firstBuild(root: string, content: string): BuildOutput {
  const { dir, manifest } = fullBuild(root, content, 'gen-0');
  const layout = buildLayout(dir);
  return { image: layout.image, sqlImage: layout.sqlImage, manifest: writeManifest(layout.client, manifest, layout.manifest, undefined), root: layout.client };
}

/** The rebuilt output and a full build of the same content agree on rows, compiled files, manifest entries and the SQL image. */
function assertEquivalent(build: BuildOutput, full: { dir: string; manifest: Manifest }): void {
  const fullLayout = buildLayout(full.dir);
  const mine = imageRows(build.image);
  const theirs = imageRows(fullLayout.image);
  assert.deepEqual(mine.meta, theirs.meta);
  for (const table of Object.keys(theirs.tables)) assert.deepEqual(mine.tables[table], theirs.tables[table], table);
  for (const [path, entry] of Object.entries(full.manifest)) {
    assert.deepEqual({ ...build.manifest[path]!, file: entry.file }, withSecurity(path, entry, undefined), path);
    assert.ok(readFileSync(join(build.root, build.manifest[path]!.file)).equals(readFileSync(join(fullLayout.client, entry.file))), entry.file);
  }
  for (const path of Object.keys(build.manifest)) {
    const page =
      path === '/' ||
      path === '/index.md' ||
      path === '/llms.txt' ||
      path.startsWith('/blog/') ||
      /^\/[a-z-]+\/(index\.md)?$/.test(path) ||
      /^\/sitemap(-pages|-records-\d+)?\.xml$/.test(path);
    assert.ok(full.manifest[path] !== undefined || page, `${path} is in the rebuilt output only`);
  }
  assert.ok(readFileSync(build.sqlImage).equals(readFileSync(fullLayout.sqlImage)), 'sql.db');
}

/** The next build output in `dir`, its files named from the folder above, its image the live one there. */
/** What a running server keeps from one rebuild to the next: the exports' and calendars' fragments and record lists. */
interface Kept {
  fragments: FragmentStore;
  orders: RecordOrders;
}

/** Kept state as a server's warm-up leaves it: the build's exports and calendars rendered once, keeping their fragments and lists. */
function warmed(build: BuildOutput): Kept {
  const kept = { fragments: new FragmentStore(), orders: new RecordOrders() };
  const image = new Image(build.image);
  try {
    const core = new QueryCore(image);
    kept.orders.use(build, core);
    exportDocuments(core, kept.fragments, kept.orders);
    calendarDocuments(core, kept.fragments, kept.orders);
    keptRecordSitemaps(core, kept.orders);
  } finally {
    image.close();
  }
  return kept;
}

async function rebuild(previous: BuildOutput, dir: string, content: string, paths: readonly string[], kept?: Kept) {
  const live = join(dir, '..', 'live.db');
  if (previous.image !== live && !existsSync(live)) await prepareImage(previous.image, live);
  const image = new Image(previous.image);
  try {
    return await rebuildOutput(previous, image, { dir, root: join(dir, '..'), image: live }, paths, { contentDir: content, ...kept }, renderPage);
  } finally {
    image.close();
  }
}

function site() {
  const root = mkdtempSync(join(tmpdir(), 'incremental-'));
  const content = join(root, 'content');
  const files = baseFiles();
  writeFiles(content, files);
  return { root, content, files, build: firstBuild(root, content) };
}

/** One edit of the model: which files it touched. */
type Edit = (files: Files, n: number) => string[];

const yamlFiles = (files: Files) => [...files.keys()].filter((f) => f.endsWith('.yaml')).sort();
const markdownFiles = (files: Files) => [...files.keys()].filter((f) => f.endsWith('.md')).sort();
const pick = <T>(items: readonly T[], n: number) => items[n % items.length]!;
const textField = (r: Rec) => ['title', 'name', 'text', 'artist'].find((f) => typeof r[f] === 'string')!;

const EDITS: Record<string, Edit> = {
  retitle: (files, n) => {
    const file = pick(
      yamlFiles(files).filter((f) => (files.get(f) as Rec[]).length),
      n,
    );
    const record = pick(files.get(file) as Rec[], n >> 3);
    record[textField(record)] = `${String(record[textField(record)])} ${n}`;
    return [file];
  },
  redate: (files, n) => {
    const file = pick(
      yamlFiles(files).filter((f) => (files.get(f) as Rec[]).length),
      n,
    );
    const record = pick(files.get(file) as Rec[], n >> 3);
    const field = ['date', 'createdAt', 'addedAt', 'visitedAt'].find((f) => typeof record[f] === 'string');
    // Whole leap cycles back, so a 29 February stays a real day.
    if (field) record[field] = String(record[field]).replace(/^\d{4}/, (year) => String(Number(year) - 4 * (1 + (n % 5))));
    return [file];
  },
  add: (files, n) => {
    const file = pick(
      yamlFiles(files).filter((f) => (files.get(f) as Rec[]).length),
      n,
    );
    const records = files.get(file) as Rec[];
    const copy: Rec = { ...pick(records, n >> 3), id: `added-${n}` };
    copy[textField(copy)] = `Added ${n}`;
    records.splice(n % (records.length + 1), 0, copy);
    return [file];
  },
  remove: (files, n) => {
    const file = pick(
      yamlFiles(files).filter((f) => (files.get(f) as Rec[]).length),
      n,
    );
    (files.get(file) as Rec[]).splice(n % (files.get(file) as Rec[]).length, 1);
    return [file];
  },
  move: (files, n) => {
    const from = pick(
      yamlFiles(files).filter((f) => (files.get(f) as Rec[]).length),
      n,
    );
    const to = from.replace(/[ab]\.yaml$/, (m) => (m === 'a.yaml' ? 'b.yaml' : 'a.yaml'));
    const [record] = (files.get(from) as Rec[]).splice(0, 1);
    files.set(to, [...((files.get(to) as Rec[] | undefined) ?? []), record!]);
    return [from, to];
  },
  'delete file': (files, n) => {
    const file = pick(yamlFiles(files), n);
    files.delete(file);
    return [file];
  },
  'edit post': (files, n) => {
    const file = pick(markdownFiles(files), n);
    const post = files.get(file) as { front: Rec; body: string };
    post.front.title = `${String(post.front.title)} ${n}`;
    if (n % 2) post.front.publishedAt = `20${10 + (n % 15)}-0${1 + (n % 9)}-1${n % 10}`;
    post.body = `${post.body}\nMore, ${n}.\n`;
    return [file];
  },
  'new post': (files, n) => {
    files.set(`blog/new-${n}.md`, {
      front: { title: `New ${n}`, slug: `new-post-${n}`, publishedAt: '2026-11-20', summary: `Summary ${n}` },
      body: `Body ${n}.`,
    });
    return [`blog/new-${n}.md`];
  },
  'delete post': (files, n) => {
    const file = pick(markdownFiles(files), n);
    files.delete(file);
    return [file];
  },
};

/** Each edit of `steps` made, rebuilt from the build before it (keeping `kept` across rebuilds, when given), and compared with a full build of the same content. */
async function editAndCompare(steps: [string, number][], root: string, content: string, files: Files, first: BuildOutput, kept?: Kept): Promise<void> {
  let build = first;
  for (const [i, [name, n]] of steps.entries()) {
    if (name !== 'new post' && yamlFiles(files).length === 0) continue;
    if (name.endsWith('post') && name !== 'new post' && markdownFiles(files).length === 0) continue;
    const touched = EDITS[name]!(files, n);
    writeFiles(content, files, touched);
    const result = await rebuild(build, join(root, `gen-${i + 1}`), content, touched, kept);
    if (result) build = result.build;
    assertEquivalent(build, fullBuild(root, content, `full-${i + 1}`));
  }
}

test('incremental rebuilds after random edit sequences equal a full build of the same content', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(...Object.keys(EDITS)), fc.nat(1000)), { minLength: 1, maxLength: 5 }), async (steps) => {
      const { root, content, files, build } = site();
      try {
        await editAndCompare(steps, root, content, files, build);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }),
    { numRuns: 12 },
  );
});

test('rebuilds that keep fragments and record lists from one to the next, as a server does, equal a full build after random edit sequences', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(fc.constantFrom(...Object.keys(EDITS)), fc.nat(1000)), { minLength: 1, maxLength: 6 }),
      fc.boolean(),
      async (steps, warm) => {
        const { root, content, files, build } = site();
        // Warmed as a server warms, or cold: then the first rebuild reads whole lists and keeps them.
        const kept = warm ? warmed(build) : { fragments: new FragmentStore(), orders: new RecordOrders() };
        try {
          await editAndCompare(steps, root, content, files, build, kept);
        } finally {
          rmSync(root, { recursive: true, force: true });
        }
      },
    ),
    { numRuns: 12 },
  );
});

test('an unchanged rebuild writes nothing', async () => {
  const { root, content, files, build } = site();
  writeFiles(content, files, ['concerts/a.yaml']);
  assert.equal(
    await rebuild(build, join(root, 'gen-1'), content, ['concerts/a.yaml', 'concerts/missing.yaml', 'not-a-collection/x.yaml', 'concerts/notes.txt']),
    undefined,
  );
  assert.equal(existsSync(join(root, 'gen-1')), false);
  rmSync(root, { recursive: true, force: true });
});

test('an edit changes exactly the documents that read its records, and their ETags', async () => {
  const { root, content, files, build } = site();
  const concert = (files.get('concerts/a.yaml') as Rec[])[0]!;
  concert.title = 'Renamed';
  writeFiles(content, files, ['concerts/a.yaml']);
  const result = (await rebuild(build, join(root, 'gen-1'), content, [join(content, 'concerts/a.yaml')]))!;
  // Concerts and their calendars; the feed too, since in a site this small the concert is among its newest items;
  // the concerts page, the home page (newest items) and the map (concerts are located), with their Markdown twins and /llms.txt.
  assert.deepEqual(result.changed, [
    '/',
    '/api/concerts.json',
    '/api/feed-items.json',
    '/calendar.ics',
    '/concerts.ics',
    '/concerts/',
    '/concerts/index.md',
    '/feed.json',
    '/feed.xml',
    '/index.md',
    '/llms.txt',
    '/map/',
    '/map/index.md',
  ]);
  for (const [path, entry] of Object.entries(build.manifest)) {
    const after = result.build.manifest[path]!;
    assert.equal(after.headers.ETag !== entry.headers.ETag, result.changed.includes(path), path);
  }
  rmSync(root, { recursive: true, force: true });
});

test('a record that comes or goes is in the record sitemap of the next generation, or gone from it; an edit leaves the sitemaps alone', async () => {
  const { root, content, files, build } = site();
  const sitemap = (g: BuildOutput) => readFileSync(join(g.root, g.manifest['/sitemap-records-1.xml']!.file), 'utf8');
  const concerts = files.get('concerts/a.yaml') as Rec[];
  concerts.push({ ...concerts[0]!, id: 'sitemap-newcomer', artist: 'Newcomer', date: '2016-02-02T20:00' });
  writeFiles(content, files, ['concerts/a.yaml']);
  const added = (await rebuild(build, join(root, 'gen-1'), content, ['concerts/a.yaml']))!;
  assert.ok(added.changed.includes('/sitemap-records-1.xml'), added.changed.join(' '));
  const list = JSON.parse(readFileSync(join(added.build.root, added.build.manifest['/api/concerts.json']!.file), 'utf8')) as { data: Rec[] };
  const newcomer = list.data.find((c) => c.artist === 'Newcomer');
  assert.ok(newcomer, 'the new concert is published');
  assert.match(sitemap(added.build), new RegExp(`/concerts/${String(newcomer.canonicalId)}</loc>`));
  concerts.pop();
  writeFiles(content, files, ['concerts/a.yaml']);
  const removed = (await rebuild(added.build, join(root, 'gen-2'), content, ['concerts/a.yaml']))!;
  assert.ok(removed.changed.includes('/sitemap-records-1.xml'));
  assert.doesNotMatch(sitemap(removed.build), new RegExp(String(newcomer.canonicalId)));
  concerts[0]!.title = 'Renamed';
  writeFiles(content, files, ['concerts/a.yaml']);
  const edited = (await rebuild(removed.build, join(root, 'gen-3'), content, ['concerts/a.yaml']))!;
  assert.ok(!edited.changed.some((p) => p.startsWith('/sitemap')), edited.changed.join(' '));
  rmSync(root, { recursive: true, force: true });
});

test('an invalid edit writes nothing and names every problem; fixing it recovers', async () => {
  const { root, content, files, build } = site();
  const original = render(files.get('concerts/a.yaml')!);
  (files.get('concerts/a.yaml') as Rec[])[0]!.date = 'soon';
  (files.get('places/b.yaml') as Rec[])[0]!.category = 'nowhere';
  writeFiles(content, files, ['concerts/a.yaml', 'places/b.yaml']);
  await assert.rejects(rebuild(build, join(root, 'gen-1'), content, ['concerts/a.yaml', 'places/b.yaml']), (error: unknown) => {
    assert.ok(error instanceof ContentError);
    assert.match(error.message, /places\/b\.yaml\[0\]: category: /);
    assert.match(error.message, /concerts\/a\.yaml\[0\]: date: /);
    return true;
  });
  assert.equal(existsSync(join(root, 'gen-1')), false);
  writeFileSync(join(content, 'concerts/a.yaml'), original);
  (files.get('places/b.yaml') as Rec[])[0]!.category = 'food';
  writeFiles(content, files, ['places/b.yaml']);
  const fixed = await rebuild(build, join(root, 'gen-1'), content, ['concerts/a.yaml', 'places/b.yaml']);
  assert.ok(fixed);
  assertEquivalent(fixed.build, fullBuild(root, content, 'full'));
  rmSync(root, { recursive: true, force: true });
});

test('a duplicate identity in an edited file is reported at the origin a full build names', async () => {
  const { root, content, files, build } = site();
  const tweets = files.get('tweets/a.yaml') as Rec[];
  for (const [target, copy] of [
    ['tweets/b.yaml', tweets[0]!],
    ['tweets/0.yaml', tweets[1]!],
  ] as const) {
    files.set(target, [...((files.get(target) as Rec[] | undefined) ?? []), { ...copy }]);
    writeFiles(content, files, [target]);
    let full = '';
    try {
      compile({ contentDir: content, imagePath: join(root, 'dup', 'site.db'), clientDir: join(root, 'dup', 'client'), secret: 's' });
    } catch (error) {
      full = (error as Error).message;
    }
    assert.match(full, /same tweetId as/);
    await assert.rejects(rebuild(build, join(root, 'gen-1'), content, [target]), (error: unknown) => {
      assert.equal((error as Error).message, full);
      return true;
    });
    files.set(target, (files.get(target) as Rec[]).slice(0, -1));
    if ((files.get(target) as Rec[]).length === 0) files.delete(target);
    writeFiles(content, files, [target]);
  }
  rmSync(root, { recursive: true, force: true });
});

test('a canonicalId another collection holds, in an unedited file or in another edited one, is refused as a full build refuses it', async () => {
  const { root, content, files, build } = site();
  const concerts = JSON.parse(readFileSync(join(build.root, build.manifest['/api/concerts.json']!.file), 'utf8')) as { data: { canonicalId: string }[] };
  const taken = concerts.data[0]!.canonicalId;
  const tweets = files.get('tweets/b.yaml') as Rec[];
  tweets.push({ ...tweets[0]!, id: taken, text: 'A tweet that borrows a concert’s id' });
  writeFiles(content, files, ['tweets/b.yaml']);
  await assert.rejects(rebuild(build, join(root, 'gen-1'), content, ['tweets/b.yaml']), (error: unknown) => {
    assert.ok(error instanceof ContentError);
    assert.match(error.message, new RegExp(`tweets/b\\.yaml\\[\\d+\\]: id: ${taken} is already the canonicalId of \\S*concerts/[ab]\\.yaml\\[\\d+\\]`));
    return true;
  });
  assert.equal(existsSync(join(root, 'gen-1')), false);
  // Two edited files of two collections giving the same new id.
  const fresh = 'itm_0123456789abcdef01234567';
  tweets[tweets.length - 1]!.id = fresh;
  const places = files.get('places/a.yaml') as Rec[];
  places.push({ ...places[0]!, id: fresh, name: 'A place with the same id' });
  writeFiles(content, files, ['tweets/b.yaml', 'places/a.yaml']);
  await assert.rejects(rebuild(build, join(root, 'gen-1'), content, ['tweets/b.yaml', 'places/a.yaml']), (error: unknown) => {
    assert.ok(error instanceof ContentError);
    assert.match(error.message, new RegExp(`: id: ${fresh} is already the canonicalId of `));
    return true;
  });
  rmSync(root, { recursive: true, force: true });
});

test('a deleted folder removes every record it held', async () => {
  const { root, content, build } = site();
  cpSync(join(content, 'places'), join(root, 'places-backup'), { recursive: true });
  rmSync(join(content, 'places'), { recursive: true });
  const result = (await rebuild(build, join(root, 'gen-1'), content, ['places']))!;
  assert.ok(result.changed.includes('/places.geojson'));
  assertEquivalent(result.build, fullBuild(root, content, 'full'));
  rmSync(root, { recursive: true, force: true });
});

test('records added one by one at the same place move only their neighbours', async () => {
  const site0 = site();
  const { root, content, files } = site0;
  let build = site0.build;
  const ridsOf = (g: BuildOutput) => {
    const image = new Image(g.image);
    try {
      return new Map((image.db.prepare('SELECT cid, rid FROM "tweets"').all() as { cid: string; rid: number }[]).map((r) => [r.cid, r.rid]));
    } finally {
      image.close();
    }
  };
  const before = ridsOf(build);
  const template = (files.get('tweets/a.yaml') as Rec[])[0]!;
  files.set('tweets/c.yaml', []);
  // Canonical ids given explicitly sort first and next to each other, and one date ranks them together in search:
  // every addition lands between the last one and the first existing record, until the rids there run out.
  for (let i = 1; i <= 24; i++) {
    (files.get('tweets/c.yaml') as Rec[]).push({
      ...template,
      id: `itm_${i.toString(16).padStart(24, '0')}`,
      createdAt: '2024-06-01T12:00:00Z',
      text: `Same place ${i}`,
    });
    writeFiles(content, files, ['tweets/c.yaml']);
    build = (await rebuild(build, join(root, `gen-${i}`), content, ['tweets/c.yaml']))!.build;
  }
  assertEquivalent(build, fullBuild(root, content, 'full'));
  const after = ridsOf(build);
  const moved = [...before].filter(([cid, rid]) => after.get(cid) !== rid).length;
  // Each addition past the gap moves the run of records right after it by one rid: here the
  // first original record, which after a gap's worth of moves reaches the second.
  assert.ok(moved <= 2, `${moved} of ${before.size} original records moved`);
  rmSync(root, { recursive: true, force: true });
});

test('a generation keeps reading its snapshot of the shared image while later ones commit', async () => {
  const { root, content, files, build } = site();
  const concerts = files.get('concerts/a.yaml') as Rec[];
  const titles = (image: Image) =>
    (image.db.prepare('SELECT json FROM "concerts"').all() as { json: string }[]).map((r) => String(JSON.parse(r.json).title)).sort();
  concerts[0]!.title = 'First';
  writeFiles(content, files, ['concerts/a.yaml']);
  const first = (await rebuild(build, join(root, 'gen-1'), content, ['concerts/a.yaml']))!.build;
  const old = new Image(first.image);
  const before = titles(old);
  assert.ok(before.includes('First'));
  concerts[0]!.title = 'Second';
  concerts.pop();
  writeFiles(content, files, ['concerts/a.yaml']);
  const second = (await rebuild(first, join(root, 'gen-2'), content, ['concerts/a.yaml']))!.build;
  assert.equal(second.image, first.image);
  assert.deepEqual(titles(old), before);
  assert.equal(old.count('concerts'), before.length);
  const current = new Image(second.image);
  assert.ok(titles(current).includes('Second'));
  assert.equal(current.count('concerts'), before.length - 1);
  old.close();
  current.close();
  rmSync(root, { recursive: true, force: true });
});
