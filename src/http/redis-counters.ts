/**
 * Quotas shared by every replica, in Redis (`REDIS_URL`), and what happens when Redis is
 * away. `RedisCounterStore` keeps the sliding window of src/http/rate-limit.ts in one Lua
 * script per spend (EVALSHA: one round trip that prunes, decides, counts and sets the
 * expiry), on Redis's own clock (`TIME`), so replicas whose clocks disagree still share
 * one window. A client's counter is one string of at most 13 `start:count:last` slots
 * under a key of bounded length, expiring one window after its last count.
 * `SharedQuotas` owns the one connection of a process and hands each limiter a store that
 * fails open: on an error or a call slower than LIMITS.redisCallTimeoutMs it counts in
 * process with the quota divided by the replica count (`REPLICAS`), logs the switch once,
 * reports `degraded` in /api/status.json, and counts in Redis again once it answers.
 * Whether it answers is asked on a heartbeat (one PING every LIMITS.redisProbeIntervalMs,
 * with or without traffic), not only when a request meets Redis: a replica that serves
 * nothing metered must still say `ok` within seconds of Redis coming back, and `degraded`
 * within seconds of it going, because a balancer or a monitor acts on what the status
 * says. A quota is never a 5xx, and never a 429 for everyone, because Redis is away.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { LIMITS } from '../core/limits.ts';
import { MemoryCounterStore, SLOTS_PER_WINDOW, type Counted, type CounterStore, type Spend } from './rate-limit.ts';

/**
 * KEYS[1]: the client's counter. ARGV: amount, limit, window (ms), force (1/0), now (ms;
 * negative: Redis's clock). The same rule as `spendIn` (src/http/rate-limit.ts).
 */
const SPEND = `
local amount, limit, window = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local force, now = ARGV[4] == '1', tonumber(ARGV[5])
if now < 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local slotMs = math.floor(window / ${SLOTS_PER_WINDOW})
local start = now - (now % slotMs)
local slots, used, dropped = {}, 0, false
local raw = redis.call('GET', KEYS[1])
if raw then
  for s, c, l in string.gmatch(raw, '(%d+):(%d+):(%d+)') do
    if tonumber(l) > now - window then
      slots[#slots + 1] = { tonumber(s), tonumber(c), tonumber(l) }
      used = used + tonumber(c)
    else
      dropped = true
    end
  end
end
local allowed = force or used + amount <= limit
if allowed and amount > 0 then
  local newest = slots[#slots]
  if newest and newest[1] == start then
    newest[2] = newest[2] + amount
    newest[3] = now
  else
    slots[#slots + 1] = { start, amount, now }
  end
  used = used + amount
end
local need, wait, freed = 0, 0, 0
if not allowed then need = used + amount - limit end
for i = 1, #slots do
  freed = freed + slots[i][2]
  wait = slots[i][3] + window - now
  if freed >= need then break end
end
if #slots == 0 then
  redis.call('DEL', KEYS[1])
elseif (allowed and amount > 0) or dropped then
  local parts = {}
  for i = 1, #slots do parts[i] = string.format('%d:%d:%d', slots[i][1], slots[i][2], slots[i][3]) end
  redis.call('SET', KEYS[1], table.concat(parts, ','), 'PX', window)
end
local remaining = limit - used
if remaining < 0 then remaining = 0 end
return { allowed and 1 or 0, remaining, wait, start }
`;

/** KEYS[1]: the client's counter. ARGV: the slot's start, the amount to give back. Keeps the key's expiry. */
const REFUND = `
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local slot, amount, parts = tonumber(ARGV[1]), tonumber(ARGV[2]), {}
for s, c, l in string.gmatch(raw, '(%d+):(%d+):(%d+)') do
  local count = tonumber(c)
  if tonumber(s) == slot then count = math.max(0, count - amount) end
  if count > 0 then parts[#parts + 1] = string.format('%d:%d:%d', tonumber(s), count, tonumber(l)) end
end
if #parts == 0 then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], table.concat(parts, ','), 'KEEPTTL') end
return 1
`;

interface QuotaCommands {
  quotaSpend(key: string, amount: number, limit: number, windowMs: number, force: string, now: number): Promise<[number, number, number, number]>;
  quotaRefund(key: string, slot: number, amount: number): Promise<number>;
}

/**
 * A connection with the two scripts defined (ioredis sends EVALSHA, and EVAL once if Redis
 * lost the script) and loaded whenever it connects, so a call is one round trip.
 */
