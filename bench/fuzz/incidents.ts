/**
 * Crashes and freezes of the whole server, handled once each while every worker waits:
 * the server is brought back (restarted when the fuzzer owns it), then each case that was
 * in flight or had just finished is replayed alone to find the one that crashes it or
 * holds its event loop. A freeze that none of them causes alone is tried with all of them
 * at once; if that does not freeze it either, it was load or timing, and is a note.
 */
import type { Findings } from './findings.ts';
import type { Health } from './health.ts';
import type { RawRequest } from './http.ts';
import type { Target } from './spawn.ts';

/** A request that, replayed alone, takes this long to answer is the one that held the event loop. */
const BLOCKER_MS = 2000;

export interface Suspect {
  surface: string;
  requests: RawRequest[];
  /** The case of the seed. */
  index: number;
}

export interface Incident {
  kind: 'crash' | 'freeze';
  exit?: { code: number | null; signal: string | null; stderr: string[] };
  /** The requests that crashed or held the server when replayed alone. */
  culprits: { surface: string; request: RawRequest; kind: 'crash' | 'freeze'; ms: number; index: number }[];
  /** The requests in flight or just finished when it happened. */
  suspects: { surface: string; request: RawRequest }[];
  /** A freeze that neither one of the suspects alone nor all of them together caused again. */
  unreproduced?: boolean;
}

export interface IncidentOptions {
  connections: number;
  maxIncidents: number;
  timeoutMs: number;
  log: (line: string) => void;
  /** Called before the server is brought back (the RSS sampler reads the old process's peak). */
  beforeRevive: () => void;
}

/** The error a crashed process printed last (`TypeError: Invalid URL (ERR_INVALID_URL)`). */
function lastError(stderr: readonly string[]): string {
  const line =
    [...stderr]
      .reverse()
      .find((l) => /^\w*Error\b/.test(l.trim()))
      ?.trim() ?? 'no error printed';
  const code = [...stderr]
    .reverse()
    .find((l) => /^\s*code: /.test(l))
    ?.trim()
    .replace(/^code: '?|'?,?$/g, '');
  return code ? `${line} (${code})` : line;
}

export class Incidents {
  readonly list: Incident[] = [];
  seconds = 0;
  replays = 0;
  aborted: string | undefined;
  private current: Promise<void> | undefined;
  private readonly inFlight = new Map<number, Suspect>();
  // Cases finished just before an incident are suspects too: a server may answer and then fail
  // (on the bytes a request left behind, or on work after the answer), and a request with
  // broken framing may be answered by a close that looked like its own.
  private readonly recent: Suspect[] = [];

  private readonly target: Target;
  private readonly health: Health;
  private readonly options: IncidentOptions;

  constructor(target: Target, health: Health, options: IncidentOptions) {
    this.target = target;
    this.health = health;
    this.options = options;
  }

  get active(): boolean {
    return this.current !== undefined;
  }

  async settled(): Promise<void> {
    while (this.current) await this.current;
  }

  begin(worker: number, suspect: Suspect): void {
    this.inFlight.set(worker, suspect);
  }

  end(worker: number, finished: boolean): void {
    const suspect = this.inFlight.get(worker);
    this.inFlight.delete(worker);
    if (suspect && finished) {
      this.recent.push(suspect);
      if (this.recent.length > this.options.connections * 2) this.recent.shift();
    }
  }

  /** Starts handling a crash or freeze (or joins the one under way); its suspects are taken now. */
  handle(kind: 'crash' | 'freeze'): Promise<void> {
    return (this.current ??= this.run(kind).finally(() => {
      this.current = undefined;
    }));
  }

