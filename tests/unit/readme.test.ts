import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readPages, renderDocs } from '../../src/compile/docs/readme.ts';

test('the docs reference tables match the declarations, problems and limits, and the performance tables bench/results.json (npm run docs)', () => {
  const pages = readPages();
  const rendered = renderDocs(pages);
  for (const [file, text] of Object.entries(pages)) assert.equal(text, rendered[file], `${file} is out of date: run npm run docs`);
});
