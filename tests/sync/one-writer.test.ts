/**
 * Issue 39, item 6: a command-line sync while a writer runs never races it. A server (an
 * OwnerWrites over this process's generations on a copy of the content, as
 * tests/owner/one-writer.test.ts runs it) is in the middle of an owner write — its
 * rebuild held open, so it holds the content lock — when `npm run sync letterboxd` starts
 * in a child process against a local replay of the member's feed. The sync says it waits
 * for the server, then lands once the write is done, planned from the files as the write
 * left them: a film the owner logged meanwhile is matched (kept as the owner wrote it),
 * not written twice. Neither write is lost, and the server serves the sync's records
 * after its next write.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import yaml from 'js-yaml';
import movies from '../../src/collections/movies.ts';
import { canonicalIdOf } from '../../src/compile/content/record-text.ts';
import { recordsTable } from '../../src/core/image.ts';
import { JOURNAL_FILE, type JournalEntry } from '../../src/owner/journal.ts';
import { LOCK_FILE } from '../../src/owner/lock.ts';
import { OwnerWrites } from '../../src/owner/writes.ts';
import { paths } from '../../src/paths.ts';
import { Generations } from '../../src/runtime/generations.ts';
import { answer, newFilmsFeed, replay, type Replay } from './replay.ts';

const root = mkdtempSync(join(tmpdir(), 'sync-one-writer-'));
const content = join(root, 'content');
const stateDir = join(root, 'state');
const syncConfig = join(root, 'sync.yaml');
cpSync('content', content, { recursive: true });
let owner: OwnerWrites;
let generations: Generations;
let feed: Replay;
const caller = { client: 'client-s', grant: 'grant-s' };

const FEED = newFilmsFeed();

before(async () => {
  owner = new OwnerWrites({ contentDir: content, stateDir });
  generations = await Generations.open({ distDir: paths.dist, contentDir: content, owner });
  feed = await replay();
  feed.route('GET', '/alice/rss/', answer(FEED, { 'Content-Type': 'application/rss+xml; charset=utf-8', ETag: '"held-1"' }));
  writeFileSync(syncConfig, `letterboxd: { user: alice, baseUrl: "${feed.base}" }\n`);
});
after(async () => {
  await generations.shutdown();
  await feed.close();
  rmSync(root, { recursive: true, force: true });
});

const cidOf = (title: string, year: number) => canonicalIdOf(movies, undefined, { type: 'movie', title, year });

/** The record the serving generation has for a canonicalId, or undefined. */
function served(collection: string, cid: string): Record<string, unknown> | undefined {
  const row = generations
    .current()
    .image.db.prepare(`SELECT json FROM ${recordsTable(collection)} WHERE cid = ?`)
    .get(cid) as { json: string } | undefined;
  return row ? (JSON.parse(row.json) as Record<string, unknown>) : undefined;
}

const journal = () =>
  readFileSync(join(stateDir, JOURNAL_FILE), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as JournalEntry);

/** Runs what `npm run sync -- …` runs (`node src/sync/cli.ts …`) in a child process against this content, state and sync.yaml. */
function cliSync(args: string[]): { waiting: Promise<string>; done: Promise<{ status: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, ['src/sync/cli.ts', ...args], {
    env: { ...process.env, CONTENT_DIR: content, STATE_DIR: stateDir, SYNC_CONFIG: syncConfig },
  });
  let stdout = '';
  let stderr = '';
  let told: (line: string) => void;
  const waiting = new Promise<string>((resolve) => (told = resolve));
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (stderr.includes('waiting:')) told(stderr);
  });
  const done = new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (status) => resolve({ status, stdout, stderr })),
  );
  // A child that ends without waiting must not leave the test hanging on `waiting`.
  void done.then(({ stderr: all }) => told(all));
  return { waiting, done };
}

