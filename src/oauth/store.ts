/**
 * Where the owner lane keeps what must outlive a request: registered clients, grants,
 * authorization codes, tokens, and the short transactions of a sign-in (the browser's
 * trip to the identity provider and back, the consent form, the connected-clients
 * session). `OAuthStore` is the interface the rest of `src/oauth/` uses, so a shared
 * store can replace this one when several replicas serve; `SqliteOAuthStore` keeps it
 * in `STATE_DIR/oauth.db` (node:sqlite, WAL), so grants survive a restart.
 *
 * Secrets are never stored: every code, token and transaction key is kept as its SHA-256
 * hash (as Cloudflare's workers-oauth-provider does), so a copy of the database grants
 * nothing. The store hashes them itself, so no caller can store one raw by mistake.
 * Single use is decided in the database (`UPDATE … WHERE used_at IS NULL`), so two
 * requests racing with the same code or refresh token cannot both win.
 */
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

export const sha256 = (secret: string) => createHash('sha256').update(secret).digest('base64url');

/** A registered client's metadata as validated (src/oauth/clients.ts). */
export interface ClientMetadata {
  client_name?: string;
  client_uri?: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: 'none';
  scope?: string;
}

export interface ClientRecord {
  clientId: string;
  metadata: ClientMetadata;
  /** Milliseconds since the epoch. */
  createdAt: number;
  expiresAt: number;
}

/** What the owner approved for one client: the scopes, the resource, and who approved. */
export interface GrantRecord {
  id: string;
  clientId: string;
  clientName: string | undefined;
  subject: string;
  scopes: string[];
  resource: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** An authorization code's bindings (RFC 9700 §4.5: to client, redirect URI, PKCE challenge, scope and resource). */
export interface CodeRecord {
  clientId: string;
  clientName: string | undefined;
  subject: string;
  redirectUri: string;
  codeChallenge: string;
  scopes: string[];
  resource: string;
  expiresAt: number;
}

export type TokenKind = 'access' | 'refresh';

export interface TokenRecord {
  grantId: string;
  kind: TokenKind;
  clientId: string;
  scopes: string[];
  resource: string;
  expiresAt: number;
  /** When a refresh token was exchanged (rotated); null while unused, and always for access tokens. */
  usedAt: number | null;
}

export type TransactionKind = 'sign-in' | 'consent' | 'session';

export interface OAuthStore {
  putClient(client: ClientRecord): void;
  getClient(clientId: string): ClientRecord | undefined;

  createGrant(grant: GrantRecord): void;
  getGrant(id: string): GrantRecord | undefined;
  /** Grants not revoked, newest first. */
  listGrants(): GrantRecord[];
  /** Marks the grant revoked and forgets every token issued under it. */
  revokeGrant(id: string, at: number): void;
  touchGrant(id: string, at: number): void;
  /** Whether the client holds a grant the owner approved that is not revoked. */
  hasLiveGrant(clientId: string): boolean;
  /** Whether the client holds an authorization code not used and not expired at `at`. */
  hasLiveCode(clientId: string, at: number): boolean;

  putCode(code: string, record: CodeRecord): void;
  /**
   * Spends a code: its record, and whether this was its first use. A code used before
   * also gives the grant its first use created (`grantId`), so that grant can be revoked.
   */
  takeCode(code: string, at: number): { record: CodeRecord; first: boolean; grantId: string | null } | undefined;
  /** Records the grant a code's first use created. */
  setCodeGrant(code: string, grantId: string): void;

  putToken(token: string, record: TokenRecord): void;
  getToken(token: string): TokenRecord | undefined;
  /** Spends a refresh token: true the first time only. */
  useToken(token: string, at: number): boolean;
  deleteToken(token: string): void;

  /** A short-lived record keyed by a secret (a state value, a CSRF token, a session cookie). */
  putTransaction(key: string, kind: TransactionKind, data: unknown, expiresAt: number): void;
  /** Reads and forgets it (single use); undefined when absent, of another kind, or expired. */
  takeTransaction(key: string, kind: TransactionKind, at: number): unknown;
  /** Reads it and leaves it (sessions). */
  getTransaction(key: string, kind: TransactionKind, at: number): unknown;

