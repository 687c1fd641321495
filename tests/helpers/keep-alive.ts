/**
 * How long the tests' servers keep an idle connection: ten minutes, where a served runtime
 * keeps one five seconds (`KEEP_ALIVE_TIMEOUT_MS`). The test client (fetch, undici) reuses
 * idle connections and drops them itself after the server's `Keep-Alive` hint less two
 * seconds; a test process the loaded machine stalls for longer than the hint can wake up and
 * send on a connection whose server has just timed it out, and that request fails with
 * ECONNRESET or "other side closed" (seen at load averages of 15–35, never on a quiet run).
 * With a server that keeps its connections longer than any test runs, only the client
 * closes an idle connection, which cannot race with its own next request.
 */
export const TEST_KEEP_ALIVE_MS = 600_000;
