/**
 * What an MCP tool is here, and how a call becomes a result. A tool is data — name,
 * title, description, input and output schemas, annotations, a work weight for the
 * quota, an optional UI resource — and one function from validated arguments to a
 * structured result and its short text rendering. `callTool` owns the order every call
 * follows: the arguments are validated against the input schema (compiled once per
 * process) before the tool runs; a refusal the caller can act on — a bad argument, a
 * bound, a `PublicError` of the core — becomes a result with `isError: true` and a safe
 * message; anything else is logged and answered with a message that says nothing of the
 * cause. Protocol errors are left to the protocol (an unknown tool name).
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchema } from '../collections/item-schema.ts';
import { isPublicError } from '../core/errors.ts';
import type { McpContext } from './context.ts';

export interface ToolResult {
  /** Valid against the tool's output schema. */
  structured: Record<string, unknown>;
  /** A short rendering for clients (and models) that read only text. */
  text: string;
  /** `_meta` of the result (render tools link their UI resource here). */
  meta?: Record<string, unknown>;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  /** Units of the per-client tool-work quota one call spends, before it runs. */
  cost: number;
  /** The `ui://` resource the tool's results render in (MCP Apps). */
  ui?: string;
  run(args: Record<string, unknown>, context: McpContext): ToolResult;
}

/** Every tool here reads the owner's published records and nothing else, and changes nothing. */
export const READ_ONLY_ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const BRAND = Symbol.for('collections.ToolError');

/** A refusal whose message is safe to show and says what to change: a tool result with `isError`. */
export class ToolError extends Error {
  readonly [BRAND] = true;
}

const isToolError = (error: unknown): error is ToolError => typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;

/** The MCP `CallToolResult` shape this server produces. */
export interface CallResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

const failure = (text: string): CallResult => ({ content: [{ type: 'text', text }], isError: true });

/** One validator per process: the SDK's `Server` would otherwise build an Ajv instance per request (measured: about a third of a per-request server's cost). */
export const validator = new AjvJsonSchemaValidator();
const compiled = new WeakMap<object, (input: unknown) => { valid: boolean; errorMessage?: string }>();

/** Checks arguments against a tool's input schema (compiled once per tool): undefined when valid, else what is wrong. */
export function validate(tool: { inputSchema: JsonSchema }, args: unknown): string | undefined {
  let check = compiled.get(tool);
  if (!check) {
    check = validator.getValidator(tool.inputSchema);
    compiled.set(tool, check);
  }
  const result = check(args);
  // ajv's messages name the path and the rule (`data/ids must NOT have more than 20 items`), never the value.
  return result.valid ? undefined : (result.errorMessage ?? 'the arguments do not match the input schema').replace(/\bdata\b/g, 'arguments');
}

/** The JSON text of each element of an array, where it is already held (`withJsonText`). */
const JSON_TEXT = Symbol('collections.jsonText');

/**
 * `values` marked with the JSON text each element was parsed from (records as the image
 * holds them), for `jsonChunks` to write instead of serializing them again. The text must be
 * what `JSON.stringify` writes for the element (the image's records are written by it, and
 * parsing then stringifying such text gives it back: tests/mcp/direct-properties.test.ts).
 */
export function withJsonText<T>(values: T[], texts: readonly string[]): T[] {
  Object.defineProperty(values, JSON_TEXT, { value: texts });
  return values;
}

/**
 * `JSON.stringify(value)` of a structured result, in pieces appended to `chunks`: its
 * marked arrays' held text (`withJsonText`) is written as it is, a piece per element,
 * rather than serialized again. (Pieces, because a text joined from them is as wide as its
 * widest character, and encoding a wide text is several times slower than a narrow one.)
 */
export function jsonChunks(value: Record<string, unknown>, chunks: string[]): void {
  let separator = '{';
  for (const name in value) {
    const member = value[name];
    const texts = Array.isArray(member) ? (member as unknown as Record<symbol, readonly string[] | undefined>)[JSON_TEXT] : undefined;
    if (texts !== undefined) {
      chunks.push(`${separator}${JSON.stringify(name)}:[`);
      for (let i = 0; i < texts.length; i++) chunks.push(i === 0 ? texts[i]! : `,${texts[i]!}`);
      chunks.push(']');
    } else {
      const text = JSON.stringify(member);
      if (text === undefined) continue;
      chunks.push(`${separator}${JSON.stringify(name)}:${text}`);
    }
    separator = ',';
  }
  chunks.push(separator === '{' ? '{}' : '}');
}

/** Renames a core problem's parameter to the argument the tool took it from. */
export type ParameterNames = (parameter: string) => string;

/** Runs one call: validation, the tool, and the mapping of refusals to `isError` results. */
export function callTool(
  tool: ToolDefinition,
  args: Record<string, unknown> | undefined,
  context: McpContext,
  log: (error: unknown) => void = console.error,
): CallResult {
  const input = args ?? {};
  const invalid = validate(tool, input);
  if (invalid) return failure(`Invalid arguments for ${tool.name}: ${invalid}. The tool’s inputSchema lists what it takes.`);
  try {
    const result = tool.run(input, context);
    const call: CallResult = { content: [{ type: 'text', text: result.text }], structuredContent: result.structured };
    if (result.meta) call._meta = result.meta;
    return call;
  } catch (error) {
    if (isToolError(error)) return failure(error.message);
    if (isPublicError(error)) return failure(`${tool.name} refused the call (${error.slug}${error.parameter ? `, ${error.parameter}` : ''}): ${error.detail}`);
    log(error);
    return failure(`${tool.name} failed on the server; retry the same call later.`);
  }
}
