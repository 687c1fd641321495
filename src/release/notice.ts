/**
 * The Redis notice of a new release: one message on one channel (`RELEASES_CHANNEL`,
 * default `collections:releases`) naming the release, sent by `npm run release` and by
 * the writer after an owner write, heard by every replica following `RELEASES_DIR`. A
 * notice is only a hint to look now: the replica reads and verifies the release from the
 * folder itself, and a lost notice is made up for by the periodic check.
 */
import { Redis } from 'ioredis';
import { LIMITS } from '../core/limits.ts';

export interface Notice {
  id: string;
  publishedAt: string;
}

/** Sends the notice; resolves false (never throws) when Redis does not take it in time. */
export async function sendNotice(redisUrl: string, channel: string, notice: Notice): Promise<boolean> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: LIMITS.releaseNoticeTimeoutMs, retryStrategy: () => null });
  redis.on('error', () => undefined);
  const timeout = new Promise<false>((resolve) => setTimeout(resolve, LIMITS.releaseNoticeTimeoutMs, false).unref());
  try {
    const sent = redis
      .connect()
      .then(() => redis.publish(channel, JSON.stringify(notice)))
      .then(
        () => true,
        () => false,
      );
    return await Promise.race([sent, timeout]);
  } finally {
    redis.disconnect();
  }
}

/** Listens for notices; calls `heard` for each (malformed ones are ignored). Reconnects by itself; `close()` stops. */
export function listenForNotices(redisUrl: string, channel: string, heard: (notice: Notice) => void, log: (line: string) => void): { close(): void } {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null, enableOfflineQueue: true });
  let reported = false;
  redis.on('error', (error: Error) => {
    if (!reported) log(`release notices: Redis unreachable (${error.message}); following releases by the periodic check until it answers`);
    reported = true;
  });
  redis.on('ready', () => {
    if (reported) log('release notices: Redis answers again');
    reported = false;
  });
  redis.on('message', (_channel: string, message: string) => {
    try {
      const notice = JSON.parse(message) as Notice;
      if (typeof notice.id === 'string') heard(notice);
    } catch {
      // Not a notice of ours.
    }
  });
  void redis.subscribe(channel).catch(() => undefined);
  return { close: () => redis.disconnect() };
}
