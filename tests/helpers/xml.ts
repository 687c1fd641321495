/**
 * XML checks by libxml2, the validator behind `xmllint --schema`, compiled to WebAssembly
 * (`xmllint-wasm`): it runs in process, so the tests need nothing outside npm. Each call
 * starts a worker thread with its own libxml2 (about 0.3 s) and sees only the document and
 * the schema files handed to it: no disk, no network.
 *
 * A check passes only when libxml2 exits 0 and says nothing but "<name> validates": a
 * warning (say, a schema import it could not load) fails it too.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { validateXML, type XMLFileInfo } from 'xmllint-wasm';

/** Copies of ../shared/schemas, so the suite runs from any checkout. */
const SCHEMAS = new URL('../schemas/', import.meta.url);
const schemaFile = (fileName: string): XMLFileInfo => ({ fileName, contents: readFileSync(new URL(fileName, SCHEMAS), 'utf8') });

/** Each schema, with the files its `xsd:import`s name (by relative schemaLocation). */
const SCHEMA_SETS = {
  /** OGC KML 2.2, importing its subset of Atom (atom:author, atom:link) and OASIS xAL. */
  kml: { schema: schemaFile('ogckml22.xsd'), imports: [schemaFile('atom-author-link.xsd'), schemaFile('xAL.xsd')] },
  /** Topografix GPX 1.1. */
  gpx: { schema: schemaFile('gpx-1.1.xsd'), imports: [] },
} as const;

export type XmlSchema = keyof typeof SCHEMA_SETS;

async function xmllint(fileName: string, contents: string, set?: (typeof SCHEMA_SETS)[XmlSchema]): Promise<{ valid: boolean; output: string }> {
  try {
    const result = await validateXML({
      xml: { fileName, contents },
      schema: set ? [set.schema] : [],
      preload: set ? [...set.imports] : [],
      modifyArguments: (args) => ['--nonet', ...args],
    });
    return { valid: result.valid, output: result.rawOutput };
  } catch (error) {
    // xmllint-wasm rejects on exit codes other than 0, 3 and 4 (for instance 5: the schema does not compile).
    const { code, message } = error as Error & { code?: number };
    return { valid: false, output: `xmllint exited with ${code}: ${message}` };
  }
}

/** Fails unless `xml` is valid against the named schema (`xmllint --nonet --noout --schema`). */
export async function assertValidXml(xml: string, schema: XmlSchema, name = `document.${schema}`): Promise<void> {
  const { valid, output } = await xmllint(name, xml, SCHEMA_SETS[schema]);
  assert.ok(valid && output === `${name} validates\n`, `${name} is not valid against the ${schema.toUpperCase()} schema:\n${output}`);
}

/** Fails unless `xml` is well-formed (`xmllint --nonet --noout`). */
export async function assertWellFormedXml(xml: string, name = 'document.xml'): Promise<void> {
  const { valid, output } = await xmllint(name, xml);
  assert.ok(valid && output === '', `${name} is not well-formed XML:\n${output}`);
}
