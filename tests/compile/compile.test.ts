import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { compile, ContentError } from '../../src/compile/compile.ts';
import { compileOnThread } from '../../src/compile/compile-thread.ts';
import { allItems } from '../helpers/oracle.ts';

function site(files: Record<string, string>): { content: string; out: string } {
  const root = mkdtempSync(join(tmpdir(), 'compile-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, 'content', path, '..'), { recursive: true });
    writeFileSync(join(root, 'content', path), text);
  }
  return { content: join(root, 'content'), out: join(root, 'out') };
}

function build(files: Record<string, string>, collectGarbage?: () => void) {
  const { content, out } = site(files);
  const result = compile({ contentDir: content, imagePath: join(out, 'site.db'), clientDir: join(out, 'client'), secret: 's' }, collectGarbage);
  return { result, image: join(out, 'site.db'), client: join(out, 'client') };
}

const heat = `---\ntitle: Heat\ntype: movie\nyear: 1995\naddedAt: 2024-01-03\ngenres: [Crime]\n---\nA heist film.\n`;
const books = `- title: Dune\n  author: Frank Herbert\n  status: finished\n  isbn: 978-0-441-17271-9\n- title: Emma\n  author: Jane Austen\n  status: reading\n`;

test('invalid content fails the build listing every problem as path: field: reason', () => {
  const { content, out } = site({
    'movies/bad.md': `---\ntitle: X\ntype: film\nyear: 1995\ngnere: [a]\n---\n`,
    'movies/nofront.md': 'just text',
    'books/list.yaml': `- title: Dune\n  author: Frank Herbert\n  status: finished\n  isbn: 9780441172710\n- 42\n`,
    'places/broken.yaml': 'name: [',
  });
  assert.throws(
    () => compile({ contentDir: content, imagePath: join(out, 'site.db'), clientDir: join(out, 'client'), secret: 's' }),
    (error: unknown) => {
      assert.ok(error instanceof ContentError);
      const lines = error.message
        .split('\n')
        .slice(1)
        .map((l) => l.trim());
      for (const expected of [
        /bad\.md: type: /,
        /bad\.md: addedAt: required field is missing/,
        /bad\.md: gnere: unknown field/,
        /nofront\.md: \(file\): expected YAML front matter/,
        /list\.yaml\[0\]: isbn: expected a valid ISBN-13/,
        /list\.yaml\[1\]: \(record\): expected a mapping/,
        /broken\.yaml: \(file\): invalid YAML/,
      ]) {
        assert.ok(
          lines.some((l) => expected.test(l)),
          `${expected} in\n${lines.join('\n')}`,
        );
      }
      return true;
    },
  );
});

test('a content problem found after earlier collections were written leaves no image, not even a partial one', () => {
  const { content, out } = site({ 'movies/heat.md': heat, 'books/b.yaml': books, 'work/bad.yaml': 'name: [' });
  const imagePath = join(out, 'site.db');
  assert.throws(() => compile({ contentDir: content, imagePath, clientDir: join(out, 'client'), secret: 's' }), ContentError);
  assert.ok(!existsSync(imagePath));
  assert.deepEqual(existsSync(out) ? readdirSync(out) : [], []);
});

test('the compile on a thread of its own (as astro build runs it) gives the same result and raises a content problem as a ContentError', async () => {
  const files = { 'movies/heat.md': heat, 'books/b.yaml': books };
  const here = build(files);
  const { content, out } = site(files);
  const there = await compileOnThread({ contentDir: content, imagePath: join(out, 'site.db'), clientDir: join(out, 'client'), secret: 's' });
  assert.deepEqual(there, here.result);
  assert.ok(readFileSync(join(out, 'site.db')).equals(readFileSync(here.image)));
  const bad = site({ 'work/bad.yaml': 'name: [' });
  await assert.rejects(
    compileOnThread({ contentDir: bad.content, imagePath: join(bad.out, 'site.db'), clientDir: join(bad.out, 'client'), secret: 's' }),
    (error: unknown) => {
      assert.ok(error instanceof ContentError);
      assert.match(error.message, /bad\.yaml: \(file\): invalid YAML/);
      return true;
    },
  );
});

test('records publish canonicalId first, the Markdown body, derived fields; private records stay out', () => {
  const { image } = build({ 'movies/heat.md': heat, 'movies/secret.md': heat.replace('Heat', 'Secret').replace('---\nA', 'visibility: private\n---\nA') });
  const [item, ...rest] = allItems(image, 'movies');
  assert.equal(rest.length, 0);
  assert.match(item!.canonicalId, /^itm_[0-9a-f]{24}$/);
  assert.equal(Object.keys(item!)[0], 'canonicalId');
  assert.equal(item!.review, 'A heist film.');
  assert.equal(item!.visibility, undefined);
  const [book] = allItems(build({ 'books/b.yaml': books }).image, 'books');
  assert.equal(book!.isbn, '9780441172719');
});

test('canonicalIds come from identity, not position; an explicit id survives renames', () => {
  const idsOf = (files: Record<string, string>, name: string) =>
    allItems(build(files).image, name)
      .map((i) => i.canonicalId)
      .sort();
  const reordered = `${books.split('\n- ')[1]!.replace(/^/, '- ')}\n${books.split('\n- ')[0]}\n`;
  assert.deepEqual(idsOf({ 'books/a.yaml': books }, 'books'), idsOf({ 'books/z.yaml': reordered }, 'books'));
  assert.deepEqual(idsOf({ 'movies/heat.md': heat }, 'movies'), idsOf({ 'movies/other-name.md': heat.replace('Heat', 'HEAT') }, 'movies'));
  const pinned = heat.replace('---\ntitle', '---\nid: heat-1995\ntitle');
  assert.deepEqual(idsOf({ 'movies/heat.md': pinned }, 'movies'), idsOf({ 'movies/x.md': pinned.replace('Heat', 'Heat (Director’s Cut)') }, 'movies'));
  assert.notDeepEqual(idsOf({ 'movies/heat.md': pinned }, 'movies'), idsOf({ 'movies/heat.md': heat }, 'movies'));
  const explicit = heat.replace('---\ntitle', '---\nid: itm_00112233445566778899aabb\ntitle');
  assert.deepEqual(idsOf({ 'movies/heat.md': explicit }, 'movies'), ['itm_00112233445566778899aabb']);
});

test('two records with one identity are a content problem, not a silent overwrite', () => {
  const { content, out } = site({ 'movies/a.md': heat, 'movies/b.md': heat });
  assert.throws(
    () => compile({ contentDir: content, imagePath: join(out, 'i.db'), clientDir: join(out, 'c'), secret: 's' }),
    /b\.md: type\+title\+year: same type, title, year as .*a\.md/,
  );
});

test('the same content compiles to byte-identical image and page files', () => {
  const files = { 'movies/heat.md': heat, 'books/b.yaml': books };
  const first = build(files);
  const second = build(files);
  assert.ok(readFileSync(first.image).equals(readFileSync(second.image)));
  assert.equal(readFileSync(join(first.client, 'api/movies.json'), 'utf8'), readFileSync(join(second.client, 'api/movies.json'), 'utf8'));
  assert.deepEqual(first.result.manifest, second.result.manifest);
});

test('collecting garbage between the phases (as the compile thread does) changes no byte', () => {
  const files = { 'movies/heat.md': heat, 'books/b.yaml': books };
  let collections = 0;
  const plain = build(files);
  const collected = build(files, () => collections++);
  // At least the collection before the artifacts, which does not wait for the heap to grow.
  assert.ok(collections >= 1);
  assert.ok(readFileSync(plain.image).equals(readFileSync(collected.image)));
  assert.equal(readFileSync(join(plain.client, 'api/movies.json'), 'utf8'), readFileSync(join(collected.client, 'api/movies.json'), 'utf8'));
  assert.deepEqual(plain.result.manifest, collected.result.manifest);
});
