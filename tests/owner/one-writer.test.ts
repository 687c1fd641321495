/**
 * One content writer (issue 39, item 1): an import and the owner's writes go through the
 * same queue, lock and journal, so neither is lost. Real files, real rebuilds: an
 * OwnerWrites over the process's generations on a copy of the content, as the journal
 * tests run it. An import inside the server (a sync's way) joins the writer's queue while
 * owner writes arrive; a command-line import (a child process) finding the lock held
 * waits, says who holds it, and plans from the files as the holder left them; the server
 * rebuilds what the command line wrote before its next write. Batches: all or none, or
 * skip and report; a batch the build refuses is put back whole.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, test } from 'node:test';
import yaml from 'js-yaml';
import movies from '../../src/collections/movies.ts';
import { canonicalIdOf } from '../../src/compile/content/record-text.ts';
import { recordsTable, SOURCES_TABLE } from '../../src/core/image.ts';
import { runImport } from '../../src/import/run.ts';
import { letterboxd } from '../../src/import/sources/letterboxd.ts';
import { cursorOf, setCursor } from '../../src/import/cursor.ts';
import { editFields } from '../../src/owner/edit.ts';
import { JOURNAL_FILE, type JournalEntry } from '../../src/owner/journal.ts';
import { ContentLocked, LOCK_FILE, takeContentLock } from '../../src/owner/lock.ts';
import { ContentWriter, StagedBatch } from '../../src/owner/writer.ts';
import { BatchRefused, OwnerWrites } from '../../src/owner/writes.ts';
import { paths } from '../../src/paths.ts';
import { Generations } from '../../src/runtime/generations.ts';

const root = mkdtempSync(join(tmpdir(), 'owner-one-writer-'));
const content = join(root, 'content');
const stateDir = join(root, 'state');
cpSync('content', content, { recursive: true });
let owner: OwnerWrites;
let generations: Generations;
const caller = { client: 'client-w', grant: 'grant-w' };

before(async () => {
  owner = new OwnerWrites({ contentDir: content, stateDir });
  generations = await Generations.open({ distDir: paths.dist, contentDir: content, owner });
});
after(async () => {
  await generations.shutdown();
  rmSync(root, { recursive: true, force: true });
});

/** A Letterboxd export folder of `films` (title, year, added date, rating). */
function letterboxdExport(films: { n: number; title: string; year: number; added: string; rating: number }[]): string {
  const dir = mkdtempSync(join(root, 'export-'));
  // The film's own number is its Letterboxd URI (its source ID): one film, one URI, across exports.
  const rows = films.map((f) => `${f.added},${f.title},${f.year},https://boxd.it/w${f.n}`);
  writeFileSync(join(dir, 'watched.csv'), `Date,Name,Year,Letterboxd URI\r\n${rows.join('\r\n')}\r\n`);
  writeFileSync(
    join(dir, 'ratings.csv'),
    `Date,Name,Year,Letterboxd URI,Rating\r\n${films.map((f) => `${f.added},${f.title},${f.year},https://boxd.it/w${f.n},${f.rating}`).join('\r\n')}\r\n`,
  );
  writeFileSync(join(dir, 'diary.csv'), 'Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\r\n');
  writeFileSync(join(dir, 'reviews.csv'), 'Date,Name,Year,Letterboxd URI,Rating,Rewatch,Review,Tags,Watched Date\r\n');
  return dir;
}

const film = (n: number, rating = 3) => ({
  n,
  title: `One Writer Film ${n}`,
  year: 2000 + (n % 20),
  added: `2024-02-${String(1 + (n % 27)).padStart(2, '0')}`,
  rating,
});
const cidOfFilm = (n: number) => canonicalIdOf(movies, undefined, { type: 'movie', title: film(n).title, year: film(n).year });

/** The record the serving generation has for a canonicalId, or undefined. */
function served(collection: string, cid: string): Record<string, unknown> | undefined {
  const row = generations
    .current()
    .image.db.prepare(`SELECT json FROM ${recordsTable(collection)} WHERE cid = ?`)
    .get(cid) as { json: string } | undefined;
  return row ? (JSON.parse(row.json) as Record<string, unknown>) : undefined;
}

const cidAt = (file: string, entry: number) =>
  (generations.current().image.db.prepare(`SELECT cid FROM ${SOURCES_TABLE} WHERE file = ? AND entry = ?`).get(file, entry) as { cid: string }).cid;

const journal = () =>
  readFileSync(join(stateDir, JOURNAL_FILE), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as JournalEntry);

const album = (title: string) => ({ title, type: 'album', artist: 'One Writer', year: 2021, addedAt: '2026-11-05' });