  private async run(kind: 'crash' | 'freeze'): Promise<void> {
    const { target, health, options } = this;
    const began = performance.now();
    const suspects = [...new Set([...this.inFlight.values(), ...this.recent.toReversed()])];
    this.recent.length = 0;
    // Let every other exchange settle (a frozen server answers none; they time out).
    while (this.inFlight.size > 0) await new Promise((r) => setTimeout(r, 20));
    const exit = target.exited;
    // A dying process can look frozen for a moment; by now it has exited if it was a crash.
    const entry: Incident = {
      kind: exit ? 'crash' : kind,
      exit,
      culprits: [],
      suspects: suspects.flatMap((s) => s.requests.map((request) => ({ surface: s.surface, request }))),
    };
    options.log(
      `· ${entry.kind}${exit ? ` (exit ${exit.code ?? exit.signal})` : ''}; ${target.owned ? 'restarting the server' : 'waiting for the server'}, then replaying the ${suspects.length} case(s) in flight or just finished, one by one`,
    );
    const revive = async () => {
      options.beforeRevive();
      if (await health.revive()) return true;
      this.aborted ??= `the server ${entry.kind === 'crash' ? 'stopped answering' : 'stayed frozen'}; it is not the fuzzer's to restart`;
      return false;
    };
    if (await revive()) {
      for (const suspect of suspects) {
        if (this.aborted) break;
        this.replays += suspect.requests.length;
        for (const request of suspect.requests) {
          const outcome = await health.send(request);
          const slow = outcome.kind === 'response' && outcome.ms >= BLOCKER_MS ? 'freeze' : undefined;
          const state = slow ?? (outcome.kind === 'response' && !outcome.response.closes ? undefined : await health.down());
          if (!state) continue;
          entry.culprits.push({ surface: suspect.surface, request, kind: target.exited ? 'crash' : state, ms: outcome.ms, index: suspect.index });
          entry.exit ??= target.exited;
          await revive();
          break;
        }
      }
    }
    if (!this.aborted && entry.kind === 'freeze' && entry.culprits.length === 0) {
      // None froze it alone: all of them at once, as they were sent?
      const answered = await Promise.all(
        suspects.map(async (suspect) => {
          for (const request of suspect.requests) if ((await health.send(request)).kind !== 'response') return false;
          return true;
        }),
      );
      if (answered.every(Boolean) && !(await health.down())) entry.unreproduced = true;
      else await revive();
    }
    this.list.push(entry);
    this.seconds += (performance.now() - began) / 1000;
    if (this.list.length >= options.maxIncidents) this.aborted ??= `stopped after ${this.list.length} crashes and freezes (--max-incidents)`;
  }

  /** Each incident as findings, its culprits as the examples (or a note, when it did not happen again). */
  report(findings: Findings, fallback: RawRequest): void {
    for (const entry of this.list) {
      const describe = (kind: 'crash' | 'freeze', ms?: number) =>
        kind === 'crash'
          ? `the server exited (${entry.exit ? `${entry.exit.signal ?? `code ${entry.exit.code}`}: ${lastError(entry.exit.stderr)}` : 'on replay'})`
          : ms !== undefined && ms < this.options.timeoutMs
            ? `the request held the event loop for ${Math.round(ms / 1000)} s when replayed alone (every other request waited; one of them hung)`
            : 'the server stopped answering (event loop blocked)';
      if (entry.unreproduced) {
        findings.note(
          `the server stopped answering for a while (event loop held); none of the ${entry.suspects.length} requests in flight did it again, alone or together`,
        );
        continue;
      }
      if (entry.culprits.length === 0) {
        findings.record({
          category: entry.kind,
          surface: '(unattributed)',
          detail: `${describe(entry.kind)}; no single in-flight request reproduced it alone (${entry.suspects.length} in flight)`,
          request: entry.suspects[0]?.request ?? fallback,
        });
      }
      for (const culprit of entry.culprits)
        findings.record({
          category: culprit.kind,
          surface: culprit.surface,
          detail: describe(culprit.kind, culprit.ms),
          request: culprit.request,
          index: culprit.index,
        });
    }
  }
}
