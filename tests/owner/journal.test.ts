/**
 * The crash gap of a write (src/owner/writes.ts): the journal's intent is flushed before
 * the content file is touched, so a process killed between the two leaves one of two
 * states, and a restart settles either without losing an acknowledged write or applying
 * one twice. Each state is made exactly as a kill would leave it — a real write, then the
 * journal cut back to its intent line (and, for a kill before the rename, the new file
 * gone) — and a new process (new OwnerWrites and Generations on the same folders) is
 * sent the client's retry with the same `requestId`. A put-back after a refused build is
 * journaled the same way, and a kill in its middle is finished by the restart.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { JOURNAL_FILE, OwnerWrites, type JournalEntry } from '../../src/owner/writes.ts';
import { paths } from '../../src/paths.ts';
import { Generations } from '../../src/runtime/generations.ts';

const root = mkdtempSync(join(tmpdir(), 'owner-journal-'));
const content = join(root, 'content');
const stateDir = join(root, 'state');
cpSync('content', content, { recursive: true });
const journalPath = join(stateDir, JOURNAL_FILE);
after(() => rmSync(root, { recursive: true, force: true }));

/** A process: writes over generations of the content folder. */
async function start(): Promise<{ owner: OwnerWrites; generations: Generations }> {
  const owner = new OwnerWrites({ contentDir: content, stateDir });
  const generations = await Generations.open({ distDir: paths.dist, contentDir: content, owner });
  return { owner, generations };
}

const journal = () =>
  readFileSync(journalPath, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as JournalEntry);

/** Cuts the journal back to just after the intent of `requestId`: what a kill before its next line leaves. */
function cutAfterIntent(requestId: string): JournalEntry {
  const lines = readFileSync(journalPath, 'utf8').trim().split('\n');
  const at = lines.findIndex((line) => (JSON.parse(line) as JournalEntry).requestId === requestId);
  const intent = JSON.parse(lines[at]!) as JournalEntry;
  assert.equal(intent.pending, true, 'the first line of a write is its intent');
  assert.equal((JSON.parse(lines[at + 1]!) as JournalEntry).pending, undefined, 'the line after the intent says the file holds it');
  writeFileSync(journalPath, `${lines.slice(0, at + 1).join('\n')}\n`);
  return intent;
}

const record = (title: string) => ({ title, type: 'album', artist: 'Journal Test', year: 2020, addedAt: '2026-11-03' });

test('killed after the intent, before the file: the retry applies the write, once', async () => {
  const first = await start();
  const written = await first.owner.log(
    { client: 'client-a', grant: 'grant-a' },
    { collection: 'music', fields: record('Before The Rename'), requestId: 'gap-1' },
  );
  await first.generations.shutdown();
  assert.equal(written.file, 'music/before-the-rename.yaml');
  const intent = cutAfterIntent('gap-1');
  unlinkSync(join(content, intent.file));

  const second = await start();
  try {
    const retried = await second.owner.log(
      { client: 'client-a', grant: 'grant-a' },
      { collection: 'music', fields: record('Before The Rename'), requestId: 'gap-1' },
    );
    assert.equal(retried.replayed, undefined, 'the first attempt never reached the file: this one applies');
    assert.equal(retried.file, 'music/before-the-rename.yaml');
    assert.equal(retried.swapped, true);
    assert.equal(existsSync(join(content, 'music/before-the-rename-2.yaml')), false);
    assert.deepEqual(
      journal()
        .filter((e) => e.requestId === 'gap-1')
        .map((e) => e.pending ?? false),
      [true, true, false],
    );
  } finally {
    await second.generations.shutdown();
  }
});

test('killed after the file, before the journal said so: the restart recognizes the file, and the retry is answered, not applied again', async () => {
  const first = await start();
  const written = await first.owner.log(
    { client: 'client-a', grant: 'grant-a' },
    { collection: 'music', fields: record('After The Rename'), requestId: 'gap-2' },
  );
  await first.generations.shutdown();
  const bytes = readFileSync(join(content, written.file), 'utf8');
  cutAfterIntent('gap-2');

  const second = await start();
  try {
    // The restart journaled the write as applied and rebuilt its file.
    assert.deepEqual(
      journal()
        .filter((e) => e.requestId === 'gap-2')
        .map((e) => e.pending ?? false),
      [true, false],
    );
    const retried = await second.owner.log(
      { client: 'client-a', grant: 'grant-a' },
      { collection: 'music', fields: record('After The Rename'), requestId: 'gap-2' },
    );
    assert.equal(retried.replayed, true);
    assert.equal(retried.file, written.file);
    assert.equal(retried.canonicalId, written.canonicalId);
    assert.equal(readFileSync(join(content, written.file), 'utf8'), bytes);
    assert.equal(existsSync(join(content, 'music/after-the-rename-2.yaml')), false);
  } finally {
    await second.generations.shutdown();
  }
});

test('an intent whose file holds other bytes (the write never landed, the owner edited since) is not taken as applied', async () => {
  const first = await start();
  const target = (await first.owner.log({ client: 'client-b', grant: 'grant-b' }, { collection: 'music', fields: record('Hand Edited'), requestId: 'gap-3' }))
    .file;
  await first.generations.shutdown();
  cutAfterIntent('gap-3');
  writeFileSync(join(content, target), 'title: Hand Edited\ntype: album\nartist: Journal Test\nyear: 2019\naddedAt: 2026-11-03\n');

  const second = await start();
  try {
    assert.deepEqual(
      journal()
        .filter((e) => e.requestId === 'gap-3')
        .map((e) => e.pending ?? false),
      [true],
    );
  } finally {
    await second.generations.shutdown();
  }
});

test('killed while putting back a change the build refused: the restart finishes the put-back, and the retry is refused again, never answered as applied', async () => {
  const first = await start();
  const kept = await first.owner.log({ client: 'client-c', grant: 'grant-c' }, { collection: 'music', fields: record('Refused Twice'), requestId: 'gap-4a' });
  // The same record again: the build refuses the duplicate, and the new file is taken back.
  await assert.rejects(
    first.owner.log({ client: 'client-c', grant: 'grant-c' }, { collection: 'music', fields: record('Refused Twice'), requestId: 'gap-4' }),
    /build refused/,
  );
  await first.generations.shutdown();
  const refused = 'music/refused-twice-2.yaml';
  assert.equal(existsSync(join(content, refused)), false);
  assert.deepEqual(
    journal()
      .filter((e) => e.requestId === 'gap-4')
      .map((e) => [e.pending ?? false, e.reverted ?? false]),
    [
      [true, false],
      [false, false],
      [true, true],
      [false, true],
    ],
  );
  // The state a kill right after the put-back's intent leaves: the refused file still there (its bytes are the first record's).
  const lines = readFileSync(journalPath, 'utf8').trim().split('\n');
  const putBack = lines.findIndex((line) => {
    const e = JSON.parse(line) as JournalEntry;
    return e.requestId === 'gap-4' && e.pending === true && e.reverted === true;
  });
  writeFileSync(journalPath, `${lines.slice(0, putBack + 1).join('\n')}\n`);
  writeFileSync(join(content, refused), readFileSync(join(content, kept.file)));

  const second = await start();
  try {
    assert.equal(existsSync(join(content, refused)), false, 'the restart finished the put-back');
    await assert.rejects(
      second.owner.log({ client: 'client-c', grant: 'grant-c' }, { collection: 'music', fields: record('Refused Twice'), requestId: 'gap-4' }),
      /build refused/,
    );
    assert.equal(existsSync(join(content, refused)), false);
  } finally {
    await second.generations.shutdown();
  }
});