test('an import in the server’s writer while owner writes arrive: every imported record and every owner write is in the files and served', async () => {
  const films = Array.from({ length: 30 }, (_, n) => film(n));
  const exportDir = letterboxdExport(films);
  const stances = [0, 1, 2].map((entry) => ({ cid: cidAt('music/albums.yaml', entry), stance: (['love', 'like', 'neutral'] as const)[entry]! }));
  // The import and the owner's writes are started together; the writer's queue orders them.
  const [report, ...results] = await Promise.all([
    runImport(letterboxd, exportDir, { contentDir: content, writer: owner.writer }),
    owner.log(caller, { collection: 'music', fields: album('Arrives First') }),
    ...stances.map(({ cid, stance }) => owner.set(caller, 'music.set_stance', { collection: 'music', canonicalId: cid, change: { stance } })),
    owner.log(caller, { collection: 'movies', fields: { title: 'Logged Meanwhile', type: 'movie', year: 2024, addedAt: '2026-11-05' } }),
    owner.log(caller, { collection: 'music', fields: album('Arrives Last') }),
  ]);
  assert.equal(report.counts.new, 30, JSON.stringify(report));
  for (const result of results) assert.ok(existsSync(join(content, result.file)), result.file);
  // Every imported film: in its list file, and served by the current generation.
  const listed = readdirYaml(join(content, 'movies')).flatMap(
    (file) => (yaml.load(readFileSync(file, 'utf8'), { schema: yaml.CORE_SCHEMA }) as unknown[]) ?? [],
  );
  for (let n = 0; n < films.length; n++) {
    assert.ok(
      listed.some((r) => (r as { title?: string }).title === film(n).title),
      `${film(n).title} in the files`,
    );
    assert.equal(served('movies', cidOfFilm(n))?.title, film(n).title, `${film(n).title} served`);
  }
  // Every owner write: in the files and served.
  assert.equal(served('music', results[0]!.canonicalId)?.title, 'Arrives First');
  assert.equal(served('music', results.at(-1)!.canonicalId)?.title, 'Arrives Last');
  assert.equal(served('movies', results.at(-2)!.canonicalId)?.title, 'Logged Meanwhile');
  const albums = yaml.load(readFileSync(join(content, 'music/albums.yaml'), 'utf8'), { schema: yaml.CORE_SCHEMA }) as { stance: string }[];
  stances.forEach(({ cid, stance }, entry) => {
    assert.equal(albums[entry]!.stance, stance);
    assert.equal(served('music', cid)?.stance, stance);
  });
  // One journal: the import's batch and the owner's writes; no owner write falls between the batch's intents and its outcomes.
  const lines = journal();
  const batchAt = lines.flatMap((e, i) => (e.tool === 'import.letterboxd' ? [i] : []));
  assert.ok(batchAt.length >= 4, 'intents and outcomes of the import’s files');
  assert.equal(batchAt.at(-1)! - batchAt[0]! + 1, batchAt.length, 'the import’s lines are contiguous');
  assert.equal(lines.filter((e) => e.tool === 'taste.log' && !e.pending).length, 3);
});

const readdirYaml = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => join(dir, f));

/** Runs `npm run import` (the CLI) in a child process against this content and state folder; resolves when it exits. */
function cliImport(args: string[]): { waiting: Promise<string>; done: Promise<{ status: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, ['src/import/cli.ts', ...args], { env: { ...process.env, CONTENT_DIR: content, STATE_DIR: stateDir } });
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
  return { waiting, done };
}

