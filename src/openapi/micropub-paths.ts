/**
 * Micropub on the owner lane in the description (issue 40; W3C Recommendation
 * 2017-05-23): `/micropub` — create, update, delete and undelete posts, and the `q=`
 * queries — and its media endpoint, `/micropub/media`. Both take the owner lane's bearer
 * token (in the header, or as `access_token` in a form body, §2.1) under the IndieAuth
 * scopes, and answer refusals in Micropub's shape (§3.8: `error`, `error_description`),
 * not as problem details; refusals the runtime makes before either runs (a quota, a
 * writer path on another replica) are problems as everywhere else. docs/micropub.md says
 * which post lands in which collection.
 */
import { LIMITS } from '../core/limits.ts';
import { SCOPE } from '../oauth/scopes.ts';
import { MICROPUB_URLS } from '../urls.ts';
import { problemRef } from './problems.ts';
import { ref, type JsonSchema, type Operation, type PathItem, type Response, type SecurityRequirement } from './types.ts';

const MICROPUB_ERRORS = ['invalid_request', 'unauthorized', 'insufficient_scope', 'forbidden', 'server_error'];

/** §3.8's error shape, and the microformats2 shapes Micropub reads and answers. */
export const MICROPUB_SCHEMAS: Record<string, JsonSchema> = {
  MicropubError: {
    type: 'object',
    description:
      'A Micropub error (§3.8): `invalid_request` — fix the request (the description says what); `unauthorized` — no token, or a bad one; `insufficient_scope` — authorize again asking for the scope named; `forbidden`.',
    properties: { error: { type: 'string', enum: MICROPUB_ERRORS }, error_description: { type: 'string' } },
    required: ['error', 'error_description'],
  },
  Mf2Entry: {
    type: 'object',
    description:
      'A microformats2 object (`{"type": ["h-entry"], "properties": {…}}`): every property is an array of strings or nested objects. A photo is `{"value": url, "alt": text}`: one without alt text is refused.',
    properties: {
      type: { type: 'array', items: { type: 'string', pattern: '^h-' }, minItems: 1 },
      properties: {
        type: 'object',
        maxProperties: LIMITS.micropubPropertiesMax,
        additionalProperties: { type: 'array', maxItems: LIMITS.micropubValuesMax },
      },
    },
    required: ['type', 'properties'],
  },
};

const NO_STORE = { description: 'Never cached.', required: true, schema: { type: 'string', const: 'no-store' } };
const LOCATION = (what: string) => ({ description: what, required: true, schema: { type: 'string', format: 'uri' } });
const error = (description: string): Response => ({
  description,
  headers: { 'Cache-Control': NO_STORE },
  content: { 'application/json': { schema: ref('schemas', 'MicropubError') } },
});
const unauthorized = (scopes: string): Response => ({
  ...error(
    `\`unauthorized\`: no token, or one that is not a live token of the owner lane; \`insufficient_scope\`: the token lacks ${scopes} (\`WWW-Authenticate\` names it).`,
  ),
  headers: {
    'Cache-Control': NO_STORE,
    'WWW-Authenticate': {
      description: 'The RFC 6750 §3 challenge: `Bearer`, with `error` and `scope` when a token was refused.',
      required: true,
      schema: { type: 'string' },
    },
  },
});
const tooLarge = (within: string) =>
  error(
    `The body is larger than ${within}; a request without an \`Authorization: Bearer\` header may carry at most ${LIMITS.micropubRequestBytesMax} bytes (micropubRequestBytesMax) and is refused from its headers, unread.`,
  );
const preflight = (id: string, allow: string): Operation => ({
  operationId: id,
  summary: 'CORS preflight',
  tags,
  security: [],
  responses: { 204: { description: `Any origin may call (a request proves itself by its bearer token, never a cookie): \`Allow: ${allow}\`.` } },
});

const tags = ['micropub'];
const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';
const formFields: JsonSchema = {
  type: 'object',
  description:
    'A create (`h=entry` or `h=event`, properties as fields, lists as `name[]`, `mp-photo-alt[]` beside photos) or `action=delete|undelete` with `url`. `access_token` may carry the token instead of the header (not both).',
  properties: { h: { type: 'string' }, action: { enum: ['delete', 'undelete'] }, url: { type: 'string', format: 'uri' }, access_token: { type: 'string' } },
  additionalProperties: true,
};
const jsonAction: JsonSchema = {
  type: 'object',
  description:
    'An update (`replace`, `add`: property → values; `delete`: property names, or property → values), a delete or an undelete of the record at `url`.',
  properties: {
    action: { enum: ['update', 'delete', 'undelete'] },
    url: { type: 'string', format: 'uri' },
    replace: { type: 'object', additionalProperties: { type: 'array' } },
    add: { type: 'object', additionalProperties: { type: 'array' } },
    delete: {
      oneOf: [
        { type: 'array', items: { type: 'string' } },
        { type: 'object', additionalProperties: { type: 'array' } },
      ],
    },
  },
  required: ['action', 'url'],
};
const created = (what: string): Response => ({
  description: what,
  headers: { 'Cache-Control': NO_STORE, Location: LOCATION(what) },
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: {
          url: { type: 'string', format: 'uri' },
          ignored: { type: 'array', items: { type: 'string' }, description: 'Properties no field holds.' },
        },
        required: ['url'],
      },
    },
  },
});