test('a command-line sync while the server writes: it says it waits for the server, then lands, planned from the files the write left; neither write is lost', async () => {
  // The server's owner write holds the content lock through its rebuild; the rebuild is held open until the sync says it waits.
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  owner.writer.attach(async (changed) => {
    await gate;
    return generations.rebuild(changed);
  });
  const lockPath = join(stateDir, LOCK_FILE);
  let cli: ReturnType<typeof cliSync> | undefined;
  try {
    // The owner logs, through the server, a film the feed also holds: their own record of it.
    const logged = owner.log(caller, {
      collection: 'movies',
      fields: { title: 'Queue Jump', type: 'movie', year: 2022, addedAt: '2026-11-20', rating: 3, recommended: true },
    });
    for (let waited = 0; !existsSync(lockPath); waited += 10) {
      assert.ok(waited < 10_000, 'the server’s write takes the lock');
      await sleep(10);
    }
    cli = cliSync(['letterboxd']);
    const message = await cli.waiting;
    assert.match(message, new RegExp(`waiting: the content is being written by the server \\(pid ${process.pid}\\) \\(pid ${process.pid} on `));
    assert.equal(feed.seen.length, 1, 'the sync read the feed, and waits to write it');
    // Another owner write arrives while the sync waits: once the first is done, it and the sync contend for the lock.
    const queued = owner.log(caller, {
      collection: 'music',
      fields: { title: 'Arrives While Syncing', type: 'album', artist: 'One Writer', year: 2021, addedAt: '2026-11-21' },
    });
    open();
    const [first, second] = await Promise.all([logged, queued]);
    const result = await cli.done;
    assert.equal(result.status, 0, result.stderr);
    // The sync planned after the owner's write: the owner's film is matched and kept, only the other is new.
    assert.match(result.stdout, /letterboxd → movies: 1 new, 0 same, 0 changed, 0 in conflict, 1 kept as you wrote them/);
    assert.match(result.stdout, /kept\s+movie, Queue Jump, 2022 .*your own record/);
    assert.match(result.stdout, /new\s+movie, Lock Step, 2023/);

    // Every write is in the files: the owner's two as they wrote them, the sync's film in its list, no film twice.
    const own = readFileSync(join(content, first.file), 'utf8');
    assert.match(own, /title: Queue Jump/);
    assert.match(own, /rating: 3\n/);
    assert.match(own, /recommended: true/);
    assert.ok(existsSync(join(content, second.file)), second.file);
    const synced = yaml.load(readFileSync(join(content, 'movies/letterboxd-2026.yaml'), 'utf8'), { schema: yaml.CORE_SCHEMA }) as Record<string, unknown>[];
    assert.deepEqual(
      synced.map((f) => f.title),
      ['Lock Step'],
    );
    assert.equal(synced[0]!.letterboxdUri, 'https://letterboxd.com/film/lock-step/');

    // The server serves its own writes at once, and the command line's at its next write (it catches up on the journal).
    assert.equal(served('movies', first.canonicalId)?.rating, 3);
    assert.equal(served('music', second.canonicalId)?.title, 'Arrives While Syncing');
    await owner.log(caller, {
      collection: 'music',
      fields: { title: 'After The Sync', type: 'album', artist: 'One Writer', year: 2021, addedAt: '2026-11-22' },
    });
    assert.equal(served('movies', cidOf('Lock Step', 2023))?.rating, 5);
    assert.equal(served('movies', cidOf('Queue Jump', 2022))?.recommended, true, 'the owner’s film, as the owner wrote it');

    // One journal: the sync's batch and the owner's writes, none of them between the batch's intents and its outcomes.
    const lines = journal();
    const batchAt = lines.flatMap((e, i) => (e.tool === 'sync.letterboxd' ? [i] : []));
    assert.ok(batchAt.length >= 4, 'intents and outcomes of the sync’s files (the list and the ledger)');
    assert.equal(batchAt.at(-1)! - batchAt[0]! + 1, batchAt.length, 'the sync’s lines are contiguous');
    assert.equal(lines.filter((e) => e.tool === 'taste.log' && !e.pending).length, 3);
    assert.equal(existsSync(lockPath), false, 'the lock is released');
  } finally {
    open();
    owner.writer.attach((changed) => generations.rebuild(changed));
    await cli?.done;
  }
});