test('a command-line import while the server writes: it waits for the lock (naming the holder), plans from the files as the write left them, and the server serves it before its next write', async () => {
  const older = Array.from({ length: 10 }, (_, n) => film(100 + n));
  const first = cliImport(['letterboxd', letterboxdExport(older)]);
  assert.equal((await first.done).status, 0);
  const file = 'movies/letterboxd-2024.yaml';
  // The server has not rebuilt it yet: it catches up on the journal as its next write takes the lock.
  assert.equal(served('movies', cidOfFilm(100)), undefined);
  const logged = await owner.log(caller, { collection: 'music', fields: album('After The Import') });
  assert.equal(served('movies', cidOfFilm(100))?.title, film(100).title, 'the command line’s records are served after the server’s next write');
  assert.equal(served('music', logged.canonicalId)?.title, 'After The Import');

  // The newer export changes two ratings and adds five films; the import runs with --update.
  const newer = [...older.map((f, n) => (n === 1 || n === 2 ? { ...f, rating: 5 } : f)), ...Array.from({ length: 5 }, (_, n) => film(200 + n))];
  let cli: ReturnType<typeof cliImport> | undefined;
  await owner.writer.exclusive(async () => {
    cli = cliImport(['letterboxd', letterboxdExport(newer), '--update']);
    const message = await cli.waiting;
    assert.match(message, new RegExp(`waiting: the content is being written by the server \\(pid ${process.pid}\\)`));
    // While the import waits, a write of the server lands in the very file the import will plan.
    const path = join(content, file);
    const text = readFileSync(path, 'utf8');
    const entry = (yaml.load(text, { schema: yaml.CORE_SCHEMA }) as { title: string }[]).findIndex((r) => r.title === film(101).title);
    const edited = editFields(text, false, entry, { set: { recommended: true, genres: ['Drama', 'Test'] } }).text;
    await owner.writer.writeFile(
      { client: 'client-w', tool: 'test.edit', collection: 'movies', canonicalId: cidOfFilm(101), change: {}, revision: '' },
      path,
      text,
      edited,
    );
    assert.equal(existsSync(join(stateDir, LOCK_FILE)), true);
  });
  const result = await cli!.done;
  assert.equal(result.status, 0, result.stderr);
  // The server's edit was there when the import planned: its film is a conflict (left as the owner has it), the other rating applies.
  assert.match(result.stdout, /5 new, 8 same, 1 changed, 1 in conflict/);
  const records = yaml.load(readFileSync(join(content, file), 'utf8'), { schema: yaml.CORE_SCHEMA }) as Record<string, unknown>[];
  const byTitle = (n: number) => records.find((r) => r.title === film(n).title)!;
  assert.equal(byTitle(101).recommended, true, 'the server’s write is not lost');
  assert.deepEqual(byTitle(101).genres, ['Drama', 'Test']);
  assert.equal(byTitle(101).rating, 3, 'the owner’s edit wins over the export');
  assert.equal(byTitle(102).rating, 5, 'the import’s update landed');
  for (let n = 200; n < 205; n++) assert.ok(byTitle(n), `${film(n).title} imported`);
  // The next owner write serves all of it.
  await owner.log(caller, { collection: 'music', fields: album('Second After The Import') });
  assert.equal(served('movies', cidOfFilm(204))?.title, film(204).title);
  assert.equal(served('movies', cidOfFilm(102))?.rating, 5);
  assert.equal(served('movies', cidOfFilm(101))?.recommended, true);
});

test('the lock: a writer waiting past the limit is refused with the holder’s name; a crashed holder’s lock is taken over', async () => {
  const release = await takeContentLock({ stateDir, holder: 'npm run import strava' });
  try {
    await assert.rejects(takeContentLock({ stateDir, holder: 'another', waitMs: 120 }), (error: unknown) => {
      assert.ok(error instanceof ContentLocked);
      assert.match(error.message, /being written by npm run import strava \(pid \d+ on .+, since .+\); waited 0 s/);
      return true;
    });
  } finally {
    release();
  }
  const lockPath = join(stateDir, LOCK_FILE);
  assert.equal(existsSync(lockPath), false, 'released');
  // A lock left by a process that is gone (this host, a pid that does not run).
  writeFileSync(
    lockPath,
    JSON.stringify({ pid: 2 ** 22 + 12345, host: (await import('node:os')).hostname(), holder: 'a crashed import', since: '2026-01-01T00:00:00Z' }),
  );
  const taken = await takeContentLock({ stateDir, holder: 'the next writer', waitMs: 1000 });
  assert.match(readFileSync(lockPath, 'utf8'), /the next writer/);
  taken();
});

