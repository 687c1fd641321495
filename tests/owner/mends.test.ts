/**
 * The owner writes' smaller mends (issue 32 item 4): `taste.get_for_edit` never hands a
 * record its file marks private or draft to a token without `taste:write`; a journal line
 * naming a file outside the content folder is never acted on at start-up; the journal is
 * created readable by its user only.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { SOURCES_TABLE } from '../../src/core/image.ts';
import { JOURNAL_FILE, OwnerWrites } from '../../src/owner/writes.ts';
import { ownerRpc } from '../../bench/replica-harness.ts';
import { startOwnerSite, type OwnerSite } from './site.ts';

let site: OwnerSite;
const tokens = { read: '', write: '' };

before(async () => {
  site = await startOwnerSite('owner-mends-');
  tokens.read = site.mint(['taste:read']);
  tokens.write = site.mint(['taste:read', 'taste:write']);
});
after(() => site.stop());

interface Result {
  isError?: boolean;
  content: { text: string }[];
  structuredContent?: { fields: Record<string, unknown> };
}

async function getForEdit(token: string, collection: string, canonicalId: string): Promise<Result> {
  const response = await ownerRpc(site.base, token, 'tools/call', { name: 'taste.get_for_edit', arguments: { collection, canonicalId } });
  assert.equal(response.status, 200);
  return ((await response.json()) as { result: Result }).result;
}

const cidOf = (file: string) =>
  (site.generations.current().image.db.prepare(`SELECT cid FROM ${SOURCES_TABLE} WHERE file = ?`).get(file) as { cid: string }).cid;

test('taste.get_for_edit: a record its file now marks private or draft is refused without taste:write', async () => {
  for (const [file, mark] of [
    ['movies/arrival.md', 'visibility: private'],
    ['blog/2021-hello-again.md', 'draft: true'],
  ] as const) {
    const path = join(site.content, file);
    const cid = cidOf(file);
    assert.equal((await getForEdit(tokens.read, file.split('/')[0]!, cid)).isError, undefined, 'published: readable with taste:read');
    // A hand edit, not yet built: the file is the only place that says so.
    writeFileSync(path, readFileSync(path, 'utf8').replace(/^---\n/, `---\n${mark}\n`));
    const refused = await getForEdit(tokens.read, file.split('/')[0]!, cid);
    assert.equal(refused.isError, true, `${file}: ${mark}`);
    assert.doesNotMatch(refused.content[0]!.text, /"title"/, 'nothing of the record');
    const owner = await getForEdit(tokens.write, file.split('/')[0]!, cid);
    assert.equal(owner.isError, undefined, owner.content[0]?.text);
  }
});

test('a journal line naming a file outside the content folder is never restored, removed or rebuilt at start-up', () => {
  const root = mkdtempSync(join(tmpdir(), 'owner-journal-fence-'));
  try {
    const content = join(root, 'content');
    const stateDir = join(root, 'state');
    cpSync(join(site.content, 'music'), join(content, 'music'), { recursive: true });
    mkdirSync(stateDir);
    const outside = join(root, 'outside.txt');
    writeFileSync(outside, 'not the content folder\n');
    const digest = createHash('sha256').update(readFileSync(outside)).digest('hex');
    // A put-back cut short, as a tampered journal would state it: "the file holds the change; put back nothing (remove it)".
    const line = {
      at: '2026-01-01T00:00:00.000Z',
      client: 'c',
      grant: 'g',
      tool: 'taste.log',
      collection: 'music',
      canonicalId: '',
      file: '../outside.txt',
      change: {},
      revision: 'r',
      digest,
      reverted: true,
      pending: true,
      before: null,
    };
    writeFileSync(join(stateDir, JOURNAL_FILE), `${JSON.stringify(line)}\n`);
    new OwnerWrites({ contentDir: content, stateDir });
    assert.equal(readFileSync(outside, 'utf8'), 'not the content folder\n', 'the file outside is untouched');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('the write journal is created readable by its user only (0600)', async () => {
  const response = await ownerRpc(site.base, tokens.write, 'tools/call', {
    name: 'taste.log',
    arguments: { collection: 'music', fields: { title: 'Mode Check', type: 'album', artist: 'Mends', year: 2020, addedAt: '2026-11-05' } },
  });
  assert.equal(response.status, 200);
  assert.equal(statSync(join(site.stateDir, JOURNAL_FILE)).mode & 0o777, 0o600);
  assert.equal(statSync(join(site.stateDir, 'oauth.db')).mode & 0o777, 0o600);
});
