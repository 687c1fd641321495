/**
 * What one sync source is: the importer of the same service it writes as (its
 * collection, its declared source-ID and date fields, its files and their order, all
 * from src/import/sources/*, never re-derived here), the service's default address, and
 * the reading of the service's feed or API into mapped items through the importer's own
 * mapping (`map(raw) → fields | skip | problem`). A source only asks and maps; the frame
 * (src/sync/run.ts) keeps its state and hands the records to the import frame.
 */
import type { ImportSource, Mapped } from '../import/source.ts';
import type { SourceClient } from './client.ts';
import type { SourceConfig, SourceName } from './config.ts';

/** The secrets a source may need, from the environment (src/config.ts); never in sync.yaml, never in content. */
export interface SyncSecrets {
  stravaClientId?: string | undefined;
  stravaClientSecret?: string | undefined;
  stravaRefreshToken?: string | undefined;
  githubToken?: string | undefined;
}

export interface SyncReadContext<N extends SourceName> {
  config: SourceConfig<N>;
  /** The service's address: `baseUrl` from sync.yaml, else the service's own. */
  base: URL;
  client: SourceClient;
  /** What the last successful run read up to; undefined on a first run, with `--since`, and for a full read (`--prune`). */
  cursor: string | undefined;
  /** `--since`: read from this day (`YYYY-MM-DD`) on. */
  since: string | undefined;
  secrets: SyncSecrets;
  /** The refresh token a previous run was given (it replaces the environment's). */
  refreshToken: string | undefined;
  /** Keeps a rotated refresh token at once, before anything else can fail: the old one no longer works. */
  keepRefreshToken(token: string): void;
  notice(message: string): void;
}

/** A mapped item and where it came from (`statuses page 2 [3]`). */
export interface SyncItem {
  origin: string;
  mapped: Mapped;
}

export interface SyncRead {
  /** Oldest first: a later item for the same record supersedes an earlier one. */
  items: SyncItem[];
  /** The newest point read, to start from next run; kept only once the records are written. */
  cursor?: string | undefined;
  /** The whole listing was read (no cursor, no budget cut): only then may `--prune` remove what is gone. */
  complete: boolean;
}

export interface SyncSource<N extends SourceName> {
  name: N;
  /** The importer of the same service: collection, source ID, date, files and order. */
  importer: ImportSource;
  defaultBase: string;
  /** Whether the service lists everything (so a record missing from a complete read was deleted upstream). */
  prunable: boolean;
  /**
   * Fields of the record this sync wrote before (and nobody edited) that a newer item
   * keeps: a film's `addedAt` (first logged) when a rewatch comes in.
   */
  carry?(previous: Readonly<Record<string, unknown>>, fields: Record<string, unknown>): Record<string, unknown>;
  read(context: SyncReadContext<N>): Promise<SyncRead>;
}
