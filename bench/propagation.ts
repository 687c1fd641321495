/**
 * The time from a release, and from an owner write, to every replica serving it (part of
 * `npm run bench`, `--only replicas`). On the benchmark's build and content: publishes the
 * build as the first release into a fresh `RELEASES_DIR`, starts a writer (the owner lane
 * set up, on a copy of the content) and two replicas following that folder, then, `rounds`
 * times: publishes an edited copy of the build with `npm run release` and times it, and
 * from its return to both replicas naming it in `/api/status.json`; makes an owner write
 * (`music.set_stance` on the newest music record) and times its answer, and from the
 * answer to both replicas serving the new stance. With a Redis answering at `REDIS_URL`
 * the replicas learn of releases by its notice; without one by their periodic check,
 * and the figures say so.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PropagationFigures } from '../src/compile/docs/bench-replicas.ts';
import { STANCES } from '../src/collections/music.ts';
import {
  editedBuild,
  mintOwnerToken,
  OWNER_LANE,
  REDIS_URL,
  redisProblem,
  release,
  setStance,
  stanceAt,
  startReplica,
  untilServed,
  type Replica,
} from './replica-harness.ts';
import { spread } from './results.ts';

export interface PropagationOptions {
  dist: string;
  content: string;
  rounds: number;
  log: (line: string) => void;
}

const SITE_URL = 'https://bench.test';

export async function measurePropagation({ dist, content, rounds, log }: PropagationOptions): Promise<PropagationFigures> {
  const notices = (await redisProblem()) === undefined;
  const root = mkdtempSync(join(tmpdir(), 'bench-propagation-'));
  const started: Replica[] = [];
  try {
    const stateDir = join(root, 'state');
    const writerContent = join(root, 'content');
    cpSync(content, writerContent, { recursive: true });
    // Quotas lifted: the polls below are one client asking many times a second.
    const shared = {
      DIST_DIR: dist,
      RELEASES_DIR: join(root, 'releases'),
      RELEASES_CHANNEL: `bench:${randomBytes(6).toString('hex')}:releases`,
      REDIS_URL: notices ? REDIS_URL : '',
      REDIS_KEY_PREFIX: `bench:${randomBytes(6).toString('hex')}:quota:`,
      RATE_LIMIT_REQUESTS: String(Number.MAX_SAFE_INTEGER),
    };
    log(`propagation: publishing the first release${notices ? '' : ` (no Redis at ${REDIS_URL}: replicas find releases by their periodic check)`}`);
    await release(shared);
    const token = mintOwnerToken(stateDir, SITE_URL, 'bench');
    const writer = await startReplica({ ...shared, CONTENT_DIR: writerContent, STATE_DIR: stateDir, SITE_URL, ...OWNER_LANE });
    started.push(writer);
    const replicas = [await startReplica(shared), await startReplica(shared)];
    started.push(...replicas);
    const bases = replicas.map((r) => r.base);
    const newest = (await (await fetch(`${writer.base}/api/music.json?limit=1`)).json()) as { data: { canonicalId: string }[] };
    const cid = newest.data[0]!.canonicalId;
    const releases = { publishMs: [] as number[], servedMs: [] as number[] };
    const writes = { answerMs: [] as number[], servedMs: [] as number[] };
    for (let round = 1; round <= rounds; round += 1) {
      log(`propagation, round ${round}: a release`);
      const edited = editedBuild(dist, join(root, `dist-${round}`), `bench-round-${round}`);
      const sent = performance.now();
      const id = await release({ ...shared, DIST_DIR: edited });
      const published = performance.now();
      releases.servedMs.push(
        await untilServed(bases, published, async (base) => ((await (await fetch(`${base}/api/status.json`)).json()) as { release?: string }).release === id),
      );
      releases.publishMs.push(published - sent);
      rmSync(edited, { recursive: true, force: true });

      log(`propagation, round ${round}: an owner write`);
      // A stance neither the writer nor the replicas serve, so the write changes what they serve.
      const now = [await stanceAt(writer.base, cid), await stanceAt(bases[0]!, cid)];
      const stance = STANCES.find((s) => !now.includes(s))!;
      const asked = performance.now();
      const answer = await setStance(writer.base, token, cid, stance, `bench-${round}`);
      const answered = performance.now();
      if (answer.isError) throw new Error(`the owner write failed: ${answer.content[0]?.text}`);
      writes.servedMs.push(await untilServed(bases, answered, async (base) => (await stanceAt(base, cid)) === stance));
      writes.answerMs.push(answered - asked);
    }
    return {
      replicas: replicas.length,
      fastPath: notices ? 'the Redis notice' : `none (no Redis answered at ${REDIS_URL}): the periodic check only`,
      rounds,
      release: { publishMs: spread(releases.publishMs, 0), servedMs: spread(releases.servedMs, 0) },
      ownerWrite: { answerMs: spread(writes.answerMs, 0), servedMs: spread(writes.servedMs, 0) },
    };
  } finally {
    await Promise.all(started.map((r) => r.stop()));
    rmSync(root, { recursive: true, force: true });
  }
}