export function quotaConnection(url: string): Redis {
  // A call waits for no reconnection: it fails, and the request counts in process. Reconnection
  // is tried often (ioredis backs off to 2 s by default), so a Redis back on its port is met within
  // LIMITS.redisReconnectMaxMs and a heartbeat.
  const redis = new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: (times) => Math.min(times * 50, LIMITS.redisReconnectMaxMs) });
  // Errors reach each call; the connection's own are not crashes (it reconnects by itself).
  redis.on('error', () => undefined);
  redis.on('ready', () => void redis.script('LOAD', SPEND).catch(() => undefined));
  redis.defineCommand('quotaSpend', { numberOfKeys: 1, lua: SPEND });
  redis.defineCommand('quotaRefund', { numberOfKeys: 1, lua: REFUND });
  return redis;
}

/**
 * `call`, or a rejection once `ms` have passed without its answer. When the timer fires
 * it first lets the event loop read what has arrived (setImmediate runs after the poll
 * phase), so a process that stalled on other work does not blame Redis.
 */
export function within<T>(call: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done();
    };
    const timer = setTimeout(() => setImmediate(() => settle(() => reject(new Error(`no answer within ${ms} ms`)))), ms);
    call.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error instanceof Error ? error : new Error(String(error)))),
    );
  });
}

/** A client key as stored: as it is when short, its SHA-256 otherwise (no client input grows a key name). */
function storedKey(key: string): string {
  return key.length <= LIMITS.redisClientKeyCharsMax ? key : `#${createHash('sha256').update(key).digest('base64url')}`;
}

/** One limiter's counters in Redis, under `prefix` (e.g. `collections:quota:rest:`). */
export class RedisCounterStore implements CounterStore {
  private readonly redis: Redis & QuotaCommands;
  private readonly prefix: string;
  private readonly serverClock: boolean;

  private readonly timeoutMs: () => number;

  /**
   * `clock: 'caller'` uses the limiter's clock instead of Redis's: for tests with a fake
   * clock only. `timeoutMs` bounds each call (LIMITS.redisCallTimeoutMs by default).
   */
  constructor(redis: Redis, prefix: string, options: { clock?: 'redis' | 'caller'; timeoutMs?: () => number } = {}) {
    this.redis = redis as Redis & QuotaCommands;
    this.prefix = prefix;
    this.serverClock = options.clock !== 'caller';
    this.timeoutMs = options.timeoutMs ?? (() => LIMITS.redisCallTimeoutMs);
  }

  async spend(key: string, spend: Spend, now: number): Promise<Counted> {
    const [allowed, remaining, waitMs, slot] = await within(this.call(key, spend, now), this.timeoutMs());
    return { allowed: allowed === 1, remaining, waitMs, slot };
  }

  private call(key: string, spend: Spend, now: number): Promise<[number, number, number, number]> {
    return this.redis.quotaSpend(this.prefix + storedKey(key), spend.amount, spend.limit, spend.windowMs, spend.force ? '1' : '0', this.serverClock ? -1 : now);
  }

  refund(key: string, counted: Counted, amount: number): void {
    this.redis.quotaRefund(this.prefix + storedKey(key), counted.slot, amount).catch(() => undefined);
  }
}

/** How quotas are kept, for /api/status.json. */
export interface QuotaHealth {
  store: 'memory' | 'redis';
  state: 'ok' | 'degraded';
  reason?: string;
}

export interface SharedQuotasOptions {
  url: string;
  /** Replicas sharing the quotas (`REPLICAS`): each divides a quota by it while it counts alone. */
  replicas?: number;
  /** Put before every key, so deployments (and test runs) sharing a Redis do not collide. */
  prefix?: string;
  timeoutMs?: number;
  probeIntervalMs?: number;
  log?: (line: string) => void;
}

/** The quotas of one process in Redis, failing open to in-process counters. */
export class SharedQuotas {
  readonly redis: Redis;
  private readonly replicas: number;
  private readonly prefix: string;
  private readonly probeIntervalMs: number;
  private readonly log: (line: string) => void;
  private degradedBy: string | undefined;
  private checkedAt = 0;
  private checking = false;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly openedAt = Date.now();

  private readonly timeoutMs: number;
  /** Until the first connection is made, calls wait for it (LIMITS.redisConnectTimeoutMs). */
  private connected = false;

