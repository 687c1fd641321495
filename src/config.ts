/**
 * Every environment variable the project reads, in one table (`VARIABLES`): its name,
 * which command reads it, its default, what it means and the parser that checks it. The
 * environment is read once, by `readConfig`, into a frozen `Config` keyed by the
 * variables' own names; every reader (the server, the build, the release and import
 * commands, the development identity provider, the test helpers) takes its values from
 * that object, never from `process.env`, so a variable cannot be read in a second place
 * with a second default. A bad value stops the command at start-up with one message per
 * variable at fault, naming it and what it accepts (`PORT must be a whole number from 0
 * to 65535; got "abc"`), rather than becoming NaN somewhere later. An empty value means
 * the same as an unset one. The README's configuration table is generated from this
 * table (src/compile/docs/readme.ts, `npm run docs`).
 *
 * The edge worker is the one reader outside this process: Cloudflare Pages hands it
 * `ORIGIN_URL` as a binding on each request (src/edge/worker.ts); it is declared here so
 * that it is documented with the rest.
 */
import { isAbsolute, resolve } from 'node:path';
import { LIMITS } from './core/limits.ts';

/** Which command reads a variable: `npm run build`, `npm run serve` (and `npm run dev`), the CDN's worker, the tests, `npm run import`, `npm run sync`, `npm run release`, `npm run owner:idp`. */
export type Phase = 'build' | 'serve' | 'edge' | 'test' | 'import' | 'sync' | 'release' | 'owner:idp';

/** Turns a set value into its typed form; throws a `RangeError` whose message is what the variable accepts. */
type Parser<T> = (raw: string) => T;

interface Variable<T> {
  when: readonly Phase[];
  /** What it means (the README's wording). */
  what: string;
  parse: Parser<T>;
  /** The value used when the variable is unset or empty, as it would be written in the environment; absent: the value is `undefined`. */
  default?: string;
  /** What an unset variable means when it is not a value (e.g. "the clock"), for the README. */
  unset?: string;
}

const refuse = (accepts: string): never => {
  throw new RangeError(accepts);
};

/** A whole number in [min, max], written in decimal digits only (no sign, exponent or separator). */
export const wholeNumber =
  (min: number, max = Number.MAX_SAFE_INTEGER): Parser<number> =>
  (raw) => {
    const accepts = `a whole number from ${min} to ${max}`;
    if (!/^\s*\d{1,16}\s*$/.test(raw)) return refuse(accepts);
    const value = Number(raw);
    return value >= min && value <= max ? value : refuse(accepts);
  };

/** An integer, negative ones included (a seed). */
const integer: Parser<number> = (raw) => (/^\s*-?\d{1,15}\s*$/.test(raw) ? Number(raw) : refuse('an integer such as 20261122'));

const text =
  (maxChars = 2000): Parser<string> =>
  (raw) =>
    raw.length <= maxChars ? raw : refuse(`text of at most ${maxChars} characters`);

/** An absolute URL with one of `protocols` (without the colon). */
const url =
  (...protocols: string[]): Parser<string> =>
  (raw) => {
    const accepts = `an absolute ${protocols.join(' or ')} URL`;
    if (!URL.canParse(raw)) return refuse(accepts);
    return protocols.includes(new URL(raw).protocol.slice(0, -1)) ? raw : refuse(accepts);
  };

/** A Redis URL, or the absolute path of its Unix socket (as ioredis takes them). */
const redisUrl: Parser<string> = (raw) => (isAbsolute(raw) ? raw : url('redis', 'rediss')(raw));

/** A folder, resolved against the working directory when the configuration is read. */
const folder: Parser<string> = (raw) => resolve(raw);

/** `0` or `1`. */
const flag: Parser<boolean> = (raw) => (raw === '1' ? true : raw === '0' ? false : refuse('0 or 1'));

/** Any value: set means yes. */
const present: Parser<boolean> = () => true;

