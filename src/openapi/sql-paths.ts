/**
 * The public SQL surface in the description. OpenAPI 3.1 has no QUERY operation (3.2
 * adds one), so the QUERY operation is given in full under the `x-query` extension of
 * the path, beside the standard OPTIONS preflight; the generated SQL profile (relations,
 * columns, grammar, budgets) is a plain GET document.
 */
import { LIMITS } from '../core/limits.ts';
import { problemRef } from './problems.ts';
import type { PathItem } from './types.ts';
import { LINKS } from '../urls.ts';

const SQL_RESULT = {
  type: 'object',
  properties: {
    columns: {
      type: 'array',
      maxItems: LIMITS.sqlColumnsMax,
      items: { type: 'object', properties: { name: { type: 'string' }, type: { type: 'string' } }, required: ['name', 'type'] },
    },
    rows: { type: 'array', maxItems: LIMITS.sqlRowsMax, items: { type: 'array', items: { type: ['string', 'number', 'boolean', 'null'] } } },
    truncated: { type: 'boolean', description: 'Rows were cut at the row limit or the response budget.' },
  },
  required: ['columns', 'rows', 'truncated'],
};

export function sqlPaths(): Record<string, PathItem> {
  return {
    [LINKS.sql]: {
      description: `Public SQL over \`public.writing\`, \`information_schema.tables\` and \`information_schema.columns\`, sent with the HTTP QUERY method (safe, idempotent; the operation is under \`x-query\`, as OpenAPI 3.1 has no QUERY). Other methods answer 405 with \`Allow: QUERY, OPTIONS\`. The accepted grammar and budgets are in the [SQL profile](${LINKS.sqlProfile}).`,
      options: {
        operationId: 'preflightSql',
        summary: 'CORS preflight for QUERY',
        tags: ['writing'],
        security: [],
        responses: { 204: { description: 'The preflight; `Accept-Query: application/sql`.' } },
      },
      'x-query': {
        operationId: 'querySql',
        summary: 'Run one read-only SQL statement',
        tags: ['writing'],
        security: [],
        parameters: [
          { name: 'SQL-API-Version', in: 'header', required: false, description: 'Omit, or send `1.1.0`.', schema: { type: 'string', enum: ['', '1.1.0'] } },
        ],
        requestBody: {
          required: true,
          content: {
            'application/sql': {
              schema: { type: 'string', maxLength: LIMITS.sqlRequestBytesMax },
              example: 'SELECT title, published_at FROM public.writing ORDER BY published_at DESC LIMIT 5',
            },
          },
        },
        responses: {
          200: {
            description: 'Columns, then rows as ordered arrays; never cached.',
            content: { 'application/json': { schema: SQL_RESULT }, 'text/csv': { schema: { type: 'string' } } },
          },
          400: problemRef(400),
          406: problemRef(406),
          408: problemRef(408),
          417: problemRef(417),
          413: problemRef(413),
          415: problemRef(415),
          429: problemRef(429),
          503: problemRef(503),
        },
      },
    },
    [LINKS.sqlProfile]: {
      get: {
        operationId: 'getSqlProfile',
        summary: 'The SQL profile (version 1)',
        description:
          'Relations, columns, types, null encoding, accepted grammar and work budgets of the SQL surface, generated from the same definitions the surface enforces.',
        tags: ['writing', 'meta'],
        security: [],
        responses: {
          200: {
            description: 'The profile.',
            content: { 'application/json': { schema: { type: 'object', properties: { profileVersion: { const: 1 } }, required: ['profileVersion'] } } },
          },
          304: { description: 'Not modified.' },
        },
      },
    },
  };
}
