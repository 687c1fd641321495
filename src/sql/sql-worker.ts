/**
 * One SQL worker thread, started by src/sql/pool.ts: its own sql.js database opened from
 * the SQL image bytes and its own statement cache over the relation catalog it is given. It warms up on one fixed statement (so
 * compiling the parser, walker and encoders does not count against the first client's
 * time budget), says it is ready, then answers one statement at a time with
 * `answerStatement`, the same path any in-process caller takes. A PublicError crosses back
 * as its slug and detail; anything else as a message for the server's log only.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isPublicError } from '../core/errors.ts';
import { answerStatement, openImage } from './execute.ts';
import { StatementCache } from './grammar.ts';
import type { WorkerReply, WorkerRequest, WorkerSetup } from './pool.ts';

const WARM_UP =
  "SELECT table_name AS t, 'x' FROM information_schema.columns WHERE (column_name <> 'x' OR NOT ordinal_position IN (1, 2)) AND data_type LIKE 't%' ORDER BY 1 DESC LIMIT 2";

const port = parentPort!;
const { image, relations } = workerData as WorkerSetup;
const db = openImage(new Uint8Array(image));
const statements = new StatementCache(relations);
answerStatement(db, new StatementCache(relations, 0), WARM_UP, 'json');
answerStatement(db, new StatementCache(relations, 0), WARM_UP, 'csv');

const reply = (message: WorkerReply) => port.postMessage(message);

port.on('message', ({ text, format }: WorkerRequest) => {
  try {
    const { body, truncated } = answerStatement(db, statements, text, format);
    reply({ ok: true, body, truncated });
  } catch (error) {
    reply(
      isPublicError(error)
        ? { ok: false, slug: error.slug, detail: error.detail }
        : { ok: false, internal: error instanceof Error ? (error.stack ?? error.message) : String(error) },
    );
  }
});
reply({ ready: true });
