/**
 * The image writer's thread: the compile computes every row on the main thread and posts
 * them here, where SQLite inserts them and builds the indexes (half of a build's work) while
 * the main thread reads and checks the next collection. Messages are handled in the order
 * they were posted, on one connection, so the file is the same as written from one thread.
 * Between `commit` and `close` the file is in write-ahead-log mode, so the compile reads
 * the committed collections while the search table is written; `close` folds the log back
 * in, and the file's bytes do not depend on how the two threads interleave. After each
 * message the thread counts it done in `state[0]` (the main thread waits on it to bound
 * how far ahead it runs, and for the end); a failure sets `state[1]` and is posted on
 * `errors`. `state[2]` says the thread has started. Each image is one session, from `open`
 * (its file, state and errors port) to `close` or `abandon`; a thread that ended one without
 * failing waits for the next, so a process that compiles again does not start another.
 */
import type { MessagePort } from 'node:worker_threads';
import { parentPort } from 'node:worker_threads';
import { DatabaseSync, type StatementSync } from 'node:sqlite';

export type MetaRows = [string, string][];

/** Rows ANALYZE reads of each index. */
const ANALYSIS_ROWS = 1000;

/**
 * Statistics from a sample of each index (SQLite's analysis_limit): at 1M records a full
 * ANALYZE takes 1.96 s at the end of the build, this 0.28 s, and the query plans of the
 * list shapes stay the same (one facet count over feed-items differs).
 */
const analyze = (db: DatabaseSync) => db.exec(`PRAGMA analysis_limit = ${ANALYSIS_ROWS}; ANALYZE`);

export type WriterMessage =
  | { op: 'table'; name: string; sortFields: string[] }
  | { op: 'rows'; tables: import('./image-tables.ts').CollectionTables }
  | { op: 'indexes'; name: string; sortFields: string[]; meta: MetaRows }
  | { op: 'search'; rows: import('./image-tables.ts').FlatRows }
  | { op: 'sources'; rows: import('./image-tables.ts').FlatRows }
  | { op: 'commit'; meta: MetaRows }
  | { op: 'finish'; meta: MetaRows }
  | { op: 'close' }
  | { op: 'abandon' };

/** What an image is written with; the thread is handed it (`open`) before the image's messages. */
export interface WriterData {
  partial: string;
  meta: MetaRows;
  search: import('./image-tables.ts').SearchNames;
  sourcesTable: string;
  state: SharedArrayBuffer;
  errors: MessagePort;
}

/** Starts an image: its messages follow, up to `close` or `abandon`, after which the thread waits for the next `open`. */
export interface OpenMessage {
  op: 'open';
  data: WriterData;
}

/** One image's writing: its state, and its connection once open. */
interface Session {
  data: WriterData;
  state: Int32Array;
  db?: DatabaseSync;
  insertSource?: StatementSync;
  failed: boolean;
}

if (parentPort) {
  const port = parentPort;
  const imported = await import('./image-tables.ts').then(
    (tables) => ({ tables }),
    (error: unknown) => ({ error }),
  );
  let session: Session | undefined;
  const done = (s: Session) => {
    Atomics.add(s.state, 0, 1);
    Atomics.notify(s.state, 0);
  };
  const fail = (s: Session, error: unknown) => {
    s.failed = true;
    s.data.errors.postMessage(error instanceof Error ? (error.stack ?? error.message) : String(error));
    Atomics.store(s.state, 1, 1);
  };
  const open = (data: WriterData): Session => {
    const s: Session = { data, state: new Int32Array(data.state), failed: false };
    Atomics.store(s.state, 2, 1);
    Atomics.notify(s.state, 0);
    try {
      if ('error' in imported) throw imported.error;
      const db = new DatabaseSync(data.partial);
      s.db = db;
      db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 8192;');
      db.exec('BEGIN');
      db.exec('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
      metaRows(db, data.meta);
      db.exec(`CREATE TABLE ${data.sourcesTable} (file TEXT NOT NULL, entry INTEGER, collection TEXT NOT NULL, cid TEXT NOT NULL)`);
      imported.tables.createSearchStage(db);
      s.insertSource = db.prepare(`INSERT INTO ${data.sourcesTable} VALUES (?, ?, ?, ?)`);
    } catch (error) {
      // Every later message is answered as done, so the main thread sees the failure.
      fail(s, error);
      if (s.db?.isOpen) s.db.close();
    }
    return s;
  };
  port.on('message', (message: WriterMessage | OpenMessage) => {
    if (message.op === 'open') {
      session = open(message.data);
      return;
    }
    const s = session!;
    try {
      if (!s.failed && message.op !== 'abandon' && 'tables' in imported) handle(s, imported.tables, message);
    } catch (error) {
      fail(s, error);
    }
    // The errors port is the main thread's to close, once it has read any failure.
    if ((message.op === 'close' || message.op === 'abandon' || s.failed) && s.db?.isOpen) s.db.close();
    done(s);
  });
}

function metaRows(db: DatabaseSync, rows: MetaRows): void {
  const insert = db.prepare('INSERT INTO meta VALUES (?, ?)');
  for (const [key, value] of rows) insert.run(key, value);
}

function handle(s: Session, tables: typeof import('./image-tables.ts'), message: WriterMessage): void {
  const { data } = s;
  const open = s.db!;
  if (message.op === 'table') {
    tables.createCollectionTables(open, message.name, message.sortFields);
  } else if (message.op === 'rows') {
    tables.insertCollectionRows(open, message.tables);
  } else if (message.op === 'indexes') {
    tables.createCollectionIndexes(open, message.name, message.sortFields);
    metaRows(open, message.meta);
  } else if (message.op === 'search') {
    tables.stageSearchRows(open, message.rows);
  } else if (message.op === 'sources') {
    for (let i = 0; i < message.rows.length; i += 4) s.insertSource!.run(...message.rows.slice(i, i + 4));
  } else if (message.op === 'commit') {
    metaRows(open, message.meta);
    open.exec(`CREATE INDEX "sources:file" ON ${data.sourcesTable} (file)`);
    open.exec(`CREATE UNIQUE INDEX "sources:cid" ON ${data.sourcesTable} (collection, cid)`);
    open.exec('COMMIT');
    // Statistics now, so the pages render with the plans the server will use (at 100k
    // records they render in 1.5 s with them, 1.65 s without).
    analyze(open);
    // Write-ahead logging, so the compile can read the committed collections while
    // this thread writes the search table. BEGIN IMMEDIATE sets the log's index up
    // before the reader opens; otherwise both may set it up at once and one is refused
    // ("database is locked").
    open.exec('PRAGMA journal_mode = WAL; BEGIN IMMEDIATE');
  } else if (message.op === 'finish') {
    tables.writeSearchTable(open, data.search);
    metaRows(open, message.meta);
    open.exec('COMMIT');
    analyze(open);
  } else if (message.op === 'close') {
    // Back to a file that is whole by itself (the compile's reader has closed): the log
    // is copied in and removed.
    open.exec('PRAGMA journal_mode = DELETE');
  }
}