  /** Forgets what has expired: codes, tokens, transactions, and clients past their expiry. */
  purge(at: number): void;
  close(): void;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS clients (client_id TEXT PRIMARY KEY, metadata TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS grants (id TEXT PRIMARY KEY, client_id TEXT NOT NULL, client_name TEXT, subject TEXT NOT NULL, scopes TEXT NOT NULL, resource TEXT NOT NULL,
  created_at INTEGER NOT NULL, last_used_at INTEGER, revoked_at INTEGER);
CREATE TABLE IF NOT EXISTS codes (hash TEXT PRIMARY KEY, record TEXT NOT NULL, expires_at INTEGER NOT NULL, used_at INTEGER, grant_id TEXT);
CREATE TABLE IF NOT EXISTS tokens (hash TEXT PRIMARY KEY, grant_id TEXT NOT NULL, kind TEXT NOT NULL, client_id TEXT NOT NULL, scopes TEXT NOT NULL, resource TEXT NOT NULL,
  expires_at INTEGER NOT NULL, used_at INTEGER);
CREATE INDEX IF NOT EXISTS tokens_by_grant ON tokens (grant_id);
CREATE INDEX IF NOT EXISTS grants_by_client ON grants (client_id);
CREATE TABLE IF NOT EXISTS transactions (hash TEXT PRIMARY KEY, kind TEXT NOT NULL, data TEXT NOT NULL, expires_at INTEGER NOT NULL);
`;

type Row = Record<string, string | number | null>;

const grantOf = (row: Row): GrantRecord => ({
  id: row.id as string,
  clientId: row.client_id as string,
  clientName: (row.client_name as string | null) ?? undefined,
  subject: row.subject as string,
  scopes: JSON.parse(row.scopes as string) as string[],
  resource: row.resource as string,
  createdAt: row.created_at as number,
  lastUsedAt: row.last_used_at as number | null,
  revokedAt: row.revoked_at as number | null,
});

export class SqliteOAuthStore implements OAuthStore {
  private readonly db: DatabaseSync;

  /** Opens (creating) `oauth.db` in `stateDir`; `:memory:` keeps it in this process only. */
  constructor(stateDir: string | ':memory:') {
    if (stateDir !== ':memory:') {
      mkdirSync(stateDir, { recursive: true, mode: 0o700 });
      // Created 0600 before SQLite opens it (SQLite gives its -wal and -shm files the database's mode): hashes, but of grants.
      const file = join(stateDir, 'oauth.db');
      closeSync(openSync(file, 'a', 0o600));
      chmodSync(file, 0o600);
    }
    this.db = new DatabaseSync(stateDir === ':memory:' ? ':memory:' : join(stateDir, 'oauth.db'));
    // busy_timeout first: several processes (tests, a restart overlapping its predecessor) may open the file at once.
    // WAL: readers (token checks) never wait for a writer; NORMAL is durable at each checkpoint and never corrupts.
    this.db.exec('PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
    this.db.exec(SCHEMA);
  }

  private get(sql: string, ...params: (string | number | null)[]): Row | undefined {
    return this.db.prepare(sql).get(...params) as Row | undefined;
  }

  private run(sql: string, ...params: (string | number | null)[]): number {
    return Number(this.db.prepare(sql).run(...params).changes);
  }

  putClient(client: ClientRecord): void {
    this.run('INSERT OR REPLACE INTO clients VALUES (?, ?, ?, ?)', client.clientId, JSON.stringify(client.metadata), client.createdAt, client.expiresAt);
  }

  getClient(clientId: string): ClientRecord | undefined {
    const row = this.get('SELECT * FROM clients WHERE client_id = ?', clientId);
    if (!row) return undefined;
    return {
      clientId,
      metadata: JSON.parse(row.metadata as string) as ClientMetadata,
      createdAt: row.created_at as number,
      expiresAt: row.expires_at as number,
    };
  }

  createGrant(g: GrantRecord): void {
    this.run(
      'INSERT INTO grants VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      g.id,
      g.clientId,
      g.clientName ?? null,
      g.subject,
      JSON.stringify(g.scopes),
      g.resource,
      g.createdAt,
      g.lastUsedAt,
      g.revokedAt,
    );
  }

  getGrant(id: string): GrantRecord | undefined {
    const row = this.get('SELECT * FROM grants WHERE id = ?', id);
    return row && grantOf(row);
  }

  listGrants(): GrantRecord[] {
    return (this.db.prepare('SELECT * FROM grants WHERE revoked_at IS NULL ORDER BY created_at DESC, id').all() as Row[]).map(grantOf);
  }

  revokeGrant(id: string, at: number): void {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      this.run('UPDATE grants SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', at, id);
      this.run('DELETE FROM tokens WHERE grant_id = ?', id);
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  touchGrant(id: string, at: number): void {
    this.run('UPDATE grants SET last_used_at = ? WHERE id = ?', at, id);
  }

  hasLiveGrant(clientId: string): boolean {
    return this.get('SELECT 1 AS live FROM grants WHERE client_id = ? AND revoked_at IS NULL LIMIT 1', clientId) !== undefined;
  }

  hasLiveCode(clientId: string, at: number): boolean {
    // Codes live 60 s and are purged, so the table is small: no index on the record's client.
    return (
      this.get("SELECT 1 AS live FROM codes WHERE used_at IS NULL AND expires_at > ? AND json_extract(record, '$.clientId') = ? LIMIT 1", at, clientId) !==
      undefined
    );
  }

  putCode(code: string, record: CodeRecord): void {
    this.run('INSERT INTO codes (hash, record, expires_at) VALUES (?, ?, ?)', sha256(code), JSON.stringify(record), record.expiresAt);
  }

  takeCode(code: string, at: number): { record: CodeRecord; first: boolean; grantId: string | null } | undefined {
    const hash = sha256(code);
    const first = this.run('UPDATE codes SET used_at = ? WHERE hash = ? AND used_at IS NULL', at, hash) === 1;
    const row = this.get('SELECT record, grant_id FROM codes WHERE hash = ?', hash);
    if (!row) return undefined;
    return { record: JSON.parse(row.record as string) as CodeRecord, first, grantId: row.grant_id as string | null };
  }

  setCodeGrant(code: string, grantId: string): void {
    this.run('UPDATE codes SET grant_id = ? WHERE hash = ?', grantId, sha256(code));
  }

  putToken(token: string, r: TokenRecord): void {
    this.run(
      'INSERT INTO tokens VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      sha256(token),
      r.grantId,
      r.kind,
      r.clientId,
      JSON.stringify(r.scopes),
      r.resource,
      r.expiresAt,
      r.usedAt,
    );
  }

  getToken(token: string): TokenRecord | undefined {
    const row = this.get('SELECT * FROM tokens WHERE hash = ?', sha256(token));
    if (!row) return undefined;
    return {
      grantId: row.grant_id as string,
      kind: row.kind as TokenKind,
      clientId: row.client_id as string,
      scopes: JSON.parse(row.scopes as string) as string[],
      resource: row.resource as string,
      expiresAt: row.expires_at as number,
      usedAt: row.used_at as number | null,
    };
  }

  useToken(token: string, at: number): boolean {
    return this.run('UPDATE tokens SET used_at = ? WHERE hash = ? AND used_at IS NULL', at, sha256(token)) === 1;
  }

  deleteToken(token: string): void {
    this.run('DELETE FROM tokens WHERE hash = ?', sha256(token));
  }

  putTransaction(key: string, kind: TransactionKind, data: unknown, expiresAt: number): void {
    this.run('INSERT OR REPLACE INTO transactions VALUES (?, ?, ?, ?)', sha256(key), kind, JSON.stringify(data), expiresAt);
  }

  takeTransaction(key: string, kind: TransactionKind, at: number): unknown {
    const hash = sha256(key);
    const row = this.get('DELETE FROM transactions WHERE hash = ? RETURNING kind, data, expires_at', hash);
    if (!row || row.kind !== kind || (row.expires_at as number) <= at) return undefined;
    return JSON.parse(row.data as string);
  }

  getTransaction(key: string, kind: TransactionKind, at: number): unknown {
    const row = this.get('SELECT kind, data, expires_at FROM transactions WHERE hash = ?', sha256(key));
    if (!row || row.kind !== kind || (row.expires_at as number) <= at) return undefined;
    return JSON.parse(row.data as string);
  }

  purge(at: number): void {
    // Used refresh tokens are kept until they expire: a replay of one must still be recognised (and revoke its grant).
    this.run('DELETE FROM tokens WHERE expires_at <= ?', at);
    // Used codes likewise, until well past their lifetime, so a late replay still revokes what they issued.
    this.run('DELETE FROM codes WHERE expires_at <= ?', at - 24 * 3600 * 1000);
    this.run('DELETE FROM transactions WHERE expires_at <= ?', at);
    // Expired clients are kept a month longer, so their requests hear "expired" rather than "unknown".
    this.run('DELETE FROM clients WHERE expires_at <= ?', at - 30 * 24 * 3600 * 1000);
  }

  close(): void {
    this.db.close();
  }
}
