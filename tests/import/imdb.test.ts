/**
 * IMDb: a ratings CSV with both spellings of `Title Type` (`Movie`, `movie`, `TV Series`,
 * `tvSeries`) and an episode gives the golden movie records: ratings halved, the episode
 * left out, IMDb's average and votes not kept; a re-import changes nothing.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { FIXTURES, goldenImport, writtenText } from './harness.ts';

test('imdb: the ratings export gives the golden files; a re-import changes no byte', () => {
  const { content, run } = goldenImport('imdb', join(FIXTURES, 'imdb', 'export', 'ratings.csv'));
  assert.match(run.stdout, /4 new.*left out: 1 tvEpisode ratings/);
  const text = writtenText(content);
  assert.doesNotMatch(text, /Pilot/);
  assert.match(text, /title: Life Is Beautiful\n(?:  .*\n)*  rating: 4.5\n/);
  assert.equal(text.match(/type: tv\n/g)?.length, 2);
  assert.doesNotMatch(text, /8\.6|780000/, 'IMDb’s own rating and votes are not the owner’s');
});
