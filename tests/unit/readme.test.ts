import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { renderReadme } from '../../src/compile/docs/readme.ts';

test('the README reference tables match the declarations, problems and limits, and its performance tables bench/results.json (npm run docs)', () => {
  const readme = readFileSync('README.md', 'utf8');
  assert.equal(readme, renderReadme(readme));
});
