/**
 * One fuzz campaign: the cases of a seed (sequence.ts) sent over `connections` keep-alive
 * connections, each answer checked by the oracle (oracle.ts). A reset or hang is first
 * asked whose it is: the whole server's (down, or its event loop held while the request
 * waited) is an incident (incidents.ts: restart, replay, find the culprit); the request
 * before it on a kept-alive connection (replayed as a pair) is a finding about the two;
 * one that does not happen again is a note; else it is the request's own.
 */
import { readContext } from './context.ts';
import { Findings, type FindingGroup } from './findings.ts';
import { Health, IDLE_REUSE_MS } from './health.ts';
import { Connection, type Outcome } from './http.ts';
import { Incidents, type Incident } from './incidents.ts';
import { checkExchange, checkHeadOfGet, FAILING, type Category } from './oracle.ts';
import { cases, finalize } from './sequence.ts';
import { attach, spawnServer, type Target } from './spawn.ts';
import { casesOf, type Case } from './surfaces.ts';

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
  /** Answers of 500 and up, by surface and status, documented 503s included (`counts['5xx']` has the failing ones). */
  serverErrors: Record<string, Record<string, number>>;
  counts: Record<Category, number>;
  groups: FindingGroup[];
  incidents: Incident[];
  /** Failures that did not happen again when their requests were replayed (load, timing): reported, not failing. */
  notes: string[];
  unreproduced: number;
  aborted?: string;
  rssMb: { before?: number; peak?: number; after?: number };
  /**
   * Event-loop delay in ms: the server's as it measured it (loop-monitor.ts, when the
   * fuzzer started it; since the last process started listening), and the longest hold of
   * the fuzzer's own (which a freeze verdict discounts).
   */
  eventLoop: { server?: { maxMs: number; p99Ms: number; meanMs: number }; fuzzerMaxMs?: number };
  restarts: number;
  serverStderrLines: number;
  failed: boolean;
  strictShape: boolean;
}