  constructor(options: SharedQuotasOptions) {
    this.redis = quotaConnection(options.url);
    this.redis.once('ready', () => (this.connected = true));
    this.timeoutMs = options.timeoutMs ?? LIMITS.redisCallTimeoutMs;
    // A missing or nonsensical REPLICAS counts as one replica: the whole quota, never none.
    const replicas = Math.floor(options.replicas ?? 1);
    this.replicas = Number.isFinite(replicas) && replicas > 1 ? replicas : 1;
    this.prefix = options.prefix ?? 'collections:quota:';
    this.probeIntervalMs = options.probeIntervalMs ?? LIMITS.redisProbeIntervalMs;
    this.log = options.log ?? ((line) => console.warn(line));
    // Unref'd: the heartbeat never keeps a stopping process alive.
    this.heartbeat = setInterval(() => this.check(), this.probeIntervalMs).unref();
  }

  /** The store of the limiter named `name` (its keys are `<prefix><name>:<client>`). */
  store(name: string): CounterStore {
    const shared = new RedisCounterStore(this.redis, `${this.prefix}${name}:`, {
      timeoutMs: () => (this.connected ? this.timeoutMs : LIMITS.redisConnectTimeoutMs),
    });
    const local = new MemoryCounterStore(LIMITS.rateLimitClients);
    const alone = (spend: Spend): Spend => ({ ...spend, limit: Math.max(1, Math.floor(spend.limit / this.replicas)) });
    const fallBack = (key: string, spend: Spend, now: number): Counted => ({ ...local.spend(key, alone(spend), now), local: true });
    return {
      spend: (key, spend, now) => {
        if (this.degradedBy !== undefined) {
          this.check();
          return fallBack(key, spend, now);
        }
        return shared.spend(key, spend, now).catch((error: unknown) => {
          this.degrade(error);
          return fallBack(key, spend, now);
        });
      },
      refund: (key, counted, amount) => (counted.local ? local.refund(key, counted, amount) : shared.refund(key, counted, amount)),
    };
  }

  health(): QuotaHealth {
    return this.degradedBy === undefined ? { store: 'redis', state: 'ok' } : { store: 'redis', state: 'degraded', reason: this.degradedBy };
  }

  private degrade(error: unknown): void {
    if (this.degradedBy !== undefined) return;
    const cause = error instanceof Error ? error.message : String(error);
    this.degradedBy = `Redis did not answer (${cause}); quotas count in this process at 1/${this.replicas} of each`;
    this.checkedAt = Date.now();
    this.log(`quotas: ${this.degradedBy}`);
  }

  private recover(): void {
    if (this.degradedBy === undefined) return;
    this.degradedBy = undefined;
    this.log('quotas: Redis answers again; counting there');
  }

  /**
   * One PING, at most every probeIntervalMs, from the heartbeat or from a request counted
   * in process. While degraded, an answer ends the fallback. While counting in Redis, a PING
   * unanswered within LIMITS.redisHeartbeatTimeoutMs (longer than a quota call's bound, so
   * a busy moment does not flap the status) starts it, as a failed quota call would. Before
   * the first connection, only a start that has waited past the connect timeout counts.
   */
  private check(): void {
    const now = Date.now();
    if (this.checking || now - this.checkedAt < this.probeIntervalMs) return;
    if (!this.connected && now - this.openedAt < LIMITS.redisConnectTimeoutMs) return;
    this.checking = true;
    this.checkedAt = now;
    const degraded = this.degradedBy !== undefined;
    within(this.redis.ping(), degraded ? this.timeoutMs : LIMITS.redisHeartbeatTimeoutMs).then(
      () => {
        this.checking = false;
        this.recover();
      },
      (error: unknown) => {
        this.checking = false;
        if (!degraded) this.degrade(error);
      },
    );
  }

  /** Ends the heartbeat and the connection (nothing waits on a counter: a spend in flight falls back). */
  close(): void {
    clearInterval(this.heartbeat);
    this.redis.disconnect();
  }
}

/** Shared quotas when `REDIS_URL` is set; undefined (in-process counters, as ever) otherwise. */
export function sharedQuotasFrom(settings: Pick<Config, 'REDIS_URL' | 'REPLICAS' | 'REDIS_KEY_PREFIX'>): SharedQuotas | undefined {
  if (settings.REDIS_URL === undefined) return undefined;
  return new SharedQuotas({ url: settings.REDIS_URL, replicas: settings.REPLICAS, prefix: settings.REDIS_KEY_PREFIX });
}
