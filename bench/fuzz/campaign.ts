/**
 * One fuzz campaign: the cases of a seed, sent over `connections` keep-alive connections,
 * each answer checked by the oracle. Case i of seed S is always the same case (it is the
 * (i mod 256)-th value of `fc.sample` seeded from S and i div 256), so a seed replays.
 *
 * Incidents are handled once, with every worker paused: a crash (the process exited,
 * or the port refuses connections) or a freeze (a request timed out and the server does
 * not answer a probe either). A server the fuzzer started is killed and restarted, then
 * every request that was in flight is replayed alone against it to find the one that
 * crashes or freezes it; a server at --base can only be waited for (freeze) or given up
 * (crash). A hang that leaves the server answering others is a finding of its own.
 */
import fc from 'fast-check';
import { readContext, type Context } from './context.ts';
import { Connection, type Outcome, type RawRequest } from './http.ts';
import { checkExchange, checkHeadOfGet, FAILING, type Category, type Finding, type Planted } from './oracle.ts';
import { attach, spawnServer, type Target } from './spawn.ts';
import { surfaces as allSurfaces, type Case } from './surfaces.ts';
import { AUTHORITY, PLACEHOLDER, type CanaryClass } from './gen/common.ts';

export interface CampaignOptions {
  requests: number;
  seed: number;
  /** Attack a running server instead of starting one. */
  base?: string;
  /** Its process id, for RSS. */
  pid?: number;
  connections: number;
  /** Only these surfaces (route names, or `paths`). */
  only?: readonly string[];
  /** A request without a complete answer after this long is a hang. */
  timeoutMs: number;
  /** Shape findings fail the run too. */
  strictShape: boolean;
  /** Stop after this many crashes and freezes (each costs a restart and replays). */
  maxIncidents: number;
  /** Progress lines (stderr by default). */
  log?: (line: string) => void;
}

export interface Example {
  surface: string;
  request: RawRequest;
  /** Sent before `request` on the same connection. */
  after?: RawRequest;
  detail: string;
  status?: number;
}

/** Findings grouped by what they say, without what varies between requests (timings, sizes, tokens); the surfaces where each was seen. */
export interface FindingGroup {
  category: Category;
  signature: string;
  count: number;
  surfaces: Record<string, number>;
  examples: Example[];
}

export interface Incident {
  kind: 'crash' | 'freeze';
  exit?: { code: number | null; signal: string | null; stderr: string[] };
  /** The in-flight requests that reproduced a crash or freeze when replayed alone. */
  culprits: { surface: string; request: RawRequest; kind: 'crash' | 'freeze'; ms: number }[];
  /** The requests in flight when it happened. */
  suspects: { surface: string; request: RawRequest }[];
  /** A freeze that neither one of the suspects alone nor all of them together caused again (load, timing). */
  unreproduced?: boolean;
}

export interface CampaignReport {
  seed: number;
  requestsPlanned: number;
  requests: number;
  cases: number;
  replays: number;
  seconds: number;
  requestsPerSecond: number;
  /** Time spent restarting the server and replaying requests after crashes and freezes. */
  incidentSeconds: number;
  /** Requests per second outside incidents: the steady rate. */
  steadyRequestsPerSecond: number;
  connections: number;
  perSurface: Record<string, number>;
  statuses: Record<string, number>;
  counts: Record<Category, number>;
  groups: FindingGroup[];
  incidents: Incident[];
  /** Failures that did not happen again when their requests were replayed (load, timing): reported, not failing. */
  notes: string[];
  unreproduced: number;
  aborted?: string;
  rssMb: { before?: number; peak?: number; after?: number };
  restarts: number;
  serverStderrLines: number;
  failed: boolean;
  strictShape: boolean;
}