test('batch: skip-and-report lands the good records and reports the bad one; all-or-none writes nothing when one is refused; updates set lists and remove fields', async () => {
  const placement = { fileOf: () => 'batch-2026.yaml', sortKeyOf: (r: Record<string, unknown>) => String(r.title ?? '') };
  const good = (title: string) => ({
    op: 'create' as const,
    collection: 'movies',
    fields: { title, type: 'movie', year: 2026, addedAt: '2026-11-06' },
    placement,
  });
  const bad = { op: 'create' as const, collection: 'movies', fields: { title: 'No Year', type: 'movie', addedAt: 'yesterday' }, placement };
  const before = readdirSync(join(content, 'movies')).sort();
  await assert.rejects(
    owner.batch(caller, [good('Batch B'), bad, good('Batch A')], { mode: 'all-or-none', tool: 'test.archive' }),
    (error: unknown) => error instanceof BatchRefused && error.index === 1,
  );
  assert.deepEqual(readdirSync(join(content, 'movies')).sort(), before, 'nothing written');

  const report = await owner.batch(caller, [good('Batch B'), bad, good('Batch A'), { ...good('Own File'), placement: undefined }], {
    mode: 'skip-and-report',
    tool: 'test.sync',
  });
  assert.deepEqual(
    report.outcomes.map((o) => o.status),
    ['written', 'skipped', 'written', 'written'],
  );
  assert.equal(report.swapped, true);
  assert.deepEqual(report.files, ['movies/batch-2026.yaml', 'movies/own-file.yaml']);
  const list = readFileSync(join(content, 'movies/batch-2026.yaml'), 'utf8');
  // One rendering: the list item and the file of its own are the same lines, in the schema's order.
  assert.equal(
    list,
    '- title: Batch A\n  type: movie\n  year: 2026\n  addedAt: 2026-11-06\n- title: Batch B\n  type: movie\n  year: 2026\n  addedAt: 2026-11-06\n',
  );
  assert.equal(readFileSync(join(content, 'movies/own-file.yaml'), 'utf8'), 'title: Own File\ntype: movie\nyear: 2026\naddedAt: 2026-11-06\n');
  for (const outcome of report.outcomes) if (outcome.status === 'written') assert.ok(served('movies', outcome.result.canonicalId), outcome.result.file);

  // An update with a list value and a removed field, and one against a stale revision, skipped.
  const a = report.outcomes[2]!.status === 'written' ? report.outcomes[2]!.result : undefined;
  const updated = await owner.batch(
    caller,
    [
      { op: 'update', collection: 'movies', canonicalId: a!.canonicalId, set: { genres: ['Drama', 'Comedy'], director: ['Someone'] }, revision: a!.revision },
      { op: 'update', collection: 'movies', canonicalId: a!.canonicalId, set: { rating: 2 }, revision: 'stale' },
    ],
    { mode: 'skip-and-report', tool: 'test.sync' },
  );
  assert.deepEqual(
    updated.outcomes.map((o) => (o.status === 'skipped' ? o.code : o.status)),
    ['written', 'conflict'],
    JSON.stringify(updated.outcomes),
  );
  assert.deepEqual(
    updated.outcomes.map((o) => o.status),
    ['written', 'skipped'],
  );
  assert.deepEqual(served('movies', a!.canonicalId)?.director, ['Someone']);
  assert.deepEqual(served('movies', a!.canonicalId)?.genres, ['Drama', 'Comedy']);
  const removed = await owner.update(caller, 'test.update', {
    collection: 'movies',
    canonicalId: a!.canonicalId,
    unset: ['director'],
    set: { genres: ['Drama'] },
  });
  assert.deepEqual(served('movies', a!.canonicalId)?.director ?? [], [], 'removed (the schema reads an absent list as empty)');
  assert.deepEqual(served('movies', a!.canonicalId)?.genres, ['Drama']);
  assert.match(
    readFileSync(join(content, removed.file), 'utf8'),
    /- title: Batch A\n {2}type: movie\n {2}year: 2026\n {2}addedAt: 2026-11-06\n {2}genres: \[Drama\]\n- title: Batch B/,
  );
});

test('a source’s cursor is kept per source in STATE_DIR, not in the content', () => {
  assert.equal(cursorOf('letterboxd', stateDir), undefined);
  setCursor('letterboxd', '2026-11-01', stateDir);
  setCursor('mastodon', '113456789012345678', stateDir);
  assert.equal(cursorOf('letterboxd', stateDir), '2026-11-01');
  assert.equal(cursorOf('mastodon', stateDir), '113456789012345678');
  assert.throws(() => setCursor('../escape', 'x', stateDir));
  assert.equal(existsSync(join(content, '.import', 'cursors')), false);
});