export function micropubPaths(): Record<string, PathItem> {
  const writes: SecurityRequirement[] = [{ ownerOAuth: [SCOPE.create] }, { ownerOAuth: [SCOPE.update] }, { ownerOAuth: [SCOPE.delete] }, { ownerBearer: [] }];
  return {
    [MICROPUB_URLS.micropub]: {
      description:
        'The owner’s Micropub endpoint (home page `rel="micropub"`): a post becomes a record of the collection its type maps to (`watch-of` → movies, `read-of` → books, `checkin` → places, `listen-of` → music, `h-event` → events), through the same writer as the owner’s MCP tools. Only the writer replica answers it (421 elsewhere).',
      get: {
        operationId: 'queryMicropub',
        summary: 'Micropub queries: q=config, q=syndicate-to, q=source',
        tags,
        security: [{ ownerOAuth: [] }, { ownerBearer: [] }],
        parameters: [
          {
            name: 'q',
            in: 'query',
            required: true,
            description: '`config`, `syndicate-to` or `source`.',
            schema: { enum: ['config', 'syndicate-to', 'source'] },
          },
          { name: 'url', in: 'query', description: 'With `q=source`: the record’s page.', schema: { type: 'string', format: 'uri' } },
          {
            name: 'properties[]',
            in: 'query',
            description: 'With `q=source`: only these properties.',
            schema: { type: 'array', items: { type: 'string' } },
            style: 'form',
            explode: true,
          },
        ],
        responses: {
          200: {
            description: '`q=config`: `media-endpoint`, `post-types`, `syndicate-to` (empty), `q`; `q=source`: the record as a microformats2 object.',
            headers: { 'Cache-Control': NO_STORE },
            content: { 'application/json': { schema: { type: 'object' } } },
          },
          400: error('`invalid_request`: an unknown `q`, a `url` that is no record’s page, or the token in the URL.'),
          401: unauthorized('nothing more: any scope reads'),
          421: problemRef(421),
          429: problemRef(429),
        },
      },
      post: {
        operationId: 'postMicropub',
        summary: 'Create, update, delete or undelete a post',
        description: `Create: \`201\` with \`Location\`, the record’s page, once the write is rebuilt and served. Update: \`204\` (\`201\` with the new \`Location\` when the title moved the record). Delete and undelete: \`204\`. A form or JSON body within ${LIMITS.micropubRequestBytesMax} bytes, a multipart one within ${LIMITS.micropubMultipartBytesMax} under a bearer header.`,
        tags,
        security: writes,
        requestBody: {
          required: true,
          content: {
            [FORM]: { schema: formFields },
            [MULTIPART]: { schema: { ...formFields, description: 'The same fields as a form, plus files (a `photo` needs its `mp-photo-alt[]`).' } },
            'application/json': { schema: { oneOf: [ref('schemas', 'Mf2Entry'), jsonAction] } },
          },
        },
        responses: {
          201: created('The record’s page.'),
          204: { description: 'Updated, deleted or undeleted.', headers: { 'Cache-Control': NO_STORE } },
          400: error(
            '`invalid_request`: a malformed body, a token sent twice, a photo without alt text, a post type no collection takes (the five are named), or a record the schema refuses.',
          ),
          401: unauthorized('the scope the action needs (`create` or `draft`, `update`, `delete`)'),
          409: error('The record’s file was edited since it was read: read it again (`q=source`) and retry.'),
          413: tooLarge('its type’s bound'),
          415: error('Not form-encoded, multipart or JSON.'),
          421: problemRef(421),
          429: problemRef(429),
          503: error('This server does not rebuild its content: posting is not available here.'),
        },
      },
      options: preflight('preflightMicropub', 'GET, POST, OPTIONS'),
    },
    [MICROPUB_URLS.media]: {
      description:
        'Micropub’s media endpoint (§3.6; `q=config` names it): one image per request, kept in the owner’s media folder, named after its bytes’ SHA-256 (the same upload again answers the same URL and writes nothing), and published by the next full build.',
      post: {
        operationId: 'uploadMicropubMedia',
        summary: 'Upload an image',
        tags,
        security: [{ ownerOAuth: [SCOPE.media] }, { ownerBearer: [] }],
        requestBody: {
          required: true,
          content: {
            [MULTIPART]: {
              schema: {
                type: 'object',
                properties: {
                  file: {
                    type: 'string',
                    contentMediaType: 'application/octet-stream',
                    description: `One JPEG, PNG, WebP or GIF (known by its bytes), at most ${LIMITS.micropubMediaBytesMax} bytes and ${LIMITS.micropubMediaPixelsMax} pixels.`,
                  },
                  access_token: { type: 'string' },
                },
                required: ['file'],
              },
            },
          },
        },
        responses: {
          201: created('The absolute URL the image is published at (`/uploads/<year>/<sha256>.<ext>`), served once the site is next built whole.'),
          400: error('`invalid_request`: not exactly one part named `file`, or a file that starts as an image but cannot be read as one.'),
          401: unauthorized('the `media` scope'),
          413: tooLarge(`${LIMITS.micropubMultipartBytesMax} bytes, or the file is past micropubMediaBytesMax or micropubMediaPixelsMax`),
          415: error('The body is not multipart, or the file is not a JPEG, PNG, WebP or GIF image.'),
          421: problemRef(421),
          429: problemRef(429),
          503: error('This server does not rebuild its content: uploading is not available here.'),
        },
      },
      options: preflight('preflightMicropubMedia', 'POST, OPTIONS'),
    },
  };
}
