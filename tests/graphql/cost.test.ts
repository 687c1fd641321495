/**
 * Static demand analysis: hand-computed costs under the IBM directives, depth on a
 * recursive schema, linear-time measuring of exponentially fanning fragments, and
 * properties over arbitrary sizes and documents.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildSchema, parse } from 'graphql';
import fc from '../helpers/fc.ts';
import { LIMITS } from '../../src/core/limits.ts';
import { measureOperation } from '../../src/graphql/cost.ts';
import { COST, graphqlSchema } from '../../src/graphql/schema.ts';

const { schema } = graphqlSchema();
const measure = (query: string, variables?: Record<string, unknown>) => measureOperation(schema, parse(query), undefined, variables)!;

test('costs follow the directives: connection weight, nodes times first, objects 1, scalars 0', () => {
  assert.equal(measure('{ movies(first: 10) { nodes { title } } }').cost, COST.connection + 10);
  assert.equal(measure('{ movies { totalCount } }').cost, COST.connection, 'no nodes selected, no node cost');
  assert.equal(measure('{ movies { nodes { title } } }').cost, COST.connection + LIMITS.graphqlFirstDefault, 'the default first');
  assert.equal(measure('query($n: Int) { places(first: $n) { nodes { name coordinates { latitude } } } }', { n: 7 }).cost, COST.connection + 7 * 2);
  assert.equal(measure('{ movies(first: 1, includeFacets: true) { pageInfo { hasNextPage } } }').cost, COST.connection + COST.facets + 1);
  assert.equal(measure('{ __schema { types { name fields { name } } } }').cost, COST.introspection);
  assert.equal(
    measure('{ movies(first: 100000) { nodes { title } } }').cost,
    COST.connection + LIMITS.pageSizeMax,
    'out-of-range first costs as the largest page',
  );
});

test('depth counts nested fields through fragments; aliases are counted per use', () => {
  const recursive = buildSchema('type Query { node: Node } type Node { child: Node name: String }');
  const depth = (n: number) => `{ ${'node { '.repeat(1)}${'child { '.repeat(n)}name${' }'.repeat(n + 1)} }`;
  assert.equal(measureOperation(recursive, parse(depth(3)), undefined, undefined)!.depth, 5);
  const viaFragment = parse('{ node { ...F } } fragment F on Node { child { child { name } } }');
  assert.equal(measureOperation(recursive, viaFragment, undefined, undefined)!.depth, 4);
  assert.equal(measure('{ a: movies(first: 1) { x: totalCount } b: movies(first: 1) { totalCount } }').aliases, 3);
});

test('fragments fanning out exponentially are measured in linear time, and cost exponentially', () => {
  const levels = 40;
  const fragments = Array.from({ length: levels }, (_, i) =>
    i === levels - 1 ? `fragment F${i} on MoviesConnection { nodes { title } }` : `fragment F${i} on MoviesConnection { ...F${i + 1} ...F${i + 1} }`,
  );
  const demand = measure(`{ movies(first: 1) { ...F0 } } ${fragments.join(' ')}`);
  assert.ok(demand.cost > LIMITS.graphqlCostMax);
});

test('property: cost never decreases as first grows, and stays within bounds', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 99 }), fc.constantFrom('movies', 'places', 'books'), (first, field) => {
      const at = (n: number) => measure(`{ ${field}(first: ${n}) { nodes { __typename } totalCount } }`).cost;
      assert.ok(at(first) <= at(first + 1));
      assert.ok(at(first) >= COST.connection);
    }),
  );
});

test('property: measuring any parseable document never throws', () => {
  const fields = fc.constantFrom('movies', 'places', 'contentLookup(canonicalId: "x")', '__typename', 'nope', 'nodes', 'title', '__schema');
  const selection: fc.Arbitrary<string> = fc.letrec((tie) => ({
    set: fc
      .array(
        fc.oneof(
          fields,
          fc.tuple(fields, tie('set')).map(([f, s]) => `${f} { ${s} }`),
        ),
        { minLength: 1, maxLength: 4 },
      )
      .map((parts) => parts.join(' ')),
  })).set as fc.Arbitrary<string>;
  fc.assert(
    fc.property(selection, (set) => {
      const demand = measure(`{ ${set} }`);
      assert.ok(Number.isFinite(demand.cost) && demand.cost >= 0);
    }),
  );
});
