/**
 * Pocket (the ZIP of CSV parts, and the older HTML export) into reading, and ListenBrainz
 * (monthly JSONL listens and feedback) into music: golden files byte for byte, no read
 * date made up for Pocket, listens gathered per recording (first listen, loved and hated
 * from feedback, neutral otherwise), and re-imports that change nothing.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { exportZip, FIXTURES, goldenImport, writtenText } from './harness.ts';

test('pocket: the ZIP of CSV parts gives the golden files; no readAt is made up', () => {
  const { content, run } = goldenImport('pocket', exportZip('pocket'));
  assert.match(run.stdout, /3 new/);
  const text = writtenText(content);
  assert.doesNotMatch(text, /readAt/);
  assert.match(text, /tags: \[databases, sql\]/, 'tags split on |');
});

test('pocket: the older HTML export gives its golden files', () => {
  const { content } = goldenImport('pocket', join(FIXTURES, 'pocket', 'html', 'ril_export.html'), [], 'golden-html');
  assert.match(writtenText(content), /title: Query strings & you\n  url: https:\/\/www\.example\.com\/a\?b=1&c=2\n/);
});

test('listenbrainz: listens become one track each, with feedback as stance; golden files', () => {
  const { content, run } = goldenImport('listenbrainz', exportZip('listenbrainz'));
  assert.match(run.stdout, /3 new/);
  const text = writtenText(content);
  assert.equal(text.match(/title: Says\n/g)?.length, 1, 'two listens, one track');
  assert.match(text, /title: Says\n(?:  .*\n)*  stance: love\n(?:  .*\n)*  addedAt: 2024-12-01T10:46:40Z\n/, 'the first listen');
  assert.match(text, /title: Maria También\n(?:  .*\n)*  stance: dislike\n/, 'feedback matched by msid when mbid_mapping is null');
  assert.match(text, /title: Kerala\n(?:  .*\n)*  stance: neutral\n/);
});
