/**
 * The OpenAPI description as a document: valid against the official OpenAPI 3.1 schema,
 * every example valid against the schema beside it (both checked by hyperjump, not by
 * our generator), deterministic, and complete with respect to the declarations — every
 * collection, filter, sort field, served media type and problem slug appears.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
// Registers the format checks (date-time, uri-reference…) that setShouldValidateFormat turns on.
import '@hyperjump/json-schema/formats';
import { setShouldValidateFormat, validate } from '@hyperjump/json-schema/openapi-3-1';
import yaml from 'js-yaml';
import { restCollections } from '../../src/collections/index.ts';
import { PROBLEMS } from '../../src/core/problems.ts';
import { isGeographic, offeredMediaTypes } from '../../src/openapi/collection-paths.ts';
import { openApiDocument } from '../../src/openapi/document.ts';
import type { JsonValue, MediaType, Operation, Parameter, Reference } from '../../src/openapi/types.ts';
import { openApiYaml } from '../../src/openapi/yaml.ts';

setShouldValidateFormat(true);
const doc = openApiDocument();
const dir = mkdtempSync(join(tmpdir(), 'openapi-doc-'));
const file = join(dir, 'collections.openapi.json');
writeFileSync(file, JSON.stringify(doc));
const uri = pathToFileURL(file).href;

const segment = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

test('valid against the OpenAPI 3.1 schema (2020-12 dialect)', async () => {
  const output = await validate('https://spec.openapis.org/oas/3.1/schema-draft-2020-12', JSON.parse(JSON.stringify(doc)) as JsonValue, 'BASIC');
  assert.ok(output.valid, output.valid ? '' : JSON.stringify(output.errors?.slice(0, 10), null, 1));
});

test('every example is valid against its schema', async () => {
  let checked = 0;
  const visit = async (node: unknown, at: string): Promise<void> => {
    if (typeof node !== 'object' || node === null) return;
    const media = node as Partial<MediaType>;
    if (media.schema && media.examples) {
      for (const [name, example] of Object.entries(media.examples)) {
        const output = await validate(`${uri}${at}/schema`, example.value as JsonValue, 'BASIC');
        assert.ok(output.valid, output.valid ? '' : `${at} example ${name}: ${JSON.stringify(output.errors?.slice(0, 5), null, 1)}`);
        checked++;
      }
    }
    for (const [key, child] of Object.entries(node)) await visit(child, `${at}/${segment(key)}`);
  };
  await visit(doc, '#');
  assert.ok(checked >= restCollections.length, `only ${checked} examples`);
});

test('the same code gives the same document, and YAML says the same', () => {
  assert.equal(JSON.stringify(openApiDocument()), JSON.stringify(doc));
  assert.deepEqual(yaml.load(openApiYaml()), JSON.parse(JSON.stringify(doc)));
});

const isRef = (p: Parameter | Reference): p is Reference => '$ref' in p;

test('every collection: its operations, filters, sort fields, media types and problems', () => {
  for (const c of restCollections) {
    const item = doc.paths[`/api/${c.name}.json`];
    assert.ok(item?.get && item.head && item.options, c.name);
    const get = item.get as Operation;
    const names = new Set(get.parameters!.map((p) => (isRef(p) ? p.$ref.split('/').pop()! : p.name)));
    for (const param of [...Object.keys(c.filters), 'q', 'sort', 'limit', 'cursor', 'facets']) assert.ok(names.has(param), `${c.name} ${param}`);
    const sort = get.parameters!.find((p): p is Parameter => !isRef(p) && p.name === 'sort')!;
    const pattern = new RegExp(String(sort.schema.pattern), 'u');
    for (const field of Object.keys(c.sort)) assert.ok(pattern.test(`${field}:desc`), `${c.name} sorts by ${field}`);
    assert.ok(!pattern.test('nope:asc'), `${c.name} sort pattern refuses unknown fields`);
    const ok = get.responses['200'] as { content: Record<string, unknown> };
    assert.deepEqual(Object.keys(ok.content), offeredMediaTypes(c), c.name);
    // Stands in for redocly's operation-4xx-response, which redocly.yaml turns off for preflights and static documents.
    const expected = ['200', '304', '400', '406', '414', '429', '500', ...(isGeographic(c) ? ['503'] : [])];
    for (const op of [item.get, item.head]) assert.deepEqual(Object.keys(op!.responses).sort(), expected.sort(), `${c.name} ${op!.operationId}`);
  }
});

test('the filters SPEC calls strings list known values as examples, never as a closed enum; year, movies type and places category stay closed', () => {
  const parameter = (name: string, param: string) =>
    (doc.paths[`/api/${name}.json`]!.get as Operation).parameters!.find((p): p is Parameter => !isRef(p) && p.name === param)!.schema as Record<
      string,
      unknown
    >;
  for (const [name, param] of [
    ['activities', 'sportType'],
    ['sporting-events', 'experience'],
    ['sporting-events', 'experienceStatus'],
    ['music', 'type'],
    ['code', 'kind'],
    ['work', 'kind'],
  ]) {
    const schema = parameter(name!, param!);
    assert.equal(schema.type, 'string', `${name} ${param}`);
    assert.equal(schema.enum, undefined, `${name} ${param} is not a closed enum`);
    assert.ok(Array.isArray(schema.examples) && schema.examples.length > 0, `${name} ${param} lists known values`);
  }
  assert.equal(parameter('activities', 'year').type, 'integer');
  assert.deepEqual(parameter('movies', 'type').enum, ['movie', 'tv']);
  assert.ok(Array.isArray(parameter('places', 'category').enum));
});

test('every problem slug is documented under its status', () => {
  const text = JSON.stringify(doc.components.responses);
  for (const slug of Object.keys(PROBLEMS)) {
    if (slug === 'method-not-allowed') continue; // described on each collection path: OpenAPI cannot list "any other method"
    assert.ok(text.includes(`/problems/${slug}`), slug);
  }
});
