/**
 * RPC errors: what a capnweb client receives when a call fails. Every failure reaches the
 * client as a plain `Error` whose message is safe to show and whose one own property is a
 * stable `code` (the codes below are permanent, like problem slugs). capnweb sends an
 * error's name, message, own enumerable properties and, when asked, its stack; so every
 * error leaving a session is rebuilt here (`sendable`, the session's `onSendError`): a
 * fresh Error with the message and the code, no stack, nothing else. A `PublicError`
 * from the core (a bad filter, sort or cursor) keeps its safe detail and names the
 * argument at fault, as REST's 400 names the parameter; anything unexpected is logged
 * in the process and leaves as `UNAVAILABLE`, with nothing of its cause.
 */
import { isPublicError } from '../core/errors.ts';

export const RPC_ERROR_CODES = ['INVALID_ARGUMENT', 'NOT_FOUND', 'RESOURCE_LIMIT', 'UNSUPPORTED_FORMAT', 'WEBSOCKET_REQUIRED', 'UNAVAILABLE'] as const;
export type RpcErrorCode = (typeof RPC_ERROR_CODES)[number];

const BRAND = Symbol.for('collections.RpcError');

/** A failure whose code and message are safe for any client. */
export class RpcError extends Error {
  readonly [BRAND] = true;
  readonly code: RpcErrorCode;

  constructor(code: RpcErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** Brand check rather than instanceof (STYLE: errors crossing bundle boundaries). */
export function isRpcError(error: unknown): error is RpcError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}

/** An INVALID_ARGUMENT naming the argument at fault first, as REST's problems name the parameter. */
export const invalidArgument = (argument: string, detail: string) => new RpcError('INVALID_ARGUMENT', `${argument}: ${detail}`);

/**
 * A core `PublicError` thrown while building or running a selection, in RPC terms. The
 * REST parameter it names becomes the RPC argument (`argumentOf` maps one to the other).
 */
export function fromPublicError(error: unknown, argumentOf: (parameter: string | undefined) => string): unknown {
  if (!isPublicError(error)) return error;
  if (error.slug === 'not-found') return new RpcError('NOT_FOUND', error.detail);
  if (error.status === 400 || error.status === 422) return invalidArgument(argumentOf(error.parameter), error.detail);
  return error;
}

/** What capnweb reports when a client calls a member that does not exist (`open()` on the root). */
const MISSING_MEMBER = /^'([^']{0,200})' is not a function\.$/;

/**
 * The error a client receives, for capnweb's `onSendError`: a fresh Error carrying only
 * `message` and `code` (own, enumerable), and an empty stack, which capnweb leaves out.
 */
export function sendable(error: Error): Error {
  let code: RpcErrorCode = 'UNAVAILABLE';
  let message = 'The server could not complete this call; retry later.';
  const known = fromPublicError(error, (parameter) => parameter ?? 'argument');
  if (isRpcError(known)) {
    code = known.code;
    message = known.message;
  } else if (isRpcError(error)) {
    code = error.code;
    message = error.message;
  } else if (error instanceof TypeError && MISSING_MEMBER.test(error.message)) {
    code = 'NOT_FOUND';
    message = `There is no member ${MISSING_MEMBER.exec(error.message)![1]}; see the type declaration of the RPC API for the members that exist.`;
  } else {
    console.error(error);
  }
  const safe = new Error(message);
  safe.stack = '';
  Object.defineProperty(safe, 'code', { value: code, enumerable: true, writable: false, configurable: true });
  return safe;
}
