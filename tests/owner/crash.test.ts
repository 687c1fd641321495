/**
 * A server process killed with SIGKILL in the middle of a stream of owner writes: every
 * write it acknowledged is in the content file, the file is valid content, and a server
 * started again on the same content and state folder replays acknowledged request ids
 * from the journal (applying nothing twice) and rebuilds the edited file without a
 * complaint. Runs `server.ts` on the built `dist/` and a copy of the content.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, test } from 'node:test';
import yaml from 'js-yaml';
import music, { STANCES } from '../../src/collections/music.ts';
import { SOURCES_TABLE } from '../../src/core/image.ts';
import { buildLayout, paths } from '../../src/paths.ts';
import { mintOwnerToken, setStance } from '../../bench/replica-harness.ts';

// Loopback: with the owner lane set up, an http SITE_URL elsewhere is refused at start (issue 32).
const SITE_URL = 'http://localhost:4321';
const root = mkdtempSync(join(tmpdir(), 'owner-crash-'));
const content = join(root, 'content');
const stateDir = join(root, 'state');
cpSync('content', content, { recursive: true });
const children: ChildProcess[] = [];

after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

/** The lane set up, so the minted grant's subject is the owner's; the provider is never contacted. */
const OWNER_LANE = { OWNER_OIDC_ISSUER: 'http://127.0.0.1:9', OWNER_OIDC_CLIENT_ID: 'owner-tests', OWNER_SUBJECT: 'owner' };

async function startServer(): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['server.ts'], {
    env: { ...process.env, CONTENT_DIR: content, STATE_DIR: stateDir, SITE_URL, PORT: '0', HOST: '127.0.0.1', ...OWNER_LANE },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  for (let waited = 0; ; waited += 20) {
    const match = /listening on (http:\/\/\S+)/.exec(out);
    if (match) return { child, base: match[1]! };
    if (child.exitCode !== null || waited > 60_000) throw new Error(`the server did not start: ${out}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

test('SIGKILL during a stream of writes loses no acknowledged write and leaves the content valid; the journal survives the restart', async () => {
  const token = mintOwnerToken(stateDir, SITE_URL, 'crash');
  const image = new DatabaseSync(buildLayout(paths.dist).image, { readOnly: true });
  const rows = image.prepare(`SELECT entry, cid FROM ${SOURCES_TABLE} WHERE file = 'music/albums.yaml' ORDER BY entry`).all() as {
    entry: number;
    cid: string;
  }[];
  image.close();
  const file = join(content, 'music/albums.yaml');
  const original = yaml.load(readFileSync(file, 'utf8'), { schema: yaml.CORE_SCHEMA }) as { stance?: string }[];
  // One write per record, each to a stance it does not have.
  const writes = rows.map((row) => {
    const now = original[row.entry]!.stance ?? 'like';
    return { ...row, stance: STANCES[(STANCES.indexOf(now as (typeof STANCES)[number]) + 1) % STANCES.length]!, requestId: `crash-${row.entry}` };
  });

  const { child, base } = await startServer();
  const acknowledged: typeof writes = [];
  const killAfter = 5;
  const killed = once(child, 'exit');
  const calls = writes.map((write) =>
    setStance(base, token, write.cid, write.stance, write.requestId).then(
      (answer) => {
        assert.equal(answer.isError, undefined, answer.content[0]?.text);
        acknowledged.push(write);
        if (acknowledged.length === killAfter) child.kill('SIGKILL');
      },
      () => undefined, // the connection died with the process
    ),
  );
  await Promise.all(calls);
  await killed;
  // Answers already on their way when the signal lands are acknowledged too: each must hold like the rest.
  assert.ok(acknowledged.length >= killAfter, `acknowledged ${acknowledged.length} of ${writes.length}`);

  // Every acknowledged write is in the file; the file reads and every record is valid.
  const records = yaml.load(readFileSync(file, 'utf8'), { schema: yaml.CORE_SCHEMA }) as Record<string, unknown>[];
  assert.equal(records.length, original.length);
  for (const write of acknowledged) assert.equal(records[write.entry]!.stance, write.stance, `write ${write.requestId}`);
  // (`id` is the record's own id, taken off before the schema reads the rest, as the compiler does.)
  for (const { id: _id, ...record } of records) assert.ok(music.schema.safeParse(record).success, JSON.stringify(record));

  // A server started again: acknowledged request ids are replayed from the journal, a new write rebuilds the file.
  const again = await startServer();
  // The same call again (a reused requestId with other arguments would be a conflict, tests/owner/retries.test.ts).
  const replay = await setStance(again.base, token, acknowledged[0]!.cid, acknowledged[0]!.stance, acknowledged[0]!.requestId);
  assert.equal(replay.structuredContent?.replayed, true);
  assert.equal(
    (yaml.load(readFileSync(file, 'utf8'), { schema: yaml.CORE_SCHEMA }) as { stance: string }[])[acknowledged[0]!.entry]!.stance,
    acknowledged[0]!.stance,
  );
  const last = writes.at(-1)!;
  // The restarted server rebuilt the journaled file first: it serves the acknowledged stances, so a write without a revision applies.
  const served = (await (await fetch(`${again.base}/api/music.json?limit=100`)).json()) as { data: { canonicalId: string; stance: string }[] };
  for (const write of acknowledged) assert.equal(served.data.find((item) => item.canonicalId === write.cid)?.stance, write.stance, `served ${write.requestId}`);
  const fresh = await setStance(again.base, token, last.cid, 'dislike', 'after-restart');
  assert.equal(fresh.isError, undefined, fresh.content[0]?.text);
  assert.equal((yaml.load(readFileSync(file, 'utf8'), { schema: yaml.CORE_SCHEMA }) as { stance: string }[])[last.entry]!.stance, 'dislike');
  again.child.kill('SIGTERM');
  await once(again.child, 'exit');
});
