/**
 * The subset of the OpenAPI 3.1 object model this service's description uses, typed
 * closely enough that a misplaced field fails to compile, and loosely where OpenAPI
 * itself defers to JSON Schema (a schema is any JSON object). Everything here is plain
 * JSON data: the document is serialised as is to `/openapi.json` and `/openapi.yaml`.
 */

/** JSON values and JSON Schema 2020-12 (the document's `jsonSchemaDialect`) are the records' own. */
import type { JsonObject, JsonSchema, JsonValue } from '../collections/item-schema.ts';
export type { JsonObject, JsonSchema, JsonValue };

/** A type alias, not an interface, so a reference is also a JSON object (a schema `$ref`). */
export type Reference = { $ref: string };

export interface Example {
  summary?: string;
  value: JsonValue;
}

export interface MediaType {
  schema: JsonSchema;
  examples?: Record<string, Example>;
  example?: unknown;
}

export interface Header {
  description: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface Response {
  description: string;
  headers?: Record<string, Header | Reference>;
  content?: Record<string, MediaType>;
}

export interface Parameter {
  name: string;
  in: 'query' | 'header' | 'path';
  description: string;
  required?: boolean;
  schema: JsonSchema;
  /** `form` + `explode` for a parameter given once per value (`collection=a&collection=b`). */
  style?: 'form';
  explode?: boolean;
  example?: JsonValue;
}

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: (Parameter | Reference)[];
  requestBody?: { required: boolean; content: Record<string, MediaType> };
  responses: Record<string, Response | Reference>;
  /** Empty: every public operation is anonymous; only the owner lane's `/owner/mcp` names its OAuth scheme. */
  security: SecurityRequirement[];
}

/** A security requirement: scheme name → the scopes it needs. */
export type SecurityRequirement = Record<string, string[]>;

export interface PathItem {
  summary?: string;
  description?: string;
  parameters?: (Parameter | Reference)[];
  get?: Operation;
  head?: Operation;
  post?: Operation;
  options?: Operation;
  /** The HTTP QUERY operation, which OpenAPI 3.1 cannot name (3.2 can). */
  'x-query'?: Operation;
}

export interface Tag {
  name: string;
  description: string;
  /** Redoc's display name; tag names stay the URL segments clients use. */
  'x-displayName'?: string;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: {
    title: string;
    version: string;
    summary: string;
    description: string;
    license: { name: string; identifier: string };
  };
  jsonSchemaDialect: string;
  servers: { url: string; description: string }[];
  security: [];
  tags: Tag[];
  paths: Record<string, PathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, Parameter>;
    headers: Record<string, Header>;
    responses: Record<string, Response>;
    securitySchemes: Record<string, JsonObject>;
  };
}

export const ref = (kind: 'schemas' | 'parameters' | 'headers' | 'responses', name: string): Reference => ({ $ref: `#/components/${kind}/${name}` });
