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
 * `errors`. `state[2]` says the thread has started.
 */
import type { MessagePort } from 'node:worker_threads';
import { parentPort, workerData } from 'node:worker_threads';
import { DatabaseSync } from 'node:sqlite';

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

export interface WriterData {
  partial: string;
  meta: MetaRows;
  search: import('./image-tables.ts').SearchNames;
  sourcesTable: string;
  state: SharedArrayBuffer;
  errors: MessagePort;
}

if (parentPort) {
  const data = workerData as WriterData;
  const state = new Int32Array(data.state);
  const done = () => {
    Atomics.add(state, 0, 1);
    Atomics.notify(state, 0);
  };
  let db: DatabaseSync | undefined;
  let failed = false;
  const fail = (error: unknown) => {
    failed = true;
    data.errors.postMessage(error instanceof Error ? (error.stack ?? error.message) : String(error));
    Atomics.store(state, 1, 1);
  };
  const port = parentPort;
  Atomics.store(state, 2, 1);
  Atomics.notify(state, 0);
  try {
    const tables = await import('./image-tables.ts');
    db = new DatabaseSync(data.partial);
    const open = db;
    open.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 8192;');
    open.exec('BEGIN');
    open.exec('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    const meta = open.prepare('INSERT INTO meta VALUES (?, ?)');
    const metaRows = (rows: MetaRows) => rows.forEach(([key, value]) => meta.run(key, value));
    metaRows(data.meta);
    open.exec(`CREATE TABLE ${data.sourcesTable} (file TEXT NOT NULL, entry INTEGER, collection TEXT NOT NULL, cid TEXT NOT NULL)`);
    tables.createSearchStage(open);
    const insertSource = open.prepare(`INSERT INTO ${data.sourcesTable} VALUES (?, ?, ?, ?)`);
    port.on('message', (message: WriterMessage) => {
      try {
        if (message.op === 'abandon') {
          open.close();
          port.close();
        } else if (!failed) {
          if (message.op === 'table') {
            tables.createCollectionTables(open, message.name, message.sortFields);
          } else if (message.op === 'rows') {
            tables.insertCollectionRows(open, message.tables);
          } else if (message.op === 'indexes') {
            tables.createCollectionIndexes(open, message.name, message.sortFields);
            metaRows(message.meta);
          } else if (message.op === 'search') {
            tables.stageSearchRows(open, message.rows);
          } else if (message.op === 'sources') {
            for (let i = 0; i < message.rows.length; i += 4) insertSource.run(...message.rows.slice(i, i + 4));
          } else if (message.op === 'commit') {
            metaRows(message.meta);
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
            metaRows(message.meta);
            open.exec('COMMIT');
            analyze(open);
          } else if (message.op === 'close') {
            // Back to a file that is whole by itself (the compile's reader has closed): the log
            // is copied in and removed.
            open.exec('PRAGMA journal_mode = DELETE');
            open.close();
            port.close();
          }
        }
      } catch (error) {
        fail(error);
        if (open.isOpen) open.close();
      }
      done();
    });
  } catch (error) {
    fail(error);
    if (db?.isOpen) db.close();
    // Every later message is answered as done, so the main thread sees the failure.
    port.on('message', (message: WriterMessage) => {
      if (message.op === 'close' || message.op === 'abandon') port.close();
      done();
    });
  }
}
