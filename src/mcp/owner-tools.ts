/**
 * The owner's write tools (issue 17, item 7), offered only on `/owner/mcp` and only
 * called under the `taste:write` scope: `taste.log` adds a record, `taste.rate` sets a
 * record's `rating` and/or `recommended`, `music.set_stance` sets a music record's
 * stance. Each takes an optional `requestId` (a retried call with the same id applies
 * once) and an optional `revision` (the write is refused when the record's lines changed
 * since: a hand edit is never overwritten blindly). The work is src/owner/writes.ts.
 */
import { contentCollections } from '../collections/index.ts';
import { STANCES } from '../collections/music.ts';
import type { JsonSchema } from '../collections/item-schema.ts';
import { WriteRefused, type OwnerWrites, type WriteResult } from '../owner/writes.ts';
import type { CallResult } from './tool.ts';

/** The scope every tool here needs. */
export const WRITE_SCOPE = 'taste:write';

const WRITABLE = contentCollections.filter((c) => !c.compose).map((c) => c.name);

const requestId: JsonSchema = { type: 'string', minLength: 1, maxLength: 128, description: 'Any id of this change, chosen by the client: a retried call with the same id applies once and returns the first result.' };
const revision: JsonSchema = { type: 'string', minLength: 1, maxLength: 64, description: 'The revision a previous write returned: the write is refused if the record was changed since (e.g. edited by hand).' };
const canonicalId: JsonSchema = { type: 'string', minLength: 1, maxLength: 200 };

const WRITE_OUTPUT: JsonSchema = {
  type: 'object',
  properties: {
    collection: { type: 'string' },
    canonicalId: { type: 'string' },
    revision: { type: 'string', description: 'The record’s revision after the write.' },
    file: { type: 'string', description: 'The content file written, relative to the content folder.' },
    swapped: { type: 'boolean', description: 'Whether the public surfaces now serve the change.' },
    replayed: { type: 'boolean', description: 'A retried requestId: nothing was written again.' },
  },
  required: ['collection', 'canonicalId', 'revision', 'file', 'swapped'],
};

const WRITE_ANNOTATIONS = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;

export interface OwnerTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  run(writes: OwnerWrites, client: string, args: Record<string, unknown>): Promise<WriteResult>;
}

const optional = (args: Record<string, unknown>, name: string) => (typeof args[name] === 'string' ? (args[name] as string) : undefined);

export const OWNER_TOOLS: readonly OwnerTool[] = [
  {
    name: 'taste.log',
    title: 'Log a record',
    description: 'Adds a record to one of the owner’s collections as a new content file. `fields` are the collection’s record fields (as in its content files), validated by its schema; the result names the new record’s canonicalId.',
    inputSchema: {
      type: 'object',
      properties: { collection: { type: 'string', enum: WRITABLE }, fields: { type: 'object', description: 'The record’s fields, as a content file holds them.' }, requestId },
      required: ['collection', 'fields'],
      additionalProperties: false,
    },
    outputSchema: WRITE_OUTPUT,
    run: (writes, client, args) => writes.log(client, { collection: args.collection as string, fields: args.fields as Record<string, unknown>, requestId: optional(args, 'requestId') }),
  },
  {
    name: 'taste.rate',
    title: 'Rate a record',
    description: 'Sets the rating (0–5 in halves) and/or the recommended mark of a record (movies, books, places, concerts: whichever fields its collection has). Only those lines of its content file change.',
    inputSchema: {
      type: 'object',
      properties: {
        collection: { type: 'string', enum: WRITABLE },
        canonicalId,
        rating: { type: 'number', minimum: 0, maximum: 5, multipleOf: 0.5 },
        recommended: { type: 'boolean' },
        revision,
        requestId,
      },
      required: ['collection', 'canonicalId'],
      anyOf: [{ required: ['rating'] }, { required: ['recommended'] }],
      additionalProperties: false,
    },
    outputSchema: WRITE_OUTPUT,
    run: (writes, client, args) => {
      const change: Record<string, unknown> = {};
      if (args.rating !== undefined) change.rating = args.rating;
      if (args.recommended !== undefined) change.recommended = args.recommended;
      return writes.set(client, 'taste.rate', { collection: args.collection as string, canonicalId: args.canonicalId as string, change, revision: optional(args, 'revision'), requestId: optional(args, 'requestId') });
    },
  },
  {
    name: 'music.set_stance',
    title: 'Set a stance on music',
    description: 'Sets how the owner feels about a music record: love, like, neutral or dislike. Only the stance line of its content file changes.',
    inputSchema: {
      type: 'object',
      properties: { canonicalId, stance: { type: 'string', enum: [...STANCES] }, revision, requestId },
      required: ['canonicalId', 'stance'],
      additionalProperties: false,
    },
    outputSchema: WRITE_OUTPUT,
    run: (writes, client, args) =>
      writes.set(client, 'music.set_stance', { collection: 'music', canonicalId: args.canonicalId as string, change: { stance: args.stance }, revision: optional(args, 'revision'), requestId: optional(args, 'requestId') }),
  },
];

export const OWNER_TOOL_LIST = OWNER_TOOLS.map((tool) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: tool.inputSchema,
  outputSchema: tool.outputSchema,
  annotations: { title: tool.title, ...WRITE_ANNOTATIONS },
}));

const byName = new Map(OWNER_TOOLS.map((tool) => [tool.name, tool]));
export const ownerToolNamed = (name: string): OwnerTool | undefined => byName.get(name);

const failure = (text: string): CallResult => ({ content: [{ type: 'text', text }], isError: true });

/** One write call: a refusal the caller can act on is an `isError` result; anything else is logged and said safely. */
export async function callOwnerTool(tool: OwnerTool, writes: OwnerWrites | undefined, client: string, args: Record<string, unknown>, check: (args: unknown) => string | undefined, log: (error: unknown) => void = console.error): Promise<CallResult> {
  const invalid = check(args);
  if (invalid) return failure(`Invalid arguments for ${tool.name}: ${invalid}. The tool’s inputSchema lists what it takes.`);
  if (!writes) return failure(`${tool.name}: writes are not available on this server (it does not rebuild its content).`);
  try {
    const result = await tool.run(writes, client, args);
    const structured = { ...result } as Record<string, unknown>;
    const text = `${result.replayed ? 'Already applied' : 'Saved'}: ${result.collection}/${result.canonicalId} (revision ${result.revision}, ${result.file})${result.swapped || result.replayed ? '' : '; nothing a reader sees changed'}.`;
    return { content: [{ type: 'text', text }], structuredContent: structured };
  } catch (error) {
    if (error instanceof WriteRefused) return failure(`${tool.name} refused the call (${error.code}): ${error.message}`);
    log(error);
    return failure(`${tool.name} failed on the server; retry the same call (with the same requestId) later.`);
  }
}
