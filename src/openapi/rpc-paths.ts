/**
 * The RPC endpoint in the description. Cap'n Web is not an HTTP API that OpenAPI can
 * describe member by member: the path is given with what HTTP sees of it — a POST batch
 * (capnweb messages, one per line), a GET that upgrades to a WebSocket session (101, or
 * 426 without the upgrade), the preflight — and its refusals; the contract itself is the
 * generated TypeScript declaration and the consumer metadata, two GET documents.
 */
import { LIMITS } from '../core/limits.ts';
import { problemRef } from './problems.ts';
import type { PathItem } from './types.ts';
import { LINKS } from '../urls.ts';

export function rpcPaths(): Record<string, PathItem> {
  return {
    [LINKS.rpc]: {
      description: `Object-capability RPC over Cap'n Web (capnweb): HTTP batch sessions (POST) and WebSocket sessions (GET with \`Upgrade: websocket\`). The root's members, their arguments and results are in the [type declaration](${LINKS.rpcTypes}); checksum, client versions, transports and limits in the [consumer metadata](${LINKS.rpcContract}). Call failures are capnweb errors with a stable \`code\`, inside a 200 batch answer.`,
      post: {
        operationId: 'rpcBatch',
        summary: 'Run one HTTP batch session',
        tags: ['rpc'],
        security: [],
        requestBody: {
          required: true,
          content: {
            'text/plain': {
              schema: {
                type: 'string',
                maxLength: LIMITS.rpcBatchBytesMax,
                description: `capnweb messages, one JSON array per line; at most ${LIMITS.rpcBatchOperationsMax} operations.`,
              },
            },
          },
        },
        responses: {
          200: { description: 'capnweb answers, one JSON array per line; never cached.', content: { 'text/plain': { schema: { type: 'string' } } } },
          400: problemRef(400),
          413: problemRef(413),
          429: problemRef(429),
          500: problemRef(500),
        },
      },
      get: {
        operationId: 'rpcWebSocket',
        summary: 'Open a WebSocket session (with Upgrade: websocket)',
        description: 'With `Upgrade: websocket` the answer is 101 and the connection carries a capnweb session; without it, a 426 problem.',
        tags: ['rpc'],
        security: [],
        responses: {
          101: { description: 'Switching to the WebSocket session.' },
          426: problemRef(426),
          429: problemRef(429),
        },
      },
      options: {
        operationId: 'preflightRpc',
        summary: 'CORS preflight for batches',
        tags: ['rpc'],
        security: [],
        responses: { 204: { description: 'The preflight.' } },
      },
    },
    [LINKS.rpcTypes]: {
      get: {
        operationId: 'getRpcTypes',
        summary: 'The RPC contract as a TypeScript declaration',
        tags: ['rpc', 'meta'],
        security: [],
        responses: {
          200: { description: 'The declaration (`Root` and everything under it).', content: { 'text/plain': { schema: { type: 'string' } } } },
          304: { description: 'Not modified.' },
        },
      },
    },
    [LINKS.rpcContract]: {
      get: {
        operationId: 'getRpcContract',
        summary: 'The RPC consumer metadata',
        description: 'The sha256 of the declaration, the capnweb client versions served, the transports, the error codes and the limits.',
        tags: ['rpc', 'meta'],
        security: [],
        responses: {
          200: {
            description: 'The metadata.',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { contract: { type: 'object' }, client: { type: 'object' } }, required: ['contract', 'client'] },
              },
            },
          },
          304: { description: 'Not modified.' },
        },
      },
    },
  };
}