/** Comma-separated entries, blanks dropped. */
const list: Parser<readonly string[]> = (raw) =>
  Object.freeze(
    raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

/** Whole seconds since the epoch (the reproducible-builds convention), as milliseconds. */
const epochSeconds: Parser<number> = (raw) =>
  /^\s*\d{1,12}\s*$/.test(raw) ? Number(raw) * 1000 : refuse('whole seconds since 1970-01-01T00:00:00Z, such as 1795392000');

/** Port numbers; 0 asks the system for a free one. */
const port = wholeNumber(0, 65535);
/** A quota or budget: at least one, or nothing would ever be answered. */
const quota = wholeNumber(1);
/** A byte budget: 0 turns the cache off. */
const bytes = wholeNumber(0);

/** A declaration, keeping whether it has a default in its type (so `Config` knows which values may be undefined). */
const declare = <T, D extends string | undefined = undefined>(variable: Variable<T> & { default?: D }) => variable as Variable<T> & { default: D };

export const VARIABLES = {
  PORT: declare({ when: ['serve'], what: 'the port to listen on (0: any free port)', parse: port, default: '4321' }),
  HOST: declare({ when: ['serve'], what: 'the address to listen on', parse: text(255), default: 'localhost' }),
  SITE_URL: declare({
    when: ['build', 'serve', 'sync', 'owner:idp'],
    what: "the site's absolute URL, for KML/GPX/calendar/feed links, blog post URLs and calendar UIDs; the MCP server card's URL, and the host `/mcp` accepts in `Host` and `Origin` (besides loopback); at serve time also the OAuth issuer and the resource `${SITE_URL}/owner/mcp`",
    parse: url('http', 'https'),
    unset: '`http://localhost:4321`',
  }),
  SITE_AUTHOR: declare({
    when: ['build', 'serve'],
    what: "the owner's name where `content/site.yaml` does not exist (the profile names the owner)",
    parse: text(200),
    unset: 'the demo owner',
  }),
  CURSOR_SECRET: declare({
    when: ['build'],
    what: 'secret the cursor signing key is derived from (stored in the image)',
    parse: text(),
    default: 'collections-demo-secret',
  }),
  SOURCE_DATE_EPOCH: declare({
    when: ['build', 'serve'],
    what: 'the build date, in whole seconds since 1970-01-01 UTC (the reproducible-builds convention): what the content rules compare dates with, and what settles a status left out',
    parse: epochSeconds,
    unset: 'the clock',
  }),
  CONTENT_DIR: declare({ when: ['build', 'serve', 'import', 'sync'], what: 'other content (e.g. generated)', parse: folder, default: 'content' }),
  DIST_DIR: declare({ when: ['build', 'serve', 'release'], what: 'another output folder inside the project', parse: folder, default: 'dist' }),
  TRUSTED_PROXIES: declare({ when: ['serve'], what: 'comma-separated proxy addresses whose `X-Forwarded-For` names the client', parse: list, default: '' }),
  ORIGIN_URL: declare({
    when: ['edge'],
    what: "the runtime's URL, where the Cloudflare Pages worker (`_worker.js`) sends what the static files do not answer; a Pages environment variable, never read by the build",
    parse: url('http', 'https'),
    unset: 'dynamic requests answer 502',
  }),
  ANSWER_CACHE_BYTES: declare({
    when: ['serve'],
    what: 'byte budget of the exact REST answer cache and of the GraphQL result cache, each (0 = off)',
    parse: bytes,
    default: String(LIMITS.answerCacheBytes),
  }),
  PAGE_CACHE_BYTES: declare({
    when: ['serve'],
    what: 'byte budget of the site pages rendered on request and remembered (0 = off)',
    parse: bytes,
    default: String(LIMITS.pageCacheBytes),
  }),
  RATE_LIMIT_REQUESTS: declare({
    when: ['serve'],
    what: "another collections quota than the SPEC's, per client and 60 s",
    parse: quota,
    default: String(LIMITS.restRequestsPerWindow),
  }),
  SQL_RATE_LIMIT_REQUESTS: declare({
    when: ['serve'],
    what: "another SQL quota than the SPEC's, per client and 60 s",
    parse: quota,
    default: String(LIMITS.sqlRequestsPerWindow),
  }),
  SQL_WARM: declare({
    when: ['serve'],
    what: "`0` starts the SQL workers at the first statement instead of at start: a server that answers little SQL (the tests' servers) saves their start, about 0.3 s of CPU",
    parse: flag,
    default: '1',
  }),
  GRAPHQL_COST_BUDGET: declare({
    when: ['serve'],
    what: 'another GraphQL cost budget, in points per client and 60 s',
    parse: quota,
    default: String(LIMITS.graphqlCostPerWindow),
  }),
  MCP_RATE_LIMIT_REQUESTS: declare({
    when: ['serve'],
    what: 'another MCP request quota, per client and 60 s',
    parse: quota,
    default: String(LIMITS.mcpRequestsPerWindow),
  }),
  MCP_TOOL_WORK_BUDGET: declare({
    when: ['serve'],
    what: 'another budget of MCP tool work, in units per client and 60 s',
    parse: quota,
    default: String(LIMITS.mcpToolWorkPerWindow),
  }),
  RPC_SESSION_LIMIT: declare({
    when: ['serve'],
    what: 'another RPC session quota, per address and 60 s',
    parse: quota,
    default: String(LIMITS.rpcSessionsPerWindow),
  }),
  DRAIN_DELAY_MS: declare({
    when: ['serve'],
    what: 'on SIGTERM, how long at most a process health-checked through `/api/status.json` keeps serving after it says `draining`, until its balancer has seen that and stopped sending (see "Several replicas"); a process nothing health-checks stops at once',
    parse: wholeNumber(0, 120_000),
    default: String(LIMITS.drainDelayMs),
  }),
  KEEP_ALIVE_TIMEOUT_MS: declare({
    when: ['serve'],
    what: "how long an idle keep-alive connection stays open; behind a load balancer that reuses its connections, set it above the balancer's own idle timeout (AWS ALB: 60 s), or the balancer may send a request on a connection this server is closing and answer its client 502",
    parse: wholeNumber(1000, 3_600_000),
    default: String(LIMITS.keepAliveTimeoutMs),
  }),
  REDIS_URL: declare({
    when: ['serve', 'release', 'test'],
    what: 'keep every quota in this Redis (or Valkey), shared by all replicas using it (`redis://host:6379`), and send and hear release notices there; the tests use it too (default there `redis://127.0.0.1:6379`)',
    parse: redisUrl,
    unset: 'quotas in process, as on one machine; no notices',
  }),
  REPLICAS: declare({
    when: ['serve'],
    what: 'how many replicas share the quotas: while Redis is away each counts alone at 1/`REPLICAS` of every quota',
    parse: wholeNumber(1, 1000),
    default: '1',
  }),
  REDIS_KEY_PREFIX: declare({
    when: ['serve', 'test'],
    what: 'put before every quota key, so sites or test runs sharing a Redis do not collide',
    parse: text(200),
    default: 'collections:quota:',
  }),
  RELEASES_DIR: declare({
    when: ['serve', 'release'],
    what: 'the folder every replica reads releases from, and `npm run release` publishes to (see "Several replicas")',
    parse: folder,
    unset: 'one server, no releases',
  }),
  RELEASES_CHANNEL: declare({ when: ['serve', 'release'], what: 'the Redis channel of release notices', parse: text(200), default: 'collections:releases' }),
  STATE_DIR: declare({
    when: ['serve', 'import', 'sync'],
    what: 'where the owner lane keeps its grants (`oauth.db`), its write journal (`owner-writes.jsonl`, which imports and syncs join) and the content lock every writer takes (`content-writer.lock`), and where a sync keeps what it remembers (`sync/`: cursors, ETags, a rotated refresh token); never inside `dist/`',
    parse: folder,
    default: 'state',
  }),
  OWNER_OIDC_ISSUER: declare({
    when: ['serve'],
    what: "the owner's OpenID Connect provider; with `OWNER_OIDC_CLIENT_ID` and `OWNER_SUBJECT`: all three, or none (the owner lane is then not set up)",
    parse: url('http', 'https'),
  }),
  OWNER_OIDC_CLIENT_ID: declare({ when: ['serve'], what: "this site's client at that provider", parse: text(500) }),
  OWNER_OIDC_CLIENT_SECRET: declare({ when: ['serve'], what: 'the client secret at that provider (omit for a public client, PKCE alone)', parse: text(2000) }),
  OWNER_SUBJECT: declare({ when: ['serve'], what: "the `sub` of the owner's account at that provider", parse: text(500) }),
  SYNC_CONFIG: declare({
    when: ['serve', 'sync'],
    what: 'the sync configuration file: one entry per service to keep current (see "Keeping it current")',
    parse: folder,
    default: 'sync.yaml',
  }),
  SYNC_INTERVAL: declare({
    when: ['serve'],
    what: `seconds between scheduled syncs on the writer (${LIMITS.syncIntervalMinSeconds} to ${LIMITS.syncIntervalMaxSeconds}), each source staggered within it`,
    parse: wholeNumber(LIMITS.syncIntervalMinSeconds, LIMITS.syncIntervalMaxSeconds),
    unset: 'no scheduled sync; `npm run sync` by hand or from cron',
  }),
  STRAVA_CLIENT_ID: declare({ when: ['serve', 'sync'], what: "the Strava API application's client id, for the `strava` sync", parse: text(100) }),
  STRAVA_CLIENT_SECRET: declare({ when: ['serve', 'sync'], what: "the Strava API application's client secret", parse: text(500) }),
  STRAVA_REFRESH_TOKEN: declare({
    when: ['serve', 'sync'],
    what: 'the first Strava refresh token (scope `activity:read`); the sync keeps every rotated one in `STATE_DIR` and uses that from then on',
    parse: text(500),
  }),
  GITHUB_TOKEN: declare({
    when: ['serve', 'sync'],
    what: 'a GitHub token for the `github` sync: a higher rate limit only (public events need none)',
    parse: text(500),
    unset: 'unauthenticated, 60 requests an hour',
  }),
  OAUTH_CIMD_ALLOW_LOOPBACK: declare({
    when: ['test'],
    what: '`1` lets Client ID Metadata Documents be fetched from loopback and private addresses (tests only)',
    parse: flag,
    default: '0',
  }),
  NODE_ENV: declare({ when: ['owner:idp'], what: '`production` makes the development identity provider refuse to start', parse: text(50) }),
  IDP_PORT: declare({ when: ['owner:idp'], what: "the development identity provider's port (0: any free port)", parse: port, default: '4400' }),
  REQUIRE_REDIS: declare({
    when: ['test'],
    what: '`1` makes the Redis tests fail, rather than skip, when no Redis answers at `REDIS_URL` (CI sets it)',
    parse: flag,
    default: '0',
  }),
  FC_SEED: declare({ when: ['test'], what: 'another seed for the property-based tests', parse: integer, default: '20261122' }),
  CHROMIUM_PATH: declare({
    when: ['test'],
    what: 'another Chromium for the browser tests to drive',
    parse: text(),
    unset: 'the one inside `@sparticuz/chromium`',
  }),
  UPDATE_GOLDEN: declare({
    when: ['test'],
    what: 'any value makes the import tests rewrite their golden files from the run (then read the diff)',
    parse: present,
  }),
} as const;

type Variables = typeof VARIABLES;
export type VariableName = keyof Variables;

/** One variable's value: its parser's type, or `undefined` too when it has no default. */
type ValueOf<V> = V extends { parse: Parser<infer T>; default: string } ? T : V extends { parse: Parser<infer T> } ? T | undefined : never;

/** The whole configuration, keyed by the variables' names. */
export type Config = { readonly [K in VariableName]: ValueOf<Variables[K]> };

/** An environment as `process.env` is one, or a test's object literal. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** Every bad value of one environment, one line per variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`Configuration: ${problems.join('\n  ')}`);
    this.problems = problems;
  }
}

/** Reads every declared variable of `env` once, checks each, applies the defaults; throws a `ConfigError` naming every variable at fault. */
export function readConfig(env: Environment): Config {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, variable] of Object.entries(VARIABLES) as [VariableName, Variable<unknown>][]) {
    const set = env[name];
    const raw = set === undefined || set === '' ? variable.default : set;
    if (raw === undefined) {
      values[name] = undefined;
      continue;
    }
    try {
      values[name] = variable.parse(raw);
    } catch (error) {
      problems.push(`${name} must be ${(error as Error).message}; got ${JSON.stringify(env[name])}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(values) as Config;
}

let processConfig: Config | undefined;

/**
 * This process's configuration: `process.env`, read on first use and then kept. Every
 * command reads it before it does any work, so a bad value stops the command here: the
 * message alone on stderr (a stack would say nothing more) and exit status 2, as for a
 * usage mistake. `readConfig` throws instead, for tests.
 */
export function config(): Config {
  if (processConfig) return processConfig;
  try {
    processConfig = readConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  return processConfig;
}
