/**
 * A public tool's `tools/call` answered as the SDK's server and stateless transport
 * answer it, without building either (functions/mcp.ts): the same checks of the same
 * request, the same call (`callTool`), the same bytes. It takes only a request whose
 * every step through the SDK is known and ends in a result:
 *
 * - the transport's checks pass: `Accept` names both `application/json` and
 *   `text/event-stream`, `Content-Type` is JSON (the SDK's own test), and
 *   `MCP-Protocol-Version`, when sent, is one the SDK supports;
 * - the body is one JSON-RPC request as the transport's schema takes it (`jsonrpc` "2.0",
 *   a string or safe-integer id, no other member) calling a public tool with nothing but
 *   its name and an object of arguments (no `_meta`, no task): the server's schema then
 *   copies the arguments unchanged, which an own `__proto__` member would not survive.
 *
 * The answer is then `{"result":…,"jsonrpc":"2.0","id":…}` as the protocol frames a
 * result, the result's members in the order the SDK's result schema writes them (`_meta`,
 * `content`, `structuredContent`, `isError`), as JSON (`Content-Type: application/json`).
 * Anything else goes through the SDK. tests/mcp/direct-properties.test.ts compares the
 * two over generated calls.
 */
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { RequestFacts } from '../http/answer.ts';
import type { McpContext } from './context.ts';
import { callTool, jsonChunks, type CallResult, type ToolDefinition } from './tool.ts';
import { toolNamed } from './tools.ts';

/** A call of a public tool with nothing but its name and arguments, and the id to answer it with. */
export interface PlainCall {
  tool: ToolDefinition;
  /** The arguments as sent; undefined when the call has none. */
  args: Record<string, unknown> | undefined;
  /** The request's id as JSON (what the answer ends with). */
  id: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The message as a plain call of a public tool, or undefined: a notification, a batch, another method, `_meta`, another member. */
export function plainCall(body: unknown): PlainCall | undefined {
  if (!isObject(body)) return undefined;
  const { jsonrpc, id, method, params, ...other } = body;
  if (jsonrpc !== '2.0' || method !== 'tools/call' || Object.keys(other).length > 0 || !isObject(params)) return undefined;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  const { name, arguments: args, ...rest } = params;
  const tool = typeof name === 'string' ? toolNamed(name) : undefined;
  if (!tool || Object.keys(rest).length > 0) return undefined;
  if (args !== undefined && (!isObject(args) || Object.hasOwn(args, '__proto__'))) return undefined;
  return { tool, args, id: JSON.stringify(id) };
}

/** Whether the transport's header checks pass: otherwise it refuses the request, in its own words. */
export function transportAccepts(facts: RequestFacts): boolean {
  const accept = facts.header('Accept');
  if (accept === null || !accept.includes('application/json') || !accept.includes('text/event-stream')) return false;
  if (!isJsonContentType(facts.header('Content-Type') ?? undefined)) return false;
  const version = facts.header('MCP-Protocol-Version');
  return version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}

/** The result's JSON, its members in the order the SDK's `CallToolResultSchema` writes them, in pieces appended to `chunks`. */
function resultChunks(result: CallResult, chunks: string[]): void {
  const { _meta, content, structuredContent, isError, ...other } = result;
  const members: string[] = [];
  if (_meta !== undefined) members.push(`"_meta":${JSON.stringify(_meta)}`);
  members.push(`"content":${JSON.stringify(content)}`);
  chunks.push(`{${members.join(',')}`);
  if (structuredContent !== undefined) {
    chunks.push(',"structuredContent":');
    jsonChunks(structuredContent, chunks);
  }
  members.length = 0;
  if (isError !== undefined) members.push(`"isError":${JSON.stringify(isError)}`);
  // Members the schema does not name follow, as it passes them through.
  for (const name in other) {
    const value = JSON.stringify(other[name]);
    if (value !== undefined) members.push(`${JSON.stringify(name)}:${value}`);
  }
  chunks.push(members.length > 0 ? `,${members.join(',')}}` : '}');
}

/**
 * Where `answerBody` encodes, with room for the widest UTF-8 (three bytes a UTF-16 unit);
 * it runs to its end without yielding, so one serves every call. It grows to the largest
 * answer's room, which the tools' limits bound.
 */
let scratch = Buffer.allocUnsafe(0);

/** The body the transport writes for `call`: `{"result":…,"jsonrpc":"2.0","id":…}`, encoded a piece at a time. */
export function answerBody(call: PlainCall, context: McpContext, log?: (error: unknown) => void): Buffer {
  const chunks = ['{"result":'];
  resultChunks(callTool(call.tool, call.args, context, log), chunks);
  chunks.push(`,"jsonrpc":"2.0","id":${call.id}}`);
  // Encoded into the scratch buffer, then copied out at its size (a remembered answer keeps
  // only its own bytes): a buffer per piece and a copy of them all cost more, and so does
  // counting each piece's bytes first.
  let units = 0;
  for (const chunk of chunks) units += chunk.length;
  if (scratch.length < 3 * units) scratch = Buffer.allocUnsafe(3 * units);
  let at = 0;
  for (const chunk of chunks) at += scratch.write(chunk, at);
  return Buffer.from(scratch.subarray(0, at));
}