const BATCH = 256;
const EXAMPLES_PER_GROUP = 3;
const GROUPS_PER_CATEGORY = 40;
/** The server closes keep-alive connections idle for 5 s; never reuse one that old. */
const IDLE_REUSE_MS = 3000;
const PROBE_MS = 2000;
const HEARTBEAT_MS = 200;
/** The event loop held this long means some request blocks every other. */
const STALL_MS = 1000;
/** A request that, replayed alone, takes this long to answer is the one that held the event loop. */
const BLOCKER_MS = 2000;

/** A 32-bit mix of numbers (splitmix-like), for batch seeds and canary tokens. */
function mix(...values: number[]): number {
  let h = 0x9e3779b9;
  for (const v of values) {
    h = Math.imul(h ^ (v >>> 0), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** The cases of a seed, in order. */
function* cases(arbitrary: fc.Arbitrary<Case>, seed: number): Generator<Case> {
  for (let batch = 0; ; batch++) yield* fc.sample(arbitrary, { seed: mix(seed, batch) | 0, numRuns: BATCH });
}

/** Replaces the authority placeholder and each canary placeholder (with a token unique to the case). */
function finalize(c: Case, seed: number, index: number, authority: string): { requests: RawRequest[]; planted: Planted[][] } {
  let k = 0;
  const tokens: Planted[] = [];
  const replace = (s: string) =>
    s.replaceAll(AUTHORITY, authority).replace(PLACEHOLDER, (_, cls: CanaryClass) => {
      const token = `CANARY${cls}${mix(seed, index, k).toString(16).padStart(8, '0')}${(mix(index, k++, seed) & 0xff).toString(16).padStart(2, '0')}`;
      tokens.push({ token, cls });
      return token;
    });
  const planted: Planted[][] = [];
  const requests = c.requests.map((r) => {
    const before = tokens.length;
    const request: RawRequest = {
      ...r,
      method: replace(r.method),
      target: replace(r.target),
      headers: r.headers.map(([n, v]) => [replace(n), replace(v)] as const),
      body: r.body ? Buffer.from(replace(r.body.toString('latin1')), 'latin1') : undefined,
    };
    planted.push(tokens.slice(before));
    return request;
  });
  return { requests, planted };
}

/** The error a crashed process printed last (`TypeError: Invalid URL (ERR_INVALID_URL)`). */
function lastError(stderr: readonly string[]): string {
  const line = [...stderr].reverse().find((l) => /^\w*Error\b/.test(l.trim()))?.trim() ?? 'no error printed';
  const code = [...stderr].reverse().find((l) => /^\s*code: /.test(l))?.trim().replace(/^code: '?|'?,?$/g, '');
  return code ? `${line} (${code})` : line;
}

/** What a finding says, without what varies between requests: tokens, timings, sizes, long numbers (statuses stay). */
const signatureOf = (f: Finding) => f.detail.replace(/CANARY[a-z][0-9a-f]{10}/g, 'CANARY…').replace(/\d+ (ms|bytes)/g, 'N $1').replace(/\d{4,}|\d+\.\d+/g, 'N').replace(/…".*$/, '…').slice(0, 160);

export async function runCampaign(options: CampaignOptions): Promise<CampaignReport> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const target: Target = options.base ? attach(options.base, options.pid) : await spawnServer();
  const base = () => `http://${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`;
  const started = performance.now();
  const report: CampaignReport = {
    seed: options.seed,
    requestsPlanned: options.requests,
    requests: 0,
    cases: 0,
    replays: 0,
    seconds: 0,
    requestsPerSecond: 0,
    incidentSeconds: 0,
    steadyRequestsPerSecond: 0,
    connections: options.connections,
    perSurface: {},
    statuses: {},
    counts: Object.fromEntries(['crash', 'freeze', '5xx', 'reset', 'hang', 'protocol', 'echo', 'leak', 'shape'].map((c) => [c, 0])) as Record<Category, number>,
    groups: [],
    incidents: [],
    notes: [],
    unreproduced: 0,
    rssMb: {},
    restarts: 0,
    serverStderrLines: 0,
    failed: false,
    strictShape: options.strictShape,
  };
  let peak = 0;
  const samplePeak = () => {
    peak = Math.max(peak, target.peakRssMb() ?? 0, target.rssMb() ?? 0);
  };
  const sampler = setInterval(samplePeak, 250);
  let beating = true;

  try {
    const ctx: Context = await readContext(base());
    let surfaces = allSurfaces(ctx);
    if (options.only && options.only.length > 0) {
      const unknown = options.only.filter((name) => !surfaces.some((s) => s.name === name));
      if (unknown.length > 0) throw new Error(`unknown surface ${unknown.join(', ')}; the surfaces are ${surfaces.map((s) => s.name).join(', ')}`);
      surfaces = surfaces.filter((s) => options.only!.includes(s.name));
    }
    const arbitrary = fc.oneof(...surfaces.map((s) => ({ weight: s.weight, arbitrary: s.arbitrary })));
    report.rssMb.before = target.rssMb();
    samplePeak();

    const groups = new Map<string, FindingGroup>();
    const note = (line: string) => {
      report.unreproduced++;
      if (report.notes.length < 20) report.notes.push(line);
    };
    const record = (finding: Finding) => {
      report.counts[finding.category]++;
      const signature = signatureOf(finding);
      const key = `${finding.category} ${signature}`;
      let group = groups.get(key);
      if (!group) {
        if ([...groups.values()].filter((g) => g.category === finding.category).length >= GROUPS_PER_CATEGORY) return;
        group = { category: finding.category, signature, count: 0, surfaces: {}, examples: [] };
        groups.set(key, group);
      }
      group.count++;
      group.surfaces[finding.surface] = (group.surfaces[finding.surface] ?? 0) + 1;
      // Examples from different surfaces first.
      const fresh = !group.examples.some((e) => e.surface === finding.surface);
      if (group.examples.length < EXAMPLES_PER_GROUP || (fresh && group.examples.length < EXAMPLES_PER_GROUP * 2)) group.examples.push({ surface: finding.surface, request: finding.request, after: finding.after, detail: finding.detail, status: finding.status });
    };

    // ── the server's health ─────────────────────────────────────────────
    const send = async (request: RawRequest, timeoutMs = options.timeoutMs): Promise<Outcome> => {
      let connection: Connection;
      try {
        connection = await Connection.open(target.host, target.port, timeoutMs);
      } catch (error) {
        return { kind: 'reset', detail: (error as Error).message, receivedBytes: 0, ms: 0 };
      }
      const outcome = await connection.exchange(request, timeoutMs);
      connection.destroy();
      return outcome;
    };
    /** Two requests on one new connection, the second sent once the first is answered: the second's outcome (undefined if the first closed the connection). */
    const sendPair = async (first: RawRequest, second: RawRequest): Promise<Outcome | undefined> => {
      let connection: Connection;
      try {
        connection = await Connection.open(target.host, target.port, options.timeoutMs);
      } catch {
        return undefined;
      }
      const one = await connection.exchange(first, options.timeoutMs);
      const two = one.kind === 'response' && connection.usable(IDLE_REUSE_MS) ? await connection.exchange(second, options.timeoutMs) : undefined;
      connection.destroy();
      return two;
    };
    const probeRequest = (): RawRequest => ({ method: 'GET', target: '/api/status.json', version: 'HTTP/1.1', headers: [['Host', `${target.host}:${target.port}`]] });
    const answers = async () => (await send(probeRequest(), PROBE_MS)).kind === 'response';
    /** Whether the server is down: exited (ours), or refusing or not answering a probe. */
    const down = async (): Promise<'crash' | 'freeze' | undefined> => {
      if (target.owned) {
        for (let i = 0; i < 6 && !target.exited; i++) await new Promise((r) => setTimeout(r, 50));
        if (target.exited) return 'crash';
      }
      const probe = await send(probeRequest(), PROBE_MS);
      if (probe.kind === 'response') return undefined;
      if (target.owned && target.exited) return 'crash';
      return probe.kind === 'hang' ? 'freeze' : 'crash';
    };
    // A heartbeat: the status document every 200 ms on its own connection. A gap between its
    // answers is a time the event loop was held, whichever request held it.
    const beats: number[] = [];
    const heartbeat = (async () => {
      let connection: Connection | undefined;
      while (beating) {
        const began = performance.now();
        try {
          if (!connection?.usable(IDLE_REUSE_MS)) {
            connection?.destroy();
            connection = await Connection.open(target.host, target.port, PROBE_MS);
          }
          if ((await connection.exchange(probeRequest(), 60_000)).kind === 'response') beats.push(performance.now());
          if (beats.length > 4000) beats.splice(0, 2000);
        } catch {
          connection = undefined;
        }
        await new Promise((r) => setTimeout(r, Math.max(0, HEARTBEAT_MS - (performance.now() - began))));
      }
      connection?.destroy();
    })();
    /** Whether the event loop went STALL_MS or more without answering the heartbeat between `from` and `to`. */
    const stalled = (from: number, to: number) => {
      const inside = beats.filter((t) => t >= from && t <= to);
      const edges = [from, ...inside, to];
      return edges.some((t, i) => i > 0 && t - edges[i - 1]! >= STALL_MS);
    };

    const revive = async () => {
      samplePeak();
      if (target.owned) {
        await target.restart();
        report.restarts = target.restarts;
        return true;
      }
      // A server at --base: wait for a freeze to pass; a crash cannot be undone from here.
      for (let waited = 0; waited < 60_000; waited += PROBE_MS) if (await answers()) return true;
      return false;
    };

    // ── incidents ───────────────────────────────────────────────────────
    const inFlight = new Map<number, { surface: string; requests: RawRequest[] }>();
    // Cases finished just before an incident are suspects too: a server may answer and then fail
    // (on the bytes a request left behind, or on work after the answer), and a request with
    // broken framing may be answered by a close that looked like its own.
    const recent: { surface: string; requests: RawRequest[] }[] = [];
    const RECENT = options.connections * 2;
    let incident: Promise<void> | undefined;
    let aborted: string | undefined;
    const handleIncident = (kind: 'crash' | 'freeze'): Promise<void> =>
      (incident ??= (async () => {
        const began = performance.now();
        const suspects = [...new Set([...inFlight.values(), ...recent.toReversed()])];
        recent.length = 0;
        // Let every other exchange settle (a frozen server answers none; they time out).
        while (inFlight.size > 0) await new Promise((r) => setTimeout(r, 20));
        const exit = target.exited;
        // A dying process can look frozen for a moment; by now it has exited if it was a crash.
        const entry: Incident = { kind: exit ? 'crash' : kind, exit, culprits: [], suspects: suspects.flatMap((s) => s.requests.map((request) => ({ surface: s.surface, request }))) };
        log(`· ${entry.kind}${exit ? ` (exit ${exit.code ?? exit.signal})` : ''}; ${target.owned ? 'restarting the server' : 'waiting for the server'}, then replaying the ${suspects.length} case(s) in flight or just finished, one by one`);
        if (!(await revive())) {
          aborted = `the server ${kind === 'crash' ? 'stopped answering' : 'stayed frozen'}; it is not the fuzzer's to restart`;
        } else {
          for (const suspect of suspects) {
            if (aborted) break;
            report.replays += suspect.requests.length;
            for (const request of suspect.requests) {
              const outcome = await send(request);
              const slow = outcome.kind === 'response' && outcome.ms >= BLOCKER_MS ? 'freeze' : undefined;
              const state = slow ?? (outcome.kind === 'response' && !outcome.response.closes ? undefined : await down());
              if (state) {
                entry.culprits.push({ surface: suspect.surface, request, kind: target.exited ? 'crash' : state, ms: outcome.ms });
                if (!entry.exit && target.exited) entry.exit = target.exited;
                if (!(await revive())) {
                  aborted = 'the server did not come back after a replay; it is not the fuzzer\'s to restart';
                  break;
                }
                break;
              }
            }
          }
        }
        if (!aborted && entry.kind === 'freeze' && entry.culprits.length === 0) {
          // None froze it alone: all of them at once, as they were sent?
          const outcomes = await Promise.all(suspects.map(async (suspect) => {
            for (const request of suspect.requests) if ((await send(request)).kind !== 'response') return false;
            return true;
          }));
          if (outcomes.every(Boolean) && !(await down())) entry.unreproduced = true;
          else if (!(await revive())) aborted = 'the server stayed frozen; it is not the fuzzer\'s to restart';
        }
        report.incidents.push(entry);
        report.incidentSeconds += (performance.now() - began) / 1000;
        if (report.incidents.length >= options.maxIncidents) aborted ??= `stopped after ${report.incidents.length} crashes and freezes (--max-incidents)`;
        incident = undefined;
      })());

    // ── workers ─────────────────────────────────────────────────────────
    const sequence = cases(arbitrary, options.seed);
    let next = 0;
    const take = (): { c: Case; index: number } | undefined => {
      if (aborted || report.requests >= options.requests) return undefined;
      const index = next++;
      return { c: sequence.next().value as Case, index };
    };

    const worker = async (id: number) => {
      let connection: Connection | undefined;
      for (let item = take(); item; item = take()) {
        while (incident) await incident;
        if (aborted) return;
        const { requests, planted } = finalize(item.c, options.seed, item.index, `${target.host}:${target.port}`);
        report.cases++;
        report.perSurface[item.c.surface] = (report.perSurface[item.c.surface] ?? 0) + requests.length;
        inFlight.set(id, { surface: item.c.surface, requests });
        const outcomes: Outcome[] = [];
        for (let i = 0; i < requests.length; i++) {
          const request = requests[i]!;
          if (!connection?.usable(IDLE_REUSE_MS)) {
            connection?.destroy();
            try {
              connection = await Connection.open(target.host, target.port, options.timeoutMs);
            } catch {
              connection = undefined;
            }
          }
          report.requests++;
          const reused = connection && connection.sent > 0 ? connection.previous : undefined;
          let outcome: Outcome = connection ? await connection.exchange(request, options.timeoutMs) : { kind: 'reset', detail: 'connection refused', receivedBytes: 0, ms: 0 };
          report.statuses[outcome.kind === 'response' ? outcome.response.status : outcome.kind] = (report.statuses[outcome.kind === 'response' ? outcome.response.status : outcome.kind] ?? 0) + 1;
          if (outcome.kind === 'hang' || outcome.kind === 'reset') {
            // Whose failure is it? The whole server's (down, or its event loop held by some request
            // while this one waited): an incident. What the previous request left on a kept-alive
            // connection: a finding about that one. Else this request's own.
            const now = performance.now();
            const state = incident ? 'joined' : ((await down()) ?? (outcome.kind === 'hang' && stalled(now - outcome.ms, now) ? 'freeze' : undefined));
            if (state) {
              // The incident takes its suspects from inFlight when it starts: this case is still there.
              if (state !== 'joined') void handleIncident(state);
              inFlight.delete(id);
              while (incident) await incident;
              break;
            }
            if (reused) {
              // Answered on a new connection? Then it failed because of what came before it on this one:
              // replay the two on one connection, and report them together.
              const fresh = await send(request);
              if (fresh.kind === 'response') {
                const pair = await sendPair(reused.request, request);
                const failed = outcome.kind === 'reset' ? 'the connection closed without an answer' : 'no answer came';
                if (pair?.kind !== outcome.kind) note(`${failed} to ${request.method} ${request.target.slice(0, 80)} on a kept-alive connection; it did not fail again, alone or after the same request`);
                else if (!(outcome.kind === 'reset' && request.brokenFraming)) {
                  record({
                    category: outcome.kind,
                    surface: item.c.surface,
                    detail: `${failed} when this request followed another (answered ${reused.status}) on one kept-alive connection; on a new connection it is answered ${fresh.response.status}`,
                    request,
                    after: reused.request,
                  });
                }
                outcome = fresh;
              }
            } else if (outcome.kind === 'hang') {
              // The server answers others: does this request hang again on its own?
              const again = await send(request);
              if (again.kind === 'response') {
                note(`no answer in ${outcome.ms} ms to ${request.method} ${request.target.slice(0, 80)}; answered ${again.response.status} in ${again.ms} ms when sent again`);
                outcome = again;
              }
            }
          }
          outcomes.push(outcome);
          for (const finding of checkExchange(item.c.surface, request, planted[i]!, outcome)) record(finding);
        }
        if (item.c.headOfGet && outcomes.length === 2) for (const finding of checkHeadOfGet(item.c.surface, requests[0]!, outcomes[0]!, outcomes[1]!)) record(finding);
        const done = inFlight.get(id);
        inFlight.delete(id);
        if (done) {
          recent.push(done);
          if (recent.length > RECENT) recent.shift();
        }
        if (report.cases % 5000 === 0) log(`· ${report.requests} requests, ${Math.round(report.requests / ((performance.now() - started) / 1000))} req/s`);
      }
      connection?.destroy();
    };
    await Promise.all(Array.from({ length: options.connections }, (_, id) => worker(id)));
    while (incident) await incident;
    beating = false;
    await heartbeat;

    // Incidents become findings too, with the culprits as their examples.
    for (const entry of report.incidents) {
      const describe = (kind: 'crash' | 'freeze', ms?: number) =>
        kind === 'crash'
          ? `the server exited (${entry.exit ? `${entry.exit.signal ?? `code ${entry.exit.code}`}: ${lastError(entry.exit.stderr)}` : 'on replay'})`
          : ms !== undefined && ms < options.timeoutMs
            ? `the request held the event loop for ${Math.round(ms / 1000)} s when replayed alone (every other request waited; one of them hung)`
            : 'the server stopped answering (event loop blocked)';
      if (entry.unreproduced) {
        note(`the server stopped answering for a while (event loop held); none of the ${entry.suspects.length} requests in flight did it again, alone or together`);
        continue;
      }
      if (entry.culprits.length === 0) {
        record({ category: entry.kind, surface: '(unattributed)', detail: `${describe(entry.kind)}; no single in-flight request reproduced it alone (${entry.suspects.length} in flight)`, request: entry.suspects[0]?.request ?? probeRequest() });
      }
      for (const culprit of entry.culprits) record({ category: culprit.kind, surface: culprit.surface, detail: describe(culprit.kind, culprit.ms), request: culprit.request });
    }
    report.aborted = aborted;
    const order: Category[] = [...FAILING, 'shape'];
    report.groups = [...groups.values()].sort((a, b) => order.indexOf(a.category) - order.indexOf(b.category) || b.count - a.count);
    samplePeak();
    report.rssMb.after = target.rssMb();
  } finally {
    beating = false;
    clearInterval(sampler);
    report.seconds = (performance.now() - started) / 1000;
    report.requestsPerSecond = Math.round(report.requests / report.seconds);
    report.steadyRequestsPerSecond = Math.round(report.requests / Math.max(0.001, report.seconds - report.incidentSeconds));
    report.rssMb.peak = peak || undefined;
    report.serverStderrLines = target.stderrLines;
    await target.stop();
  }
  const failing = options.strictShape ? [...FAILING, 'shape' as const] : FAILING;
  report.failed = failing.some((c) => report.counts[c] > 0) || report.incidents.some((i) => !i.unreproduced) || report.aborted !== undefined;
  return report;
}
