/**
 * The import's store on disk (src/import/store.ts) gives back what went in: candidates
 * with what JSON cannot say (bytes, dates, NaN, -0, infinities), the first place of a
 * record read twice with the later one's fields, and the ledger written as it always
 * was — `JSON.stringify` of the object of its sorted keys, whatever the keys (array
 * indexes, which an object puts first, and strings past U+FFFF, which UTF-8 and UTF-16
 * order differently) — and read back from its file, streamed when it is in that shape and
 * whole when it is not, to the same records.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ledgerText, loadLedger } from '../../src/import/ledger.ts';
import { ImportStore } from '../../src/import/store.ts';
import fc from '../helpers/fc.ts';

test('store: candidates come back as they went in, a record read twice at its first place with its later fields', () => {
  const store = new ImportStore();
  try {
    const odd = {
      origin: 'a.csv row 2',
      fields: { nan: NaN, negativeZero: -0, far: -Infinity, list: [1, 'x'], when: new Date(5), nested: { n: Infinity } },
      attachments: [{ path: 'media/x.jpg', bytes: Buffer.from([0, 1, 255]) }],
    };
    assert.equal(store.addCandidate('1', { origin: 'a.csv row 1', fields: { title: 'first' } }), true);
    assert.equal(store.addCandidate(undefined, odd), true);
    assert.equal(store.addCandidate('2', { origin: 'a.csv row 3', fields: { title: 'second' } }), true);
    assert.equal(store.addCandidate('1', { origin: 'a.csv row 4', fields: { title: 'first, again' } }), false);
    const back = [...store.candidates()];
    assert.deepEqual(
      back.map((c) => c.origin),
      ['a.csv row 4', 'a.csv row 3', 'a.csv row 2'],
    );
    assert.deepStrictEqual(back[2], odd);
    assert.ok(Object.is(back[2]!.fields.negativeZero, -0));
  } finally {
    store.close();
  }
});

const key = fc.oneof(
  fc.nat({ max: 4294967296 }).map(String),
  fc.constantFrom('0', '00', '01', '4294967294', '4294967295', '-1', '1e3', '7000000001', '1040650001122334455', '__proto__', 'constructor'),
  fc.string({ unit: fc.constantFrom('a', 'Z', '0', '/', ':', 'é', '\uffff', '\ue000', '😀', '𝄞'), maxLength: 6 }),
);
const value = fc.record(
  {
    file: fc.constantFrom('tweets/twitter-2018.yaml', 'activities/strava-2024.yaml'),
    revision: fc.string({ maxLength: 22 }),
    privacyRadiusMeters: fc.option(fc.nat(), { nil: undefined }),
  },
  { requiredKeys: ['file', 'revision'] },
);

test('store: the ledger is written as JSON.stringify writes the object of its sorted keys', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(key, value), { maxLength: 30 }), (records) => {
      const store = new ImportStore();
      try {
        const object: Record<string, unknown> = {};
        for (const [k, v] of records) {
          Object.defineProperty(object, k, { value: v, enumerable: true, writable: true, configurable: true });
          store.ledgerSet(k, v);
        }
        const sorted: Record<string, unknown> = {};
        for (const k of Object.keys(object).sort())
          Object.defineProperty(sorted, k, { value: object[k], enumerable: true, writable: true, configurable: true });
        const expected = `${JSON.stringify({ source: 'twitter', records: sorted }, null, 2)}\n`;
        assert.equal([...ledgerText('twitter', store.ledgerEntries())].join(''), expected);
      } finally {
        store.close();
      }
    }),
    { numRuns: 300 },
  );
});

test('store: a ledger file reads back to the same records, streamed or (in another shape) whole', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'import-ledger-'));
  try {
    mkdirSync(join(dir, '.import'));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(key, value), { maxLength: 20 }), fc.boolean(), async (records, reshaped) => {
        const written = new ImportStore();
        for (const [k, v] of records) written.ledgerSet(k, v);
        const text = [...ledgerText('strava', written.ledgerEntries())].join('');
        written.close();
        // Another shape: the records first, on one line.
        const other = JSON.parse(text) as { source: string; records: unknown };
        writeFileSync(join(dir, '.import', 'strava.json'), reshaped ? JSON.stringify({ records: other.records, source: other.source }) : text);
        const read = new ImportStore();
        try {
          await loadLedger(dir, 'strava', read);
          assert.equal([...ledgerText('strava', read.ledgerEntries())].join(''), text);
        } finally {
          read.close();
        }
      }),
      { numRuns: 150 },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
