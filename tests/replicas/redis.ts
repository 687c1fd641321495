/**
 * Whether the replica tests that need Redis can run: a Redis answers PING at `REDIS_URL`
 * (default redis://127.0.0.1:6379). Without one they are skipped with the reason, unless
 * `REQUIRE_REDIS=1` (CI), where a missing Redis fails them. Each test names its own
 * channel, so runs never hear each other's notices.
 */
import { randomBytes } from 'node:crypto';
import type { TestContext } from 'node:test';
import { REDIS_URL, redisProblem } from '../../bench/replica-harness.ts';
import { config } from '../../src/config.ts';

export { REDIS_URL };

/** A channel name no other test or run uses. */
export const testChannel = (name: string) => `test:${randomBytes(6).toString('hex')}:${name}`;

/** True when Redis answers; otherwise skips `t` with the reason (or throws under REQUIRE_REDIS=1). */
export async function needRedis(t: TestContext): Promise<boolean> {
  if ((await redisProblem(REDIS_URL)) === undefined) return true;
  const reason = `no Redis answers at ${REDIS_URL}: skipped (start one, or set REDIS_URL)`;
  if (config().REQUIRE_REDIS) throw new Error(`${reason}; REQUIRE_REDIS=1 makes this a failure`);
  console.log(`# ${reason}`);
  t.skip(reason);
  return false;
}