test('a batch the build refuses is put back whole: replaced files from their kept copies, new files removed, each step journaled', async () => {
  const dir = mkdtempSync(join(root, 'batch-refused-'));
  const folder = join(dir, 'content');
  cpSync(join(content, 'music'), join(folder, 'music'), { recursive: true });
  const writer = new ContentWriter({ contentDir: folder, stateDir: join(dir, 'state'), holder: 'a test' });
  const rebuilt: string[][] = [];
  writer.attach(async (paths) => {
    rebuilt.push([...paths]);
    if (rebuilt.length === 1) throw Object.assign(new Error('refused'), { problems: [{ field: 'title', reason: 'a test refusal' }] });
    return { swapped: false };
  });
  const albums = readFileSync(join(folder, 'music/albums.yaml'), 'utf8');
  await assert.rejects(
    writer.exclusive(async () => {
      const batch = new StagedBatch(folder);
      batch.stage('music/albums.yaml', `${albums}- title: Refused\n  type: album\n`);
      batch.stage('music/new.yaml', 'title: New\n');
      await writer.commitBatch({ client: 'c', tool: 'test.batch', collection: '', canonicalId: '', change: {}, revision: '' }, batch);
    }),
    /The build refused the change \(title: a test refusal\)/,
  );
  assert.equal(readFileSync(join(folder, 'music/albums.yaml'), 'utf8'), albums, 'the replaced file is back');
  assert.equal(existsSync(join(folder, 'music/new.yaml')), false, 'the new file is gone');
  assert.deepEqual(
    readdirSync(join(folder, 'music')).filter((f) => f.startsWith('.')),
    [],
    'no kept copy or staged file is left behind',
  );
  assert.equal(rebuilt.length, 2, 'rebuilt again after the put-back');
  const lines = readFileSync(join(dir, 'state', JOURNAL_FILE), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as JournalEntry);
  assert.deepEqual(
    lines.map((e) => `${e.file} ${e.pending ? 'intent' : 'done'}${e.reverted ? ' put back' : ''}`),
    [
      'music/albums.yaml intent',
      'music/new.yaml intent',
      'music/albums.yaml done',
      'music/new.yaml done',
      'music/albums.yaml intent put back',
      'music/albums.yaml done put back',
      'music/new.yaml intent put back',
      'music/new.yaml done put back',
    ],
  );
  assert.equal(new Set(lines.map((e) => e.batch)).size, 1, 'one batch');
});

test('an import in skip-and-report mode (a sync): a bad record is left out and reported, the others land', async () => {
  const dir = letterboxdExport([film(300), { ...film(301), year: Number.NaN }, film(302)]);
  const report = await runImport(letterboxd, dir, { contentDir: content, writer: owner.writer, mode: 'skip-and-report' });
  assert.equal(report.counts.new, 2);
  assert.equal(report.skipped.length, 1, JSON.stringify(report.skipped));
  assert.match(report.skipped[0]!.origin, /row 3/);
  assert.equal(served('movies', cidOfFilm(300))?.title, film(300).title);
  assert.equal(served('movies', cidOfFilm(302))?.title, film(302).title);
  // The same export as an archive (the default): refused whole, nothing written.
  const before = readFileSync(join(content, 'movies/letterboxd-2024.yaml'), 'utf8');
  await assert.rejects(runImport(letterboxd, letterboxdExport([film(303), { ...film(304), year: Number.NaN }]), { contentDir: content, writer: owner.writer }));
  assert.equal(readFileSync(join(content, 'movies/letterboxd-2024.yaml'), 'utf8'), before);
});

test('a sync hands the frame what it fetched as an input of its own (no export file), written through the server’s writer', async () => {
  const watched = `Date,Name,Year,Letterboxd URI\r\n${film(400).added},${film(400).title},${film(400).year},https://boxd.it/w400\r\n`;
  const bodies: Record<string, string> = { 'watched.csv': watched };
  let closed = false;
  const input = {
    shown: 'letterboxd (fetched)',
    entries: Object.entries(bodies).map(([name, text]) => ({ name, size: Buffer.byteLength(text), open: async () => Readable.from([Buffer.from(text)]) })),
    close: () => void (closed = true),
  };
  const report = await runImport(letterboxd, input, { contentDir: content, writer: owner.writer, mode: 'skip-and-report' });
  assert.equal(report.counts.new, 1, JSON.stringify(report));
  assert.equal(closed, true, 'the frame closes the input');
  assert.equal(served('movies', cidOfFilm(400))?.title, film(400).title);
});

test('batch: a record the collection’s rules refuse (not only its schema) is skipped by itself, never taking the batch down with it', async () => {
  const run = (title: string, moving: number, elapsed: number) => ({
    op: 'create' as const,
    collection: 'activities',
    fields: { title, sportType: 'Run', startDate: '2026-11-01T08:00:00+01:00', distanceMeters: 5000, movingTimeSeconds: moving, elapsedTimeSeconds: elapsed },
  });
  const report = await owner.batch(caller, [run('Rules Fine', 1500, 1600), run('Rules Refused', 1700, 1600)], { mode: 'skip-and-report', tool: 'test.sync' });
  assert.deepEqual(
    report.outcomes.map((o) => o.status),
    ['written', 'skipped'],
  );
  const skipped = report.outcomes[1]!;
  assert.ok(skipped.status === 'skipped' && /movingTimeSeconds/.test(skipped.message), JSON.stringify(skipped));
  assert.equal(report.swapped, true);
});
