/**
 * GraphQL's filter inputs follow the declarations: the filters SPEC §4.1 calls strings
 * take any string, matched as REST matches it (case- and accent-folded; a value nothing
 * holds is an empty connection), while every query written against v1's enum names —
 * literals and variables of the published type — still answers the same records.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { execute, parse } from 'graphql';
import { createRestFetchHandler } from '../../functions/rest.ts';
import { Image } from '../../src/core/image.ts';
import { QueryCore } from '../../src/core/query.ts';
import { publicError } from '../../src/graphql/errors.ts';
import { rootValue } from '../../src/graphql/resolvers.ts';
import { graphqlSchema } from '../../src/graphql/schema.ts';
import { paths } from '../../src/paths.ts';

const image = new Image(paths.image);
after(() => image.close());
const core = new QueryCore(image);
const root = rootValue(core);
const rest = createRestFetchHandler(core, { cacheBytes: 0, quota: 1_000_000 });
const { schema } = graphqlSchema();

interface Answer {
  data: Record<string, { totalCount: number; nodes: { canonicalId: string }[] }> | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

async function run(source: string, variableValues?: Record<string, unknown>): Promise<Answer> {
  const result = await execute({ schema, document: parse(source), rootValue: root, variableValues });
  return JSON.parse(JSON.stringify({ ...result, errors: result.errors?.map(publicError) })) as Answer;
}

async function restIds(path: string): Promise<string[]> {
  const body = (await (await rest(new Request(`http://x${path}&limit=100`))).json()) as { data: { canonicalId: string }[] };
  return body.data.map((d) => d.canonicalId);
}

const ids = (answer: Answer, field: string) => answer.data![field]!.nodes.map((n) => n.canonicalId);

test('a string in any casing finds what REST finds for the filter', async () => {
  const expected = await restIds('/api/activities.json?sportType=Run');
  assert.ok(expected.length > 0);
  for (const value of ['run', 'RUN', 'Rún']) {
    const answer = await run(`{ activities(first: 100, filter: { sportType: ${JSON.stringify(value)} }) { totalCount nodes { canonicalId } } }`);
    assert.equal(answer.errors, undefined, value);
    assert.deepEqual(ids(answer, 'activities'), expected, value);
  }
  assert.ok((await restIds('/api/sporting-events.json?experience=in-person&experienceStatus=attended')).length > 0);
  const status = await run(
    '{ sportingEvents(first: 100, filter: { experience: "In-Person", experienceStatus: "ATTENDED" }) { totalCount nodes { canonicalId } } }',
  );
  assert.deepEqual(ids(status, 'sportingEvents'), await restIds('/api/sporting-events.json?experience=in-person&experienceStatus=attended'));
});

test('a value no record holds is an empty connection, not an error', async () => {
  const answer = await run(
    '{ music(filter: { type: "podcast-episode" }) { totalCount nodes { canonicalId } } code(filter: { kind: "gist" }) { totalCount nodes { canonicalId } } }',
  );
  assert.equal(answer.errors, undefined);
  assert.deepEqual([answer.data!.music!.totalCount, answer.data!.code!.totalCount], [0, 0]);
});

test('queries written against the v1 enum names still answer the same records', async () => {
  const expected = await restIds('/api/activities.json?sportType=TrailRun');
  assert.ok(expected.length > 0);
  const literal = await run('{ activities(first: 100, filter: { sportType: TRAIL_RUN }) { nodes { canonicalId } } }');
  assert.deepEqual(ids(literal, 'activities'), expected);
  const variable = await run('query ($s: ActivitiesSportType) { activities(first: 100, filter: { sportType: $s }) { nodes { canonicalId } } }', {
    s: 'TRAIL_RUN',
  });
  assert.deepEqual(ids(variable, 'activities'), expected);
  const work = await run('{ work(first: 100, filter: { kind: SIDE_PROJECT }) { nodes { canonicalId } } }');
  assert.deepEqual(ids(work, 'work'), await restIds('/api/work.json?kind=side-project'));
});

test('a value that is not a string is refused, naming the filter', async () => {
  const answer = await run('{ activities(filter: { sportType: { a: 1 } }) { totalCount } }');
  assert.equal(answer.data, null);
  assert.equal(answer.errors![0]!.extensions!.code, 'INVALID_QUERY');
  assert.equal(answer.errors![0]!.extensions!.argument, 'filter.sportType');
});
