/**
 * The schema as a contract: it only evolves additively against the committed snapshot
 * (graphql's own `findBreakingChanges`), the snapshot is current, every GraphQL limit is
 * listed in the schema description, deprecations carry guidance, and the demand-control
 * directives sit where the work happens.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { buildSchema, isEnumType, isInputObjectType, isInterfaceType, isObjectType } from 'graphql';
import { LIMIT_DEFINITIONS } from '../../src/core/limits.ts';
import { restCollections } from '../../src/collections/index.ts';
import { graphqlSdl } from '../../src/graphql/schema.ts';
import { breakingChanges, SNAPSHOT_PATH } from '../../src/graphql/snapshot.ts';

const committed = readFileSync(SNAPSHOT_PATH, 'utf8');
const current = graphqlSdl();

test('no breaking change against the committed schema.graphql (v1 evolves additively)', () => {
  assert.deepEqual(
    breakingChanges(committed, current).map((c) => `${c.type}: ${c.description}`),
    [],
  );
});

test('the breaking-change check can fail: removing a field or narrowing an argument is caught', () => {
  const removed = current.replace('\n  "Records matching the filter, across all pages."\n  totalCount: Int!', '');
  assert.ok(breakingChanges(current, removed).some((c) => c.type === 'FIELD_REMOVED'));
  const narrowed = current.replace('first: Int = 50', 'first: Int! = 50');
  assert.ok(breakingChanges(current, narrowed).length > 0);
});

test('the committed snapshot is the generated schema (npm run docs moves it forward)', () => {
  assert.equal(committed, current);
});

test('the schema description lists every GraphQL limit by name and value', () => {
  const schema = buildSchema(current);
  const description = schema.description ?? '';
  for (const [name, limit] of Object.entries(LIMIT_DEFINITIONS).filter(([name]) => name.startsWith('graphql'))) {
    assert.ok(description.includes(`${name}: ${limit.value} ${limit.unit}`), name);
  }
});

test('every deprecation carries guidance: what to use instead and when it goes', () => {
  const schema = buildSchema(current);
  const reasons: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) if (field.deprecationReason) reasons.push(field.deprecationReason);
    }
    if (isEnumType(type)) for (const value of type.getValues()) if (value.deprecationReason) reasons.push(value.deprecationReason);
  }
  for (const reason of reasons) assert.match(reason, /Use .+ instead.*\d{4}-\d{2}-\d{2}/, reason);
});

test('one connection per REST collection, each with the IBM cost and list-size directives', () => {
  const query = buildSchema(current).getQueryType()!;
  for (const c of restCollections) {
    const field = Object.values(query.getFields()).find((f) => f.description?.includes(`(/api/${c.name}.json)`));
    assert.ok(field, c.name);
    const directives = field.astNode!.directives!.map((d) => d.name.value);
    assert.deepEqual(directives, ['cost', 'listSize']);
    assert.deepEqual(
      field.args.map((a) => a.name),
      ['first', 'after', 'filter', 'orderBy', 'includeFacets'],
    );
  }
  assert.ok(query.astNode!.directives!.some((d) => d.name.value === 'rateLimit'));
});
