/**
 * Issue 40, item 3's cross-check: a record posted from an app whose `syndication` URL
 * names a service a sync reads is matched by the later sync, not duplicated. Two films
 * are posted as Micropub writes them (Micropub's own mapping, src/micropub/types/movies.ts,
 * then the owner lane's `log`, as `MicropubWrite.create` does for a new record), each
 * syndicated to the owner's Letterboxd diary; then a Letterboxd sync whose feed holds
 * both. One post names the film as Letterboxd does; the other's client gave the film
 * another year, so only its syndication link can match it. Neither is written twice, and
 * both keep the owner's fields.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { recordsTable } from '../../src/core/image.ts';
import { movies as watchPost } from '../../src/micropub/types/movies.ts';
import type { Mf2Object } from '../../src/micropub/mf2.ts';
import { OwnerWrites } from '../../src/owner/writes.ts';
import { paths } from '../../src/paths.ts';
import { Generations } from '../../src/runtime/generations.ts';
import { syncSource } from '../../src/sync/run.ts';
import { snapshot } from '../import/harness.ts';
import { answer, newFilmsFeed, replay, type Replay } from './replay.ts';

const root = mkdtempSync(join(tmpdir(), 'sync-syndication-'));
const content = join(root, 'content');
const stateDir = join(root, 'state');
cpSync('content', content, { recursive: true });
let owner: OwnerWrites;
let generations: Generations;
let feed: Replay;
const caller = { client: 'https://sparkles.example/', grant: 'grant-m' };

const FEED = newFilmsFeed();

before(async () => {
  owner = new OwnerWrites({ contentDir: content, stateDir });
  generations = await Generations.open({ distDir: paths.dist, contentDir: content, owner });
  feed = await replay();
  feed.route('GET', '/alice/rss/', answer(FEED, { 'Content-Type': 'application/rss+xml; charset=utf-8', ETag: '"syndicated-1"' }));
});
after(async () => {
  await generations.shutdown();
  await feed.close();
  rmSync(root, { recursive: true, force: true });
});

/** A watch post as Sparkles sends it: the film as an h-cite, the watch date, a rating, a review, and where the owner syndicated it. */
const watch = (name: string, year: string, syndication: string): Mf2Object => ({
  type: ['h-entry'],
  properties: {
    'watch-of': [{ type: ['h-cite'], properties: { name: [name], published: [year] } }],
    published: ['2026-11-24T20:00:00+13:00'],
    rating: ['4'],
    content: ['Posted from my phone.'],
    syndication: [syndication],
  },
});

/** Writes a post as Micropub writes a new record: its mapping, then the owner lane's log. */
async function post(entry: Mf2Object) {
  const mapped = watchPost.toFields(entry, { now: '2026-11-24T07:00:00Z' });
  assert.ok(mapped.ok, mapped.ok ? '' : mapped.description);
  return { fields: mapped.fields, written: await owner.log(caller, { collection: 'movies', fields: mapped.fields }) };
}

test('a film posted with a Letterboxd syndication link is matched by the later Letterboxd sync: not duplicated, the owner’s fields kept', async () => {
  // As Letterboxd names it, syndicated to the owner's review of it (a rewatch's `/1/`).
  const same = await post(watch('Lock Step', '2023', 'https://letterboxd.com/alice/film/lock-step/1/'));
  // The client's year is not Letterboxd's (a festival year): only the syndication link can tell it is the same film.
  const otherYear = await post(watch('Queue Jump', '2021', 'https://letterboxd.com/alice/film/queue-jump/'));
  assert.equal(
    same.fields.letterboxdUri,
    'https://letterboxd.com/alice/film/lock-step/1/',
    'Micropub keeps the syndication link as the record’s letterboxdUri',
  );
  const before = snapshot(content);

  const lines: string[] = [];
  const outcome = await syncSource(
    'letterboxd',
    { user: 'alice', baseUrl: feed.base },
    {
      contentDir: content,
      stateDir,
      writer: owner.writer,
      userAgent: 'collections-sync/1 (+http://test.example)',
      secrets: {},
      onLine: (l) => void lines.push(l),
    },
  );
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.message);
  assert.deepEqual(outcome.report.counts, { new: 0, same: 0, changed: 0, conflict: 0, kept: 2 }, lines.join('\n'));
  assert.match(lines.join('\n'), /kept\s+movie, Lock Step, 2023 .*your own record/);
  assert.match(lines.join('\n'), /kept\s+movie, Queue Jump, 2022 .*your own record/);
  assert.equal(existsSync(join(content, 'movies/letterboxd-2026.yaml')), false, 'no synced copy of either film');

  // Not a byte of the owner's records changed: their rating (4, not the feed's), review and year stay.
  const after = snapshot(content);
  for (const { written } of [same, otherYear]) assert.deepEqual(after.get(written.file), before.get(written.file), written.file);
  assert.match(readFileSync(join(content, otherYear.written.file), 'utf8'), /year: 2021\n/);
  const served = (cid: string) =>
    JSON.parse(
      (
        generations
          .current()
          .image.db.prepare(`SELECT json FROM ${recordsTable('movies')} WHERE cid = ?`)
          .get(cid) as { json: string } | undefined
      )?.json ?? 'null',
    ) as Record<string, unknown> | null;
  assert.equal(served(same.written.canonicalId)?.rating, 4);
  assert.equal(served(otherYear.written.canonicalId)?.review, 'Posted from my phone.');
});
