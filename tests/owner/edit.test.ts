/**
 * Editing a record's fields as text (src/owner/edit.ts): only the field's own line
 * changes, or one line is added at the end of the record's block; comments, other
 * records, line endings and the Markdown body stay byte for byte; what cannot be edited
 * that way is refused.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blockRevision, EditError, recordBlock, setFields } from '../../src/owner/edit.ts';

const LIST = `# my albums
- title: A   # first
  stance: like
  genres: [Rock]

# the second one
- title: B
  stance: love
- title: C
  notes: |
    two
    lines
`;

test('a list item: the field line is rewritten in place, keeping its comment; a missing field is added at the end of the item, before comments and blank lines', () => {
  const stance = setFields(LIST, false, 1, { stance: 'dislike' });
  assert.equal(stance.text, LIST.replace('  stance: love', '  stance: dislike'));
  const rating = setFields(LIST, false, 0, { rating: 4.5 });
  assert.equal(rating.text, LIST.replace('  genres: [Rock]\n', '  genres: [Rock]\n  rating: 4.5\n'));
  const title = setFields(LIST, false, 0, { title: 'Z' });
  assert.equal(title.text, LIST.replace('- title: A   # first', '- title: Z   # first'));
  const last = setFields(LIST, false, 2, { stance: 'neutral' });
  assert.equal(last.text, `${LIST}  stance: neutral\n`);
});

test('revisions change with the record’s own lines only', () => {
  const edited = setFields(LIST, false, 0, { stance: 'love' }).text;
  assert.notEqual(blockRevision(edited, recordBlock(edited, false, 0)), blockRevision(LIST, recordBlock(LIST, false, 0)));
  assert.equal(blockRevision(edited, recordBlock(edited, false, 1)), blockRevision(LIST, recordBlock(LIST, false, 1)));
});

test('Markdown: front matter only, CRLF kept, the body untouched; a single-record YAML file', () => {
  const md = '---\r\ntitle: Heat\r\nrating: 4\r\n---\r\nBody: rating: 1\r\n';
  assert.equal(
    setFields(md, true, null, { rating: 5, recommended: true }).text,
    '---\r\ntitle: Heat\r\nrating: 5\r\nrecommended: true\r\n---\r\nBody: rating: 1\r\n',
  );
  assert.equal(setFields('title: X\nstance: like', false, null, { stance: 'love' }).text, 'title: X\nstance: love');
  assert.equal(setFields('title: X', false, null, { stance: 'love' }).text, 'title: X\nstance: love');
});

test('strings that YAML would read otherwise are quoted; multi-line values and non-scalars are refused', () => {
  const quoted = setFields(LIST, false, 1, { title: 'yes: no' });
  assert.equal(quoted.record.title, 'yes: no');
  assert.throws(() => setFields(LIST, false, 2, { notes: 'one' }), EditError);
  assert.throws(() => setFields(LIST, false, 1, { title: 'a\nb' }), EditError);
  assert.throws(() => setFields(LIST, false, 1, { genres: ['x'] }), EditError);
  assert.throws(() => setFields(LIST, false, 9, { stance: 'love' }), EditError);
});
