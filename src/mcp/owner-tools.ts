/**
 * The owner's tools (issue 17, item 7), offered only on `/owner/mcp`. Each write tool has
 * its task scope (SPEC §5), and `taste:write` allows all three: `taste.log` (`taste:log`)
 * adds a record, `taste.rate` (`taste:rate`) sets a record's `rating` and/or
 * `recommended`, `music.set_stance` (`taste:stance`) sets a music record's stance. Each
 * tool declares the scope it needs in its descriptor (`securitySchemes`, mirrored in
 * `_meta` for clients that keep only known fields), which is how a read tool of the owner
 * lane says it reads more than the public corpus (SPEC §4.7). Each takes an
 * optional `requestId` (a retried call with the same id applies once) and an optional
 * `revision` (the write is refused when the record's lines changed since: a hand edit is
 * never overwritten blindly). Under `taste:read`: `taste.get_for_edit` reads a record
 * from its content file with that revision, so an agent can read, decide and write
 * without a hand edit in between going unnoticed (the public `taste.get` reads the built
 * image, which knows no revisions). The work is src/owner/writes.ts.
 */
import { contentCollections } from '../collections/index.ts';
import { STANCES } from '../collections/music.ts';
import type { JsonSchema } from '../collections/item-schema.ts';
import { WriteRefused, type OwnerWrites, type RecordRead, type WriteCaller, type WriteResult } from '../owner/writes.ts';
import { SCOPE, type Scope } from '../oauth/scopes.ts';
import type { CallResult } from './tool.ts';

/** The scope a tool needs: reading, or one write tool's task scope (`taste:write` includes them all). */
export type OwnerScope = Exclude<Scope, typeof SCOPE.write>;

const WRITABLE = contentCollections.filter((c) => !c.compose).map((c) => c.name);

const requestId: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 128,
  description: 'Any id of this change, chosen by the client: a retried call with the same id applies once and returns the first result.',
};
const revision: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  description: 'The revision a previous write returned: the write is refused if the record was changed since (e.g. edited by hand).',
};
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

const READ_OUTPUT: JsonSchema = {
  type: 'object',
  properties: {
    collection: { type: 'string' },
    canonicalId: { type: 'string' },
    revision: { type: 'string', description: 'The record’s revision now: pass it to a write of this record.' },
    file: { type: 'string', description: 'The content file, relative to the content folder.' },
    fields: { type: 'object', description: 'The record’s fields as its content file holds them (a Markdown body not included).' },
  },
  required: ['collection', 'canonicalId', 'revision', 'file', 'fields'],
};

const WRITE_ANNOTATIONS = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;
const READ_ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

export interface OwnerTool {
  name: string;
  title: string;
  description: string;
  /** The scope a call needs (the endpoint checks it before the call runs; `taste:write` includes every write tool's). */
  scope: OwnerScope;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  /** `caller`: the verified token's grant and client, under which a write is journaled and its requestId kept. */
  run(writes: OwnerWrites, caller: WriteCaller, args: Record<string, unknown>): Promise<WriteResult | RecordRead>;
}

/** What a call's text says (its structured content is the result itself). */
function say(result: WriteResult | RecordRead): string {
  if ('fields' in result)
    return `${result.collection}/${result.canonicalId} in ${result.file}, revision ${result.revision} (pass it to a write of this record): ${JSON.stringify(result.fields)}`;
  return `${result.replayed ? 'Already applied' : 'Saved'}: ${result.collection}/${result.canonicalId} (revision ${result.revision}, ${result.file})${result.swapped || result.replayed ? '' : '; nothing a reader sees changed'}.`;
}

const optional = (args: Record<string, unknown>, name: string) => (typeof args[name] === 'string' ? (args[name] as string) : undefined);

