/**
 * The API reference for people (and, as Markdown, for agents), read from the OpenAPI
 * document the build publishes (src/openapi/document.ts) — never a second description of
 * the API. One page lists the tags and their operations; one page per tag shows each
 * operation's parameters, request body and responses (with their problem types), and a
 * summary of the schemas it names. Built at build time into plain HTML: no script, no
 * viewer bundle, nothing fetched from another site.
 */
import { PROBLEMS, type ProblemSlug } from '../core/problems.ts';
import { openApiDocument } from '../openapi/document.ts';
import type { JsonSchema, OpenApiDocument, Operation, Parameter, PathItem, Reference, Response } from '../openapi/types.ts';
import { apiReferenceTagUrl } from '../urls.ts';

const METHODS = ['get', 'head', 'post', 'options', 'x-query'] as const;

export interface ParameterView {
  name: string;
  in: string;
  required: boolean;
  type: string;
  description: string;
}

export interface ResponseView {
  status: string;
  description: string;
  mediaTypes: string[];
  /** The problem types this status can carry, as the document registers them. */
  problems: ProblemSlug[];
}

export interface OperationView {
  /** The HTTP method as sent (`QUERY` for the `x-query` extension). */
  method: string;
  path: string;
  id: string;
  summary: string;
  description: string;
  parameters: ParameterView[];
  /** The request body's media types and the schema each names. */
  body: { mediaType: string; type: string }[];
  responses: ResponseView[];
}

export interface SchemaView {
  name: string;
  description: string;
  properties: { name: string; type: string; required: boolean; description: string }[];
}

export interface TagView {
  name: string;
  title: string;
  description: string;
  href: string;
  operations: OperationView[];
  /** The component schemas its operations name, the shared problem schema aside. */
  schemas: SchemaView[];
}

export interface ReferenceView {
  title: string;
  version: string;
  summary: string;
  description: string;
  tags: TagView[];
  problem: SchemaView;
}

const isRef = (value: unknown): value is Reference => typeof value === 'object' && value !== null && '$ref' in value;
const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

/** A schema's type in a few words: `string (date)`, `MoviesItem[]`, `"movie" | "tv"`. */
export function typeText(schema: JsonSchema | undefined): string {
  if (schema === undefined) return 'any';
  if (typeof schema.$ref === 'string') return refName(schema.$ref);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum))
    return schema.enum.length <= 6 ? schema.enum.map((v) => JSON.stringify(v)).join(' | ') : `one of ${schema.enum.length} values`;
  for (const [key, joint] of [
    ['oneOf', ' | '],
    ['anyOf', ' | '],
    ['allOf', ' & '],
  ] as const) {
    if (Array.isArray(schema[key])) return (schema[key] as JsonSchema[]).map(typeText).join(joint);
  }
  const types = Array.isArray(schema.type) ? schema.type.map(String) : typeof schema.type === 'string' ? [schema.type] : [];
  const text =
    types.map((t) => (t === 'array' ? `${typeText(schema.items as JsonSchema | undefined)}[]` : t)).join(' | ') || (schema.properties ? 'object' : 'any');
  return typeof schema.format === 'string' ? `${text} (${schema.format})` : text;
}

/** The component schema names a value refers to, however deep. */
function refsIn(value: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const v of value) refsIn(v, found);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) found.add(refName(v));
      else refsIn(v, found);
    }
  }
  return found;
}

function schemaView(name: string, schema: JsonSchema): SchemaView {
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const properties = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(([property, s]) => ({
    name: property,
    type: typeText(s),
    required: required.has(property),
    description: typeof s.description === 'string' ? s.description : '',
  }));
  return { name, description: typeof schema.description === 'string' ? schema.description : typeof schema.title === 'string' ? schema.title : '', properties };
}

function operationView(doc: OpenApiDocument, path: string, method: (typeof METHODS)[number], item: PathItem, op: Operation): OperationView {
  const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])]
    .map((p) => (isRef(p) ? doc.components.parameters[refName(p.$ref)]! : (p as Parameter)))
    .map((p) => ({ name: p.name, in: p.in, required: p.required === true, type: typeText(p.schema), description: p.description }));
  const body = Object.entries(op.requestBody?.content ?? {}).map(([mediaType, m]) => ({ mediaType, type: typeText(m.schema) }));
  const responses = Object.entries(op.responses).map(([status, r]) => {
    const response: Response = isRef(r) ? doc.components.responses[refName(r.$ref)]! : r;
    const problems = Number(status) >= 400 ? (Object.keys(PROBLEMS) as ProblemSlug[]).filter((slug) => PROBLEMS[slug].status === Number(status)) : [];
    return { status, description: response.description, mediaTypes: Object.keys(response.content ?? {}), problems };
  });
  return {
    method: method === 'x-query' ? 'QUERY' : method.toUpperCase(),
    path,
    id: op.operationId,
    summary: op.summary,
    description: op.description ?? '',
    parameters,
    body,
    responses,
  };
}

/** The reference as its pages show it: every operation of the document under its first tag, in the document's order. */
export function referenceView(doc: OpenApiDocument): ReferenceView {
  const byTag = new Map<string, { operations: OperationView[]; refs: Set<string> }>(doc.tags.map((t) => [t.name, { operations: [], refs: new Set<string>() }]));
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      const tag = op === undefined ? undefined : byTag.get(op.tags[0]!);
      if (op === undefined || tag === undefined) continue;
      tag.operations.push(operationView(doc, path, method, item, op));
      refsIn(op, tag.refs);
    }
  }
  const schemas = doc.components.schemas;
  const tags = doc.tags.map((t) => {
    const { operations, refs } = byTag.get(t.name)!;
    // One level of the schemas the named ones name (a page's items), so a tag shows the records it answers.
    for (const name of [...refs]) refsIn(schemas[name], refs);
    refs.delete('Problem');
    return {
      name: t.name,
      title: t['x-displayName'] ?? t.name,
      description: t.description,
      href: apiReferenceTagUrl(t.name),
      operations,
      schemas: [...refs]
        .filter((name) => schemas[name] !== undefined)
        .sort()
        .map((name) => schemaView(name, schemas[name]!)),
    };
  });
  return {
    title: doc.info.title,
    version: doc.info.version,
    summary: doc.info.summary,
    description: doc.info.description,
    tags: tags.filter((t) => t.operations.length > 0),
    problem: schemaView('Problem', schemas.Problem!),
  };
}

/** The view of one tag's page. */
export const tagView = (view: ReferenceView, name: string) => view.tags.find((t) => t.name === name);

let built: ReferenceView | undefined;

/** The reference of this build's OpenAPI document, made once per process (every reference page reads it). */
export function apiReference(): ReferenceView {
  built ??= referenceView(openApiDocument());
  return built;
}
