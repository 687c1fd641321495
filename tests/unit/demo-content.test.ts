/**
 * The demo and the owner's files never overlap: `content/demo.txt` lists every file the
 * project ships in `content/` but the profile, names nothing of the owner's (the profile, the
 * importers' ledgers, anything outside the content folder), and names only files that
 * exist; so `npm run init` removes the whole demo and nothing else, and a release that
 * changes the demo changes no file the owner keeps.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROFILE_FILE } from '../../src/collections/profile.ts';
import { DEMO_MANIFEST, demoFiles, unsafeDemoPath } from '../../src/setup/demo.ts';

const listed = demoFiles('content');

test('every listed demo file exists, once, inside the content folder, and none is the owner’s', () => {
  assert.ok(listed.length > 0, `${DEMO_MANIFEST} lists the demo`);
  assert.equal(new Set(listed).size, listed.length, 'no file is listed twice');
  for (const file of listed) {
    assert.equal(unsafeDemoPath(file), undefined, file);
    assert.ok(existsSync(join('content', file)), `${file} is listed but does not exist`);
  }
  assert.ok(!listed.includes(PROFILE_FILE));
  assert.ok(!listed.some((f) => f.startsWith('.import/')));
});

test('the list names every file the project ships in content/ but the profile and the list', () => {
  const shipped = execFileSync('git', ['ls-files', '-z', '--', 'content'], { encoding: 'utf8' })
    .split('\0')
    .filter(Boolean)
    .map((f) => f.replace(/^content\//, ''))
    .filter((f) => f !== PROFILE_FILE && f !== DEMO_MANIFEST);
  const missing = shipped.filter((f) => !listed.includes(f));
  assert.deepEqual(missing, [], `content files the demo list does not name (add them to content/${DEMO_MANIFEST}, or they survive npm run init)`);
});

test('the refusals of unsafe paths', () => {
  for (const path of ['../README.md', '/etc/passwd', 'movies/../../x', PROFILE_FILE, '.import/letterboxd.json', DEMO_MANIFEST])
    assert.notEqual(unsafeDemoPath(path), undefined, path);
  assert.equal(unsafeDemoPath('movies/heat.md'), undefined);
});
