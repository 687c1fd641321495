import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cycles, loopThrough, type ImportGraph } from '../../scripts/import-cycles.ts';

const graphOf = (edges: Record<string, string[]>): ImportGraph => ({
  modules: Object.keys(edges).sort(),
  edges: new Map(Object.entries(edges)),
});

test('import-cycles: a chain has no cycle', () => {
  assert.deepEqual(cycles(graphOf({ a: ['b'], b: ['c'], c: [] })), []);
});

test('import-cycles: finds each strongly connected component and a loop through it', () => {
  const graph = graphOf({ a: ['b'], b: ['c'], c: ['a', 'd'], d: ['e'], e: ['d'], f: ['f'], g: ['a'] });
  assert.deepEqual(cycles(graph), [['a', 'b', 'c'], ['d', 'e'], ['f']]);
  assert.deepEqual(loopThrough(graph, ['a', 'b', 'c']), ['a', 'b', 'c', 'a']);
  assert.deepEqual(loopThrough(graph, ['f']), ['f', 'f']);
});
