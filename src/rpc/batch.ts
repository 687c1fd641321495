/**
 * One HTTP batch session, run on messages already read and counted: capnweb's own batch
 * server (`newHttpBatchRpcResponse`) takes a `Request` and builds a `Response`, two Web
 * objects per batch that cost more than the query behind a page; this is the same
 * transport on plain strings. The session receives every message, then answers the calls
 * the client pulled, and ends; the answer is the messages it sent, one per line.
 */
import { RpcSession, type RpcSessionOptions, type RpcTransport } from 'capnweb';

class BatchTransport implements RpcTransport {
  readonly #incoming: string[];
  readonly #outgoing: string[] = [];
  readonly #received = Promise.withResolvers<void>();

  constructor(messages: string[]) {
    this.#incoming = messages;
  }

  send(message: string): void {
    this.#outgoing.push(message);
  }

  receive(): Promise<string> {
    const message = this.#incoming.shift();
    if (message !== undefined) return Promise.resolve(message);
    // Everything is read: the session now only answers what was pulled, then ends.
    this.#received.resolve();
    return new Promise(() => {});
  }

  abort(reason: unknown): void {
    this.#received.reject(reason);
  }

  get received(): Promise<void> {
    return this.#received.promise;
  }

  get answer(): string {
    return this.#outgoing.join('\n');
  }
}

/** Runs a batch of capnweb messages against `root`; resolves with the answer body, rejects when capnweb aborted the session. */
export async function runBatch(messages: string[], root: unknown, options: RpcSessionOptions): Promise<string> {
  const transport = new BatchTransport(messages);
  const session = new RpcSession(transport, root, options);
  await transport.received;
  await session.drain();
  return transport.answer;
}
