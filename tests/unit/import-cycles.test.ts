/**
 * The import-graph check (scripts/import-cycles.ts): its algorithm on small graphs, and
 * the project itself — no cycle, type imports included, and no import across a layer.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cycles, importGraph, layerViolations, loopThrough, type ImportGraph } from '../../scripts/import-cycles.ts';

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

test('import-cycles: a tool that names the Runtime, or a generation that imports a handler, crosses a layer', () => {
  const graph = graphOf({
    'src/mcp/find.ts': ['src/runtime/runtime.ts', 'src/mcp/context.ts'],
    'src/runtime/runtime.ts': ['functions/rest.ts'],
    'src/runtime/serving.ts': ['functions/rest.ts', 'src/runtime/runtime.ts'],
    'functions/rest.ts': [],
    'src/mcp/context.ts': [],
  });
  assert.deepEqual(
    layerViolations(graph).map((v) => `${v.from} → ${v.to}`),
    ['src/mcp/find.ts → src/runtime/runtime.ts', 'src/runtime/runtime.ts → functions/rest.ts'],
  );
});

test('the project has no import cycle (type imports included) and no import across a layer', () => {
  const graph = importGraph();
  assert.ok(graph.modules.length > 100, 'the graph holds the project');
  assert.deepEqual(cycles(graph), []);
  assert.deepEqual(layerViolations(graph), []);
});