export const OWNER_TOOLS: readonly OwnerTool[] = [
  {
    name: 'taste.get_for_edit',
    title: 'Read a record to edit it',
    description: `Reads one record of the owner’s collections from its content file — as it is now, hand edits not yet built included — with its revision. Pass that revision to taste.rate or music.set_stance: the write is refused if the record changed in between. Owner-only: needs the ${SCOPE.read} scope of the owner lane; a record its file marks private or draft needs ${SCOPE.write}.`,
    scope: SCOPE.read,
    inputSchema: {
      type: 'object',
      properties: { collection: { type: 'string', enum: WRITABLE }, canonicalId },
      required: ['collection', 'canonicalId'],
      additionalProperties: false,
    },
    outputSchema: READ_OUTPUT,
    run: (writes, caller, args) =>
      Promise.resolve().then(() => writes.read({ collection: args.collection as string, canonicalId: args.canonicalId as string }, caller)),
  },
  {
    name: 'taste.log',
    title: 'Log a record',
    description:
      'Adds a record to one of the owner’s collections as a new content file. `fields` are the collection’s record fields (as in its content files), validated by its schema; the result names the new record’s canonicalId.',
    inputSchema: {
      type: 'object',
      properties: {
        collection: { type: 'string', enum: WRITABLE },
        fields: { type: 'object', description: 'The record’s fields, as a content file holds them.' },
        requestId,
      },
      required: ['collection', 'fields'],
      additionalProperties: false,
    },
    scope: SCOPE.log,
    outputSchema: WRITE_OUTPUT,
    run: (writes, caller, args) =>
      writes.log(caller, { collection: args.collection as string, fields: args.fields as Record<string, unknown>, requestId: optional(args, 'requestId') }),
  },
  {
    name: 'taste.rate',
    title: 'Rate a record',
    description:
      'Sets the rating (0–5 in halves) and/or the recommended mark of a record (movies, books, places, concerts: whichever fields its collection has). Only those lines of its content file change.',
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
    scope: SCOPE.rate,
    outputSchema: WRITE_OUTPUT,
    run: (writes, caller, args) => {
      const change: Record<string, unknown> = {};
      if (args.rating !== undefined) change.rating = args.rating;
      if (args.recommended !== undefined) change.recommended = args.recommended;
      return writes.set(caller, 'taste.rate', {
        collection: args.collection as string,
        canonicalId: args.canonicalId as string,
        change,
        revision: optional(args, 'revision'),
        requestId: optional(args, 'requestId'),
      });
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
    scope: SCOPE.stance,
    outputSchema: WRITE_OUTPUT,
    run: (writes, caller, args) =>
      writes.set(caller, 'music.set_stance', {
        collection: 'music',
        canonicalId: args.canonicalId as string,
        change: { stance: args.stance },
        revision: optional(args, 'revision'),
        requestId: optional(args, 'requestId'),
      }),
  },
];

/** The OAuth scopes a tool accepts, as alternatives: its own, and for a write tool `taste:write` too. */
const securitySchemes = (tool: OwnerTool) =>
  (tool.scope === SCOPE.read ? [tool.scope] : [tool.scope, SCOPE.write]).map((scope) => ({ type: 'oauth2', scopes: [scope] }));

export const OWNER_TOOL_LIST = OWNER_TOOLS.map((tool) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: tool.inputSchema,
  outputSchema: tool.outputSchema,
  annotations: { title: tool.title, ...(tool.scope === SCOPE.read ? READ_ANNOTATIONS : WRITE_ANNOTATIONS) },
  securitySchemes: securitySchemes(tool),
  _meta: { securitySchemes: securitySchemes(tool) },
}));

const byName = new Map(OWNER_TOOLS.map((tool) => [tool.name, tool]));
export const ownerToolNamed = (name: string): OwnerTool | undefined => byName.get(name);

const failure = (text: string): CallResult => ({ content: [{ type: 'text', text }], isError: true });

/** One call: a refusal the caller can act on is an `isError` result; anything else is logged and said safely. */
export async function callOwnerTool(
  tool: OwnerTool,
  writes: OwnerWrites | undefined,
  caller: WriteCaller,
  args: Record<string, unknown>,
  check: (args: unknown) => string | undefined,
  log: (error: unknown) => void = console.error,
): Promise<CallResult> {
  const invalid = check(args);
  if (invalid) return failure(`Invalid arguments for ${tool.name}: ${invalid}. The tool’s inputSchema lists what it takes.`);
  if (!writes) return failure(`${tool.name}: the owner's tools are not available on this server (it does not rebuild its content).`);
  try {
    const result = await tool.run(writes, caller, args);
    return { content: [{ type: 'text', text: say(result) }], structuredContent: { ...result } as Record<string, unknown> };
  } catch (error) {
    if (error instanceof WriteRefused) return failure(`${tool.name} refused the call (${error.code}): ${error.message}`);
    log(error);
    return failure(`${tool.name} failed on the server; retry the same call (with the same requestId) later.`);
  }
}
