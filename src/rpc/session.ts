/**
 * One RPC session's accounting: which transport it runs on (some members need a
 * WebSocket), and its two budgets (SPEC §8). Every capability method charges the session
 * where it runs — so `.map()` replays and pipelined calls are counted like any other
 * call — one call, plus its weight of work: a page read weighs its rows plus one, an
 * export its rows plus one per KiB. Exhausting either budget fails that call and every
 * later one with RESOURCE_LIMIT; the session is not charged for calls it refused.
 */
import { LIMITS } from '../core/limits.ts';
import { RpcError } from './errors.ts';

export type Transport = 'batch' | 'websocket';

export interface SessionBudgets {
  calls: number;
  work: number;
}

export const DEFAULT_BUDGETS: SessionBudgets = { calls: LIMITS.rpcSessionCallsMax, work: LIMITS.rpcSessionWorkMax };

/** The largest export body per transport: a batch answer is buffered whole, so it is bounded tighter (SPEC §8). */
export const DEFAULT_EXPORT_BYTES: Readonly<Record<Transport, number>> = { batch: LIMITS.rpcBatchExportBytesMax, websocket: LIMITS.rpcExportBytesMax };

export class Session {
  readonly transport: Transport;
  /** The largest export body this session may receive. */
  readonly exportBytesMax: number;
  private readonly budgets: SessionBudgets;
  private calls = 0;
  private work = 0;

  constructor(transport: Transport, budgets: SessionBudgets = DEFAULT_BUDGETS, exportBytesMax: number = DEFAULT_EXPORT_BYTES[transport]) {
    this.transport = transport;
    this.exportBytesMax = exportBytesMax;
    this.budgets = budgets;
  }

  /** Counts one call of `member`; throws RESOURCE_LIMIT when the call budget is spent. */
  call(member: string): void {
    if (this.calls >= this.budgets.calls) {
      throw new RpcError('RESOURCE_LIMIT', `${member}: this session made its ${this.budgets.calls} calls; start a new session.`);
    }
    this.calls += 1;
  }

  /** Spends `units` of work for `member`; throws RESOURCE_LIMIT when they do not fit in what is left. */
  spend(member: string, units: number): void {
    if (this.work + units > this.budgets.work) {
      throw new RpcError(
        'RESOURCE_LIMIT',
        `${member}: this session spent its work budget (${this.budgets.work} units: a page costs its rows plus one); start a new session.`,
      );
    }
    this.work += units;
  }

  /** Refuses members that need a WebSocket session when this one is an HTTP batch. */
  requireWebSocket(member: string): void {
    if (this.transport !== 'websocket') {
      throw new RpcError(
        'WEBSOCKET_REQUIRED',
        `${member} needs a WebSocket session; over HTTP batch, resume with pageAfter(info().endCursor) on a new session.`,
      );
    }
  }

  /** What is left, for tests and the session's description. */
  get remaining(): SessionBudgets {
    return { calls: this.budgets.calls - this.calls, work: this.budgets.work - this.work };
  }
}
