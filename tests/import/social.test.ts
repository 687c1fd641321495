/**
 * Twitter and Mastodon archives into tweets. Twitter: `window.YTD` files read without
 * eval, over two parts, t.co links expanded, entities decoded, a reply linked, a retweet
 * left out, direct messages never read. Mastodon: public posts only (a followers-only post
 * and a boost left out), `@user@host` authors (the widened schema), HTML as plain text.
 * Each matches its golden files and re-imports without a changed byte.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import tweets from '../../src/collections/tweets.ts';
import { exportZip, goldenImport, runImport, snapshot, tempDir, writtenText } from './harness.ts';
import { zip } from './zip.ts';

test('twitter: a two-part archive gives the golden files; DMs and retweets never reach a file', () => {
  const { content, run } = goldenImport('twitter', exportZip('twitter'));
  assert.match(run.stdout, /3 new.*left out: 1 retweets/);
  const text = writtenText(content);
  assert.doesNotMatch(text, /door code|4711/, 'direct messages are never read');
  assert.doesNotMatch(text, /RT @/);
  assert.match(text, /https:\/\/example\.com\/posts\/keyset-pagination/, 't.co expanded');
  assert.doesNotMatch(text, /&amp;|&lt;/);
  assert.match(text, /tweetId: "1040650001122334455"[\s\S]*inReplyTo: https:\/\/x\.com\/martaleal_dev\/status\/1040647703094586498/);
});

test('twitter: a tweets.js that is code rather than the archive’s assignment is refused, never run', () => {
  const path = join(tempDir('tw-bad'), 'twitter.zip');
  writeFileSync(
    path,
    zip([
      { name: 'data/account.js', data: 'window.YTD.account.part0 = [{"account":{"username":"x"}}]' },
      { name: 'data/tweets.js', data: 'process.exit(3); window.YTD.tweets.part0 = []' },
    ]),
  );
  const content = tempDir('tw-bad-content');
  const run = runImport(['twitter', path], content);
  assert.equal(run.status, 1);
  assert.match(run.stderr, /data\/tweets\.js is not an X\/Twitter archive file/);
  assert.equal(snapshot(content).size, 0);
});

test('twitter: a tweets.js cut short, or with code after its array, is refused (it is read as it streams in) and nothing is written', () => {
  const account = { name: 'data/account.js', data: 'window.YTD.account.part0 = [{"account":{"username":"x"}}]' };
  const tweet = '{"tweet":{"id_str":"1","full_text":"a ] and a } in a tweet","created_at":"Wed Oct 10 20:19:24 +0000 2018"}}';
  const cases: [string, RegExp][] = [
    [`window.YTD.tweets.part0 = [${tweet}, ${tweet.slice(0, 40)}`, /data\/tweets\.js is not readable: the array is cut short/],
    [`window.YTD.tweets.part0 = [${tweet}]; process.exit(3)`, /data\/tweets\.js is not readable: unexpected text after the array/],
    [`window.YTD.tweets.part0 = [${tweet} ${tweet}]`, /data\/tweets\.js is not readable: expected , or \] after an element/],
  ];
  for (const [data, message] of cases) {
    const path = join(tempDir('tw-cut'), 'twitter.zip');
    writeFileSync(path, zip([account, { name: 'data/tweets.js', data }]));
    const content = tempDir('tw-cut-content');
    const run = runImport(['twitter', path], content);
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stderr, message);
    assert.equal(snapshot(content).size, 0);
  }
});

test('mastodon: the archive gives the golden files; only public posts are kept', () => {
  const { content, run } = goldenImport('mastodon', exportZip('mastodon'));
  assert.match(run.stdout, /2 new.*left out: 1 posts that are not public, 1 boosts/);
  const text = writtenText(content);
  assert.doesNotMatch(text, /Followers only|moving flats/);
  assert.doesNotMatch(text, /110199999999999999/, 'a boost is someone else’s post');
  assert.match(text, /author: "@inescarv@mastodon\.social"/);
  assert.doesNotMatch(text, /<p>|<span|&amp;/);
});

test('tweets schema: accepts @user@host handles from Mastodon, still refuses malformed ones', () => {
  const base = { tweetId: '1', authorName: 'A', text: 't', createdAt: '2023-01-01T00:00:00Z', url: 'https://mastodon.social/@a/1' };
  for (const good of ['@jack', 'jack', '@inescarv@mastodon.social', 'a.b_c@social.example.org'])
    assert.equal(tweets.schema.safeParse({ ...base, author: good }).success, true, good);
  for (const bad of ['@', '@a@b', '@user@host', '@user@@mastodon.social', '@sixteen_chars_xx', '@us er@mastodon.social'])
    assert.equal(tweets.schema.safeParse({ ...base, author: bad }).success, false, bad);
});
