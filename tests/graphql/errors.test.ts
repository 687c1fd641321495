/**
 * What GraphQL errors reveal: a resolver failure is reported in the standard `errors`
 * array with a generic message and no internals; a PublicError keeps its safe detail and
 * gains a code, the REST problem type and the argument at fault.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { execute, parse } from 'graphql';
import { PublicError } from '../../src/core/errors.ts';
import { publicError } from '../../src/graphql/errors.ts';
import { graphqlSchema } from '../../src/graphql/schema.ts';

const { schema } = graphqlSchema();

async function run(resolver: () => unknown) {
  const result = await execute({ schema, document: parse('{ movies { totalCount } }'), rootValue: { movies: resolver } });
  return JSON.parse(JSON.stringify({ ...result, errors: result.errors?.map(publicError) })) as {
    data: unknown;
    errors: { message: string; path: string[]; extensions?: Record<string, unknown> }[];
  };
}

test('an unexpected resolver failure is a generic error without internals', async () => {
  const body = await run(() => {
    throw new Error('SQLITE_CORRUPT at /srv/secret/image.db');
  });
  assert.equal(body.data, null);
  assert.equal(body.errors.length, 1);
  assert.deepEqual(body.errors[0]!.path, ['movies']);
  assert.equal(body.errors[0]!.extensions!.code, 'INTERNAL_SERVER_ERROR');
  const text = JSON.stringify(body);
  assert.ok(!text.includes('secret') && !text.includes('SQLITE') && !text.includes('stack'), text);
});

test('a public error keeps its detail, with code, problem type and argument', async () => {
  const body = await run(() => {
    throw new PublicError('invalid-query', 'year must be an integer from 1000 to 9999.', 'filter.year');
  });
  assert.equal(body.errors[0]!.message, 'year must be an integer from 1000 to 9999.');
  assert.deepEqual(body.errors[0]!.extensions, { code: 'INVALID_QUERY', type: '/problems/invalid-query', argument: 'filter.year' });
});
