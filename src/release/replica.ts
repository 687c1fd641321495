/**
 * A replica's part when several serve one site (`RELEASES_DIR` set; nothing changes
 * without it). The writer is the replica with the owner lane (`OWNER_*` and `STATE_DIR`
 * set): it serves its own build and, after each owner write's rebuild, publishes the new
 * generation as a release and sends the notice, so every replica serves the write. Every
 * other replica follows releases (src/release/follow.ts) and answers the writer's paths —
 * `/owner/`, `/oauth/` and the OAuth metadata — with 421 Misdirected Request naming the
 * load-balancer rule, so a wrong rule shows at once rather than as a confusing 404.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config.ts';
import { problemAnswer } from '../http/problem.ts';
import type { Generations } from '../runtime/generations.ts';
import { write, type Dispatcher } from '../runtime/node.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { OWNER_LANE_PREFIXES } from '../urls.ts';
import { ReleaseFollower } from './follow.ts';
import { sendNotice } from './notice.ts';
import { publishRelease } from './publish.ts';
import { newestRelease, type OpenedRelease } from './release.ts';

export interface ReplicaRole {
  /** The release a follower serves first (absent: its own build, until one is published). */
  initial?: OpenedRelease;
  /** The writer's: publish each rebuilt generation. */
  afterRebuild?: (runtime: Runtime) => Promise<void>;
  /** The dispatcher this replica serves with. */
  dispatcher(inner: Dispatcher): Dispatcher;
  /** Starts following releases (followers). */
  start(generations: Generations): void;
  stop(): void;
}

/** Whether `url` (a request target) is one of the writer's paths. */
export function isWriterPath(url: string): boolean {
  const path = url.split('?')[0]!;
  // Every path of the owner lane and its authorization server is under one of these (OAUTH_URLS).
  return OWNER_LANE_PREFIXES.some((prefix) => path.startsWith(prefix));
}

const prefixes = OWNER_LANE_PREFIXES.map((prefix) => (prefix.endsWith('/') ? prefix : `${prefix}*`));
const MISDIRECTED = `This replica only reads; the owner lane and OAuth are served by the writer (the replica with OWNER_* and STATE_DIR set). Route ${prefixes.slice(0, -1).join(', ')} and ${prefixes.at(-1)} to the writer at the load balancer.`;

/** The dispatcher of a replica that is not the writer: the writer's paths answer 421. */
function followerDispatcher(inner: Dispatcher): Dispatcher {
  return {
    request: (req: IncomingMessage, res: ServerResponse) => {
      if (isWriterPath(req.url ?? '/')) write(res, problemAnswer('misdirected-request', MISDIRECTED), req.method === 'HEAD');
      else inner.request(req, res);
    },
    upgrades: (req) => inner.upgrades(req),
    upgrade: (req, socket, head) => inner.upgrade(req, socket, head),
  };
}

/** This process's role, from its configuration; undefined when it is the only server (no `RELEASES_DIR`). */
export async function replicaRole(
  settings: Pick<Config, 'RELEASES_DIR' | 'RELEASES_CHANNEL' | 'REDIS_URL'>,
  writer: boolean,
  log: (line: string) => void = console.error,
): Promise<ReplicaRole | undefined> {
  const { RELEASES_DIR: releasesDir, RELEASES_CHANNEL: channel, REDIS_URL: redisUrl } = settings;
  if (releasesDir === undefined) return undefined;
  if (writer) {
    return {
      afterRebuild: async (runtime) => {
        const started = performance.now();
        try {
          const now = new Date();
          const manifest = await publishRelease(releasesDir, runtime.build, { builtAt: now.toISOString(), now });
          const sent = redisUrl ? await sendNotice(redisUrl, channel, { id: manifest.id, publishedAt: manifest.publishedAt }) : false;
          log(`published release ${manifest.id} in ${Math.round(performance.now() - started)} ms${sent ? ', notice sent' : ''}`);
        } catch (error) {
          log(`the rebuilt generation was not published as a release: ${(error as Error).message}`);
        }
      },
      dispatcher: (inner) => inner,
      start: () => undefined,
      stop: () => undefined,
    };
  }
  const initial = await newestRelease(releasesDir, log);
  let follower: ReleaseFollower | undefined;
  return {
    initial,
    dispatcher: followerDispatcher,
    start: (generations) => {
      follower = new ReleaseFollower({
        releasesDir,
        current: initial?.manifest,
        adopt: (release) => generations.adopt(release.build, release.manifest.id),
        log,
      });
      follower.start(redisUrl, channel);
    },
    stop: () => follower?.stop(),
  };
}
