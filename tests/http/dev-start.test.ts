/**
 * The dev loop loses no save while it starts. A save made right after the server's first
 * answer is served (the server watches before it answers, not after its warm-up); and
 * under `npm run dev` as a whole, a save made while the build runs (after the compile has
 * read the content) and one made as the build ends (before the server watches) are both
 * served by the server that build started, without a second full build. Each save is
 * made at an observable state — a 200, a line the loop prints — and each check polls
 * until the edit is served, within the test's (generous) timeout: nothing waits for time
 * to pass.
 *
 * @slow: dev servers start on fresh and changed content (scripts/test.ts starts it first, in a process of its own).
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { writeContentFile } from '../../src/owner/content-file.ts';
import { LISTENING, startDevLoop, startDevServer } from '../helpers/dev-server.ts';

/**
 * A scratch folder holding a copy of the demo content: under the project's `scratch/`
 * (git-ignored), since a build's server chunks import packages from `node_modules`, which
 * a folder outside the project cannot resolve.
 */
function scratch(): { root: string; content: string } {
  mkdirSync('scratch', { recursive: true });
  const root = mkdtempSync(join('scratch', 'dev-start-'));
  const content = resolve(root, 'content');
  cpSync('content', content, { recursive: true });
  return { root, content };
}

/** Replaces `from` by `to` in a content file, written as the owner lane writes files (atomically). */
function edit(content: string, file: string, from: string, to: string): void {
  const text = readFileSync(join(content, file), 'utf8');
  assert.ok(text.includes(from), `${file}: nothing to replace`);
  writeContentFile(join(content, file), text.replace(from, to));
}

/** Polls a REST search until it finds `q`; the test's timeout bounds the wait (aborting `signal`). */
async function served(base: string, collection: string, q: string, signal: AbortSignal): Promise<void> {
  for (;;) {
    signal.throwIfAborted();
    const response = await fetch(`${base}/api/${collection}.json?q=${encodeURIComponent(q)}`, { signal });
    if (response.status === 200 && ((await response.json()) as { data: unknown[] }).data.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const CONCERT = ['concerts/radiohead-uber-arena-2025.md', 'tour: 2025 European Tour\n', 'tour: 2025 European Tour\ntitle: Kid A Mnesia Revisited\n'] as const;
const POST = ['writing/2026-four-cities.md', 'title: "Four cities"', 'title: "Five cities, counted again"'] as const;

test('a save made right after the dev server first answers 200 is served', { timeout: 180_000 }, async (t) => {
  const { root, content } = scratch();
  const server = await startDevServer(content, {}, { ready: false });
  try {
    assert.equal((await fetch(`${server.base}/api/concerts.json`)).status, 200);
    edit(content, ...CONCERT);
    await served(server.base, 'concerts', 'mnesia revisited', t.signal);
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
});

test('npm run dev serves a save made while its first build runs, and one made as it ends, without building again', { timeout: 900_000 }, async (t) => {
  const { root, content } = scratch();
  const loop = startDevLoop(content, resolve(root, 'dist'));
  try {
    // Printed once the compile has read every content file: this save comes after the read.
    await loop.waitFor(/\[dev\] compiled \d+ records/, 0, 600_000);
    edit(content, ...CONCERT);
    // Printed as the build ends, before the server it starts watches anything.
    const ended = (await loop.waitFor(/\[dev\] (built in |the build failed)/, 0, 600_000))[1]!;
    assert.equal(ended, 'built in ', loop.lines.join('\n'));
    edit(content, ...POST);
    const base = (await loop.waitFor(LISTENING, 0, 120_000))[1]!;
    await served(base, 'concerts', 'mnesia revisited', t.signal);
    await served(base, 'writing', 'five cities', t.signal);
    assert.equal(loop.lines.filter((line) => line.includes('[dev] building')).length, 1, loop.lines.join('\n'));
  } finally {
    await loop.stop();
    rmSync(root, { recursive: true, force: true });
  }
});
