/**
 * One reading and one rendering of a record's text (issue 39, item 1): the front matter,
 * list items and identity every reader shares (src/compile/content/record-text.ts), the
 * one YAML renderer (src/compile/content/render.ts: a list item and a file of its own are
 * the same lines, in the schema's order), and the editor's general edit (lists,
 * multi-line text, removed fields), each checked by reading the result back.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import movies from '../../src/collections/movies.ts';
import { loadFile } from '../../src/compile/content/load.ts';
import { frontMatter, identityOf, listItemStarts, parseYaml, splitList } from '../../src/compile/content/record-text.ts';
import { renderItem, renderRecord } from '../../src/compile/content/render.ts';
import { EditError, editFields, readRecord } from '../../src/owner/edit.ts';

test('front matter: offsets of its YAML, the rest after the closing line; none without it', () => {
  const text = '\uFEFF---\r\ntitle: Heat\r\n---\r\nBody\r\n';
  const front = frontMatter(text)!;
  assert.equal(front.yaml, 'title: Heat\r\n');
  assert.equal(text.slice(front.yamlStart, front.yamlEnd), front.yaml);
  assert.equal(front.rest, 'Body\r\n');
  assert.equal(frontMatter('title: Heat\n'), undefined);
  assert.equal(frontMatter('---\ntitle: x\n--- \n')?.yaml, 'title: x\n', 'a closing line may carry trailing blanks');
});

test('list items: a top-level "- " or a lone "-"; never "---", never an indented dash', () => {
  const text = 'head: 1\n- a: 1\n  b:\n    - nested\n-\n  c: 2\n---\n- d: 3';
  assert.deepEqual(
    listItemStarts(text).map((at) => text.slice(at, at + 3)),
    ['- a', '-\n ', '- d'],
  );
  const list = splitList(text);
  assert.equal(list.head, 'head: 1\n');
  assert.equal(list.items.length, 3);
  assert.ok(list.items[2]!.endsWith('\n'), 'the last item is given its line break');
});

test('one rendering: the list item and the file of its own are the same lines in the schema’s order, and read back as the fields', () => {
  const fields = { year: 1995, title: 'Heat', type: 'movie', genres: ['Crime', 'Drama'], review: 'Two lines,\nthe second: "quoted".', addedAt: '2026-01-02' };
  const own = renderRecord(movies, fields);
  const item = renderItem(movies, fields);
  assert.ok(own.startsWith('title: Heat\ntype: movie\nyear: 1995\n'), own);
  assert.equal(
    item,
    own
      .split('\n')
      .map((line, i) => (line === '' ? '' : i === 0 ? `- ${line}` : `  ${line}`))
      .join('\n'),
  );
  assert.deepEqual(parseYaml(own), fields);
  assert.deepEqual((parseYaml(item) as unknown[])[0], fields);
  assert.equal(identityOf(movies, parseYaml(own) as Record<string, unknown>), identityOf(movies, fields));
});

test('any string renders to a YAML the loader reads back as that string', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 40 }), (title) => {
      const text = renderRecord(movies, { title, type: 'movie', year: 2000 });
      assert.equal((parseYaml(text) as { title: unknown }).title, title);
    }),
    { numRuns: 200 },
  );
});

const LIST = `# films
- title: A   # first
  type: movie
  year: 2000
  genres: [Drama]
  review: |
    two
    lines

- title: B
  type: movie
  year: 2001
`;

test('editFields: a list value, a multi-line text replaced, a field removed, a field added; other records and comments untouched', () => {
  const edited = editFields(LIST, false, 0, { set: { genres: ['Drama', 'Crime'], review: 'one line', rating: 4 }, unset: ['year'] });
  assert.equal(
    edited.text,
    `# films
- title: A   # first
  type: movie
  genres: [Drama, Crime]
  review: one line
  rating: 4

- title: B
  type: movie
  year: 2001
`,
  );
  assert.deepEqual(readRecord(edited.text, false, 1), readRecord(LIST, false, 1));
  const multi = editFields(LIST, false, 1, { set: { review: 'three\nlines\nhere' } });
  assert.equal((parseYaml(multi.text) as { review?: string }[])[1]!.review, 'three\nlines\nhere');
  assert.throws(() => editFields(LIST, false, 0, { unset: ['title'] }), EditError, 'the field that opens the item');
  assert.throws(() => editFields(LIST, false, 0, { set: { review: 'x' } }, { oneLine: true }), EditError, 'the owner tools never reflow a block');
});

test('editFields in front matter: CRLF kept, the body untouched; the loader reads the same record', () => {
  const md = '---\r\ntitle: Heat\r\ntype: movie\r\nyear: 1995\r\ngenres:\r\n  - Crime\r\n---\r\nBody: genres: x\r\n';
  const edited = editFields(md, true, null, { set: { genres: ['Crime', 'Drama'] }, unset: [] });
  assert.equal(edited.text, '---\r\ntitle: Heat\r\ntype: movie\r\nyear: 1995\r\ngenres: [Crime, Drama]\r\n---\r\nBody: genres: x\r\n');
  assert.equal(frontMatter(edited.text)!.rest, 'Body: genres: x\r\n');
  // The loader and the editor cut the file alike.
  const dir = mkdtempSync(join(tmpdir(), 'record-text-'));
  try {
    writeFileSync(join(dir, 'heat.md'), edited.text);
    const { entries } = loadFile(dir, join(dir, 'heat.md'), '.');
    assert.deepEqual(entries[0]!.data, edited.record);
    assert.equal(entries[0]!.body, 'Body: genres: x');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
