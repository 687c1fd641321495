import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { spread, figures, writeResults } from '../../bench/results.ts';
import { loopTables } from '../../src/compile/docs/bench-loop.ts';
import { benchTables, type BenchResults, type BuildFigures, type LoadFigures } from '../../src/compile/docs/bench-readme.ts';
import { targetTable } from '../../src/compile/docs/bench-targets.ts';

const run = (rps: number) => ({ rps, p50Ms: 1, p99Ms: 5, requests: rps, non2xx: 0, errors: 0, rssMb: 100 });
const facts = { date: '2026-01-01', node: 'v24.0.0', machine: '2 × test CPU, 4 GB' };
const build = (records: number): BuildFigures => ({ ...facts, records, compileSeconds: 1, buildSeconds: 2, peakRssMb: 300, imageMb: 10 });

test('a figure over runs is its median and its spread', () => {
  assert.deepEqual(spread([30, 10, 20], 0), { median: 20, min: 10, max: 30 });
  assert.deepEqual(spread([1, 2, 3, 4], 1), { median: 2.5, min: 1, max: 4 });
  const f = figures([run(100), { ...run(300), non2xx: 2 }, { ...run(200), errors: 1 }]);
  assert.deepEqual([f.rps.median, f.requests, f.non2xx, f.errors], [200, 600, 2, 1]);
});

test('results merge section by section, with sorted keys, so the same figures are the same bytes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-results-'));
  try {
    const path = join(dir, 'results.json');
    writeResults(path, { build: { 100000: build(100000) }, note: 'smoke' });
    const merged = writeResults(path, { build: { 1000000: build(1000000) } });
    assert.deepEqual(Object.keys(merged.build).sort(), ['100000', '1000000']);
    assert.equal(merged.note, 'smoke');
    const text = readFileSync(path, 'utf8');
    writeResults(path, { build: { 1000000: build(1000000), 100000: build(100000) } });
    assert.equal(readFileSync(path, 'utf8'), text);
    assert.equal(writeResults(path, { note: undefined }).note, undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the README tables state the note, the ratio to the bare server and to REST for the same question, and the targets', () => {
  const load = (rps: number): LoadFigures => figures([run(rps)]);
  const results: BenchResults = {
    note: 'Smoke run: not the record.',
    build: { 100000: build(100000) },
    load: {
      ...facts,
      loadGenerator: 'autocannon 9.0.0',
      records: 100000,
      collection: 'tweets',
      collectionRecords: 16000,
      connections: 16,
      seconds: 8,
      runs: 3,
      rows: [
        { id: 'rest', label: 'REST', request: 'GET /api/movies.json', bodyBytes: 1000, warm: load(1000), cold: load(400), bare: load(2000) },
        {
          id: 'graphql',
          label: 'GraphQL',
          request: 'POST /graphql',
          bodyBytes: 900,
          sameQuestionAs: 'rest',
          warm: load(500),
          cold: load(300),
          bare: load(2000),
          nginx: 'absent',
        },
      ],
    },
  };
  const text = benchTables(results);
  assert.ok(text.startsWith('**Smoke run: not the record.**'));
  assert.match(text, /\| GraphQL \| 900 \| 500 \| 300 \| 2,000 \| 0\.25 \/ 0\.15 \| 0\.50 \/ 0\.75 \(REST\) \|/);
  assert.match(text, /nginx .*: not installed/);
  assert.match(text, /\| 100,000 \| 1\.00 s \| 2\.00 s \| 300 MB \| 10\.0 MB \|/);
  // Each target beside its figure; a figure these results lack says so.
  const targets = targetTable(results);
  assert.match(targets, /\| GraphQL ÷ REST, caches \| ≥ 0\.5 \| 0\.500 \| yes \|/);
  assert.match(targets, /\| GraphQL ÷ REST, cold \| ≥ 0\.5 \| 0\.750 \| yes \|/);
  assert.match(targets, /\| compile, 1,000,000 records \| ≤ 120 s \| not measured \| — \|/);
  assert.match(targets, /\| compile, 100,000 records \| ≤ 8 s \| 1\.00 s \| yes \|/);
  assert.match(targets, /\| peak RSS of the build, 100,000 records \| ≤ 1 GiB \| 300 MB \| yes \|/);
  assert.match(targets, /\| a saved edit served everywhere, 1,000,000 records \(slowest edit\) \| ≤ 2 s \| not measured \| — \|/);
});

test('the dev loop is recorded by record count, and judged on its slowest edit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-loop-'));
  try {
    const path = join(dir, 'results.json');
    const edits = (ms: number) => [
      { label: 'edit one record (a concert)', ms, serverMs: ms / 2, changed: '/api/concerts.json /calendar.ics' },
      { label: 'add one record (a place)', ms: ms * 1.5, serverMs: ms, changed: '/places.geojson' },
    ];
    writeResults(path, { build: {}, rebuild: { 100000: { ...facts, records: 100000, edits: edits(400) } } });
    const merged = writeResults(path, { build: {}, rebuild: { 1000000: { ...facts, records: 1000000, edits: edits(1800) } } });
    assert.deepEqual(Object.keys(merged.rebuild!).sort(), ['100000', '1000000']);
    assert.match(loopTables(merged.rebuild), /\| add one record \(a place\) \| 2\.70 s \| 1\.80 s \| `\/places\.geojson` \|/);
    assert.match(targetTable(merged), /\| a saved edit served everywhere, 1,000,000 records \(slowest edit\) \| ≤ 2 s \| 2\.70 s \| \*\*no\*\* \|/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
