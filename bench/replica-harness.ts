/**
 * Replicas on loopback, shared by the benchmark (bench/replicas.ts, bench/propagation.ts)
 * and the tests (tests/replicas/, tests/helpers/): whether a Redis answers, `npm run
 * serve`'s entry (`server.ts`) as separate processes stopped with SIGTERM as a container
 * runtime stops them, `npm run release` as a user runs it, an edited copy of a build, and
 * the owner lane's part: a token minted straight into the writer's store, one write
 * (`music.set_stance`), and the stance a replica serves.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { SqliteOAuthStore } from '../src/oauth/store.ts';
import { OAUTH_URLS } from '../src/urls.ts';
import { config } from '../src/config.ts';

/** The Redis the replicas share: `REDIS_URL`, else the machine's. */
export const REDIS_URL = config().REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Undefined when a Redis answers PING at `url`; otherwise why not. */
export async function redisProblem(url = REDIS_URL, connectTimeoutMs = 1000): Promise<string | undefined> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: connectTimeoutMs, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const pong = await redis.ping();
    return pong === 'PONG' ? undefined : `PING answered ${pong}`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    redis.disconnect();
  }
}

export interface Replica {
  base: string;
  /** `127.0.0.1:<port>`, for a load balancer. */
  address: string;
  child: ChildProcess;
  /** Everything the replica printed: stdout, and stderr unless it was passed through. */
  output(): string;
  /** SIGTERM, then its exit code (null when a signal ended it). */
  stop(): Promise<number | null>;
}

/**
 * `server.ts` with `npm run serve`'s V8 flags, on a free loopback port, with `env` over this
 * process's; its stderr is kept in `output()`, or passed through to this process's (`stderr: 'inherit'`).
 */
export async function startReplica(env: Record<string, string> = {}, options: { stderr?: 'pipe' | 'inherit' } = {}): Promise<Replica> {
  const child = spawn(process.execPath, ['--max-semi-space-size=4', 'server.ts'], {
    // No hand-off on SIGTERM unless a test asks for it (DRAIN_DELAY_MS): a test that read the status once would wait for a balancer it does not have.
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DRAIN_DELAY_MS: '0', ...env },
    stdio: ['ignore', 'pipe', options.stderr ?? 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`replica exited early (${code}): ${output}`)));
  });
  return {
    base,
    address: new URL(base).host,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      return code;
    },
  };
}

/** `npm run release` in its own process (a balancer in this one keeps answering meanwhile); returns the id it printed. */
export async function release(env: Record<string, string>): Promise<string> {
  const run = await promisify(execFile)(process.execPath, ['src/release/cli.ts'], { env: { ...process.env, ...env }, encoding: 'utf8' });
  return /release (\w+) published/.exec(run.stdout)![1]!;
}

/** A copy of the build in `from` at `to`, with one file's body and ETag changed, as a content edit would change them. */
export function editedBuild(from: string, to: string, marker: string): string {
  cpSync(from, to, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(to, 'headers.json'), 'utf8')) as Record<string, { file: string; headers: Record<string, string> }>;
  const entry = manifest['/llms.txt']!;
  writeFileSync(join(to, 'client', entry.file), `${readFileSync(join(to, 'client', entry.file), 'utf8')}\n${marker}\n`);
  entry.headers.ETag = `"${marker}"`;
  writeFileSync(join(to, 'headers.json'), JSON.stringify(manifest));
  return to;
}

/** The owner lane set up, so a minted grant's subject is the owner's; the provider is never contacted. */
export const OWNER_LANE = { OWNER_OIDC_ISSUER: 'http://127.0.0.1:9', OWNER_OIDC_CLIENT_ID: 'owner-tests', OWNER_SUBJECT: 'owner' };

/** An access token for `/owner/mcp` at `siteUrl`, straight into the store in `stateDir` (the OAuth flow has its own tests). */
export function mintOwnerToken(stateDir: string, siteUrl: string, name: string): string {
  const store = new SqliteOAuthStore(stateDir);
  const now = Date.now();
  const resource = `${siteUrl}${OAUTH_URLS.ownerMcp}`;
  const scopes = ['taste:read', 'taste:write'];
  store.createGrant({
    id: `grant-${name}`,
    clientId: `client-${name}`,
    clientName: name,
    subject: 'owner',
    scopes,
    resource,
    createdAt: now,
    lastUsedAt: null,
    revokedAt: null,
  });
  const token = randomBytes(32).toString('base64url');
  store.putToken(token, { grantId: `grant-${name}`, kind: 'access', clientId: `client-${name}`, scopes, resource, expiresAt: now + 3_600_000, usedAt: null });
  store.close();
  return token;
}

/** One JSON-RPC request to `/owner/mcp` at `base` with `token`, as an agent sends it. */
export function ownerRpc(base: string, token: string, method: string, params?: unknown, id = 1): Promise<Response> {
  return fetch(`${base}${OAUTH_URLS.ownerMcp}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-11-25',
      Authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }),
  });
}

/** What a write tool answers: its text, and whether it was a replay of an earlier write with the same `requestId`. */
export interface OwnerWriteResult {
  isError?: boolean;
  content: { text: string }[];
  structuredContent?: { replayed?: boolean };
}

/** One owner write at the writer: `music.set_stance`; returns the tool's result. */
export async function setStance(writer: string, token: string, canonicalId: string, stance: string, requestId: string): Promise<OwnerWriteResult> {
  const response = await ownerRpc(writer, token, 'tools/call', { name: 'music.set_stance', arguments: { canonicalId, stance, requestId } });
  return ((await response.json()) as { result: OwnerWriteResult }).result;
}

/** The stance `base` serves for a music record on the first page of 100 (the newest added). */
export async function stanceAt(base: string, canonicalId: string): Promise<string | undefined> {
  const page = (await (await fetch(`${base}/api/music.json?limit=100`)).json()) as { data: { canonicalId: string; stance?: string }[] };
  return page.data.find((item) => item.canonicalId === canonicalId)?.stance;
}

/** Milliseconds from `since` until `served(base)` holds on every one of `bases`, asked every `everyMs`; throws after `deadlineMs`. */
export async function untilServed(
  bases: readonly string[],
  since: number,
  served: (base: string) => Promise<boolean>,
  everyMs = 10,
  deadlineMs = 120_000,
): Promise<number> {
  for (const base of bases) {
    while (!(await served(base))) {
      if (performance.now() - since > deadlineMs) throw new Error(`${base} did not serve it within ${deadlineMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }
  return performance.now() - since;
}