export async function runCampaign(options: CampaignOptions): Promise<CampaignReport> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const target: Target = options.base ? attach(options.base, options.pid) : await spawnServer();
  const base = `http://${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`;
  const started = performance.now();
  const findings = new Findings();
  const health = new Health(target, options.timeoutMs);
  let peak = 0;
  const samplePeak = () => {
    peak = Math.max(peak, target.peakRssMb() ?? 0, target.rssMb() ?? 0);
  };
  const incidents = new Incidents(target, health, { ...options, log, beforeRevive: samplePeak });
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
    serverErrors: {},
    counts: findings.counts,
    groups: [],
    incidents: incidents.list,
    notes: findings.notes,
    unreproduced: 0,
    rssMb: {},
    eventLoop: {},
    restarts: 0,
    serverStderrLines: 0,
    failed: false,
    strictShape: options.strictShape,
  };
  const sampler = setInterval(samplePeak, 250);

  try {
    const ctx = await readContext(base);
    const sequence = cases(casesOf(ctx, options.only), options.seed);
    const routes = new Map(ctx.routes.map((r) => [r.name, r]));
    report.rssMb.before = target.rssMb();
    samplePeak();
    health.startWatching();

    let next = 0;
    const take = (): { c: Case; index: number } | undefined => {
      if (incidents.aborted || report.requests >= options.requests) return undefined;
      return { c: sequence.next().value as Case, index: next++ };
    };

    const worker = async (id: number) => {
      let connection: Connection | undefined;
      for (let item = take(); item; item = take()) {
        await incidents.settled();
        if (incidents.aborted) break;
        const { c, index } = item;
        const { requests, planted } = finalize(c, options.seed, index, `${target.host}:${target.port}`);
        report.cases++;
        report.perSurface[c.surface] = (report.perSurface[c.surface] ?? 0) + requests.length;
        incidents.begin(id, { surface: c.surface, requests, index });
        const outcomes: Outcome[] = [];
        let interrupted = false;
        for (let i = 0; i < requests.length && !interrupted; i++) {
          const request = requests[i]!;
          if (!connection?.usable(IDLE_REUSE_MS)) {
            connection?.destroy();
            connection = await Connection.open(target.host, target.port, options.timeoutMs).catch(() => undefined);
          }
          report.requests++;
          const reused = connection && connection.sent > 0 ? connection.previous : undefined;
          let outcome: Outcome = connection
            ? await connection.exchange(request, options.timeoutMs)
            : { kind: 'reset', detail: 'connection refused', receivedBytes: 0, ms: 0 };
          const status = outcome.kind === 'response' ? outcome.response.status : outcome.kind;
          report.statuses[status] = (report.statuses[status] ?? 0) + 1;
          if (typeof status === 'number' && status >= 500) {
            const bySurface = (report.serverErrors[c.surface] ??= {});
            bySurface[status] = (bySurface[status] ?? 0) + 1;
          }
          if (outcome.kind === 'hang' || outcome.kind === 'reset') {
            // The whole server's failure? Down, or its event loop held while this request waited.
            const now = performance.now();
            const state = incidents.active
              ? 'joined'
              : ((await health.down()) ?? (outcome.kind === 'hang' && (await health.stalled(now - outcome.ms, now)) ? 'freeze' : undefined));
            if (state) {
              // The incident takes its suspects when it starts: this case is still among them.
              if (state !== 'joined') void incidents.handle(state);
              interrupted = true;
              break;
            }
            // Sent again on a new connection: answered now? (Not for a reset on a fresh connection: that one is the request's.)
            const fresh = reused || outcome.kind === 'hang' || !connection ? await health.send(request) : undefined;
            if (fresh?.kind === 'response') {
              if (reused) {
                // Answered on a new connection: it failed because of what came before it on this one.
                const pair = await health.sendPair(reused.request, request);
                const failed = outcome.kind === 'reset' ? 'the connection closed without an answer' : 'no answer came';
                if (pair?.kind !== outcome.kind)
                  findings.note(
                    `${failed} to ${request.method} ${request.target.slice(0, 80)} on a kept-alive connection; it did not fail again, alone or after the same request`,
                  );
                else if (!(outcome.kind === 'reset' && request.brokenFraming)) {
                  findings.record({
                    category: outcome.kind,
                    surface: c.surface,
                    detail: `${failed} when this request followed another (answered ${reused.status}) on one kept-alive connection; on a new connection it is answered ${fresh.response.status}`,
                    request,
                    after: reused.request,
                    index,
                  });
                }
              } else {
                findings.note(
                  `${outcome.kind === 'hang' ? `no answer in ${outcome.ms} ms` : 'no connection'} to ${request.method} ${request.target.slice(0, 80)}; answered ${fresh.response.status} in ${fresh.ms} ms when sent again`,
                );
              }
              outcome = fresh;
            }
          }
          outcomes.push(outcome);
          for (const finding of checkExchange(c.surface, request, planted[i]!, outcome, routes.get(c.surface))) findings.record({ ...finding, index });
        }
        if (c.headOfGet && outcomes.length === 2)
          for (const finding of checkHeadOfGet(c.surface, requests[0]!, outcomes[0]!, outcomes[1]!)) findings.record({ ...finding, index });
        incidents.end(id, !interrupted);
        if (interrupted) await incidents.settled();
        if (report.cases % 5000 === 0) log(`· ${report.requests} requests, ${Math.round(report.requests / ((performance.now() - started) / 1000))} req/s`);
      }
      connection?.destroy();
    };
    await Promise.all(Array.from({ length: options.connections }, (_, id) => worker(id)));
    await incidents.settled();
    report.eventLoop.server = (await target.loopDelay?.(0, 2000))?.run;
    await health.stopWatching();
    incidents.report(findings, health.probeRequest());
    samplePeak();
    report.rssMb.after = target.rssMb();
  } finally {
    await health.stopWatching();
    report.eventLoop.fuzzerMaxMs = health.own.maxMs;
    clearInterval(sampler);
    report.groups = findings.sorted();
    report.unreproduced = findings.unreproduced;
    report.aborted = incidents.aborted;
    report.replays = incidents.replays;
    report.incidentSeconds = incidents.seconds;
    report.restarts = target.restarts;
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
