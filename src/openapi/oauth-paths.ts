/**
 * The owner lane in the description (SPEC §4.8, §5; issue 17): the two discovery
 * documents, registration, the token and revocation endpoints, the authorization page
 * and `/owner/mcp` behind its token. These endpoints answer OAuth errors in their own
 * shape (RFC 6749 §5.2: `error`, `error_description`), not problem details; refusals the
 * runtime makes before any OAuth endpoint runs (a quota, an oversized body) are problems
 * as everywhere else. `/owner/mcp` is the one operation with a security requirement: the
 * OAuth 2.0 authorization code flow with PKCE, whose access token is sent as
 * `Authorization: Bearer` (RFC 6750 §2.1).
 */
import { LIMITS } from '../core/limits.ts';
import { OWNER_TOOLS } from '../mcp/owner-tools.ts';
import { BATCH_PROTOCOL_VERSION } from '../mcp/streamable-http.ts';
import { SCOPE, SCOPE_NAMES, SCOPES } from '../oauth/scopes.ts';
import { MICROPUB_URLS, OAUTH_URLS } from '../urls.ts';
import { problemRef } from './problems.ts';
import { ref, type JsonSchema, type Operation, type PathItem, type Response } from './types.ts';

/** The security scheme of `/owner/mcp`, for `components.securitySchemes`. */
export const OWNER_SECURITY_SCHEMES = {
  ownerOAuth: {
    type: 'oauth2',
    description: `The owner lane's OAuth 2.1 authorization server: public clients (register at \`${OAUTH_URLS.register}\`, or use a Client ID Metadata Document URL as \`client_id\`), PKCE with S256 only, \`resource\` = this site's \`${OAUTH_URLS.ownerMcp}\` URL. Only the site's owner can approve a grant. Access tokens live ${LIMITS.oauthAccessTokenSeconds} s, refresh tokens ${LIMITS.oauthRefreshTokenSeconds / 86_400} days (rotated on each use), codes ${LIMITS.oauthCodeSeconds} s, registered clients ${LIMITS.oauthClientSeconds / 86_400} days.`,
    flows: { authorizationCode: { authorizationUrl: OAUTH_URLS.authorize, tokenUrl: OAUTH_URLS.token, refreshUrl: OAUTH_URLS.token, scopes: { ...SCOPES } } },
  },
  ownerBearer: {
    type: 'http',
    scheme: 'bearer',
    description: `The access token the \`ownerOAuth\` flow issues (opaque), in \`Authorization: Bearer …\`; accepted at \`${OAUTH_URLS.ownerMcp}\` and, under the Micropub scopes, at \`${MICROPUB_URLS.micropub}\` and \`${MICROPUB_URLS.media}\`, only for the resource it was issued for.`,
  },
} as const;

const OAUTH_ERRORS = [
  'invalid_request',
  'invalid_client',
  'invalid_client_metadata',
  'invalid_grant',
  'invalid_scope',
  'invalid_target',
  'unauthorized_client',
  'unsupported_grant_type',
  'unsupported_token_type',
  'insufficient_scope',
  'invalid_token',
];

/** RFC 6749 §5.2 (and RFC 7591 §3.2.2, RFC 6750 §3.1): the OAuth error shape. */
export const OAUTH_SCHEMAS: Record<string, JsonSchema> = {
  OAuthError: {
    type: 'object',
    description:
      'An OAuth error (RFC 6749 §5.2): `invalid_grant` — discard the code or token and start the step again; `invalid_client` — register again; `invalid_client_metadata`, `invalid_request`, `invalid_scope`, `invalid_target` — fix the request.',
    properties: { error: { type: 'string', enum: OAUTH_ERRORS }, error_description: { type: 'string' } },
    required: ['error'],
  },
};

const NO_STORE_HEADER = { description: 'Never cached (RFC 6749 §5.1).', required: true, schema: { type: 'string', const: 'no-store' } };
const oauthError = (description: string): Response => ({
  description,
  headers: { 'Cache-Control': NO_STORE_HEADER },
  content: { 'application/json': { schema: ref('schemas', 'OAuthError') } },
});
const json = (description: string, schema: JsonSchema): Response => ({ description, content: { 'application/json': { schema } } });
const html = (description: string): Response => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const redirect = (description: string): Response => ({
  description,
  headers: { Location: { description: 'Where the browser goes next.', required: true, schema: { type: 'string', format: 'uri' } } },
});
const preflight = (id: string, tags: string[]): Operation => ({
  operationId: id,
  summary: 'CORS preflight',
  tags,
  security: [],
  responses: { 204: { description: 'Any origin may call (browser-based MCP clients discover and register too).' } },
});
const url = { type: 'string', format: 'uri' };
const strings = { type: 'array', items: { type: 'string' } };
const scopeList = { type: 'array', items: { type: 'string', enum: SCOPE_NAMES } };

const PROTECTED_RESOURCE: JsonSchema = {
  type: 'object',
  properties: {
    resource: url,
    authorization_servers: { type: 'array', items: url },
    scopes_supported: scopeList,
    bearer_methods_supported: { type: 'array', items: { const: 'header' } },
    resource_name: { type: 'string' },
  },
  required: ['resource', 'authorization_servers', 'scopes_supported', 'bearer_methods_supported'],
};

const AUTHORIZATION_SERVER: JsonSchema = {
  type: 'object',
  properties: {
    issuer: url,
    authorization_endpoint: url,
    token_endpoint: url,
    registration_endpoint: url,
    revocation_endpoint: url,
    scopes_supported: scopeList,
    response_types_supported: { type: 'array', items: { const: 'code' } },
    grant_types_supported: strings,
    code_challenge_methods_supported: { type: 'array', items: { const: 'S256' } },
    token_endpoint_auth_methods_supported: { type: 'array', items: { const: 'none' } },
    client_id_metadata_document_supported: { const: true },
    authorization_response_iss_parameter_supported: { const: true },
    agent_auth: {
      type: 'object',
      properties: {
        identity_type: { const: 'service_auth' },
        credential_type: { const: 'access_token' },
        registration_url: url,
        authorization_url: url,
        token_url: url,
        revocation_url: url,
      },
      required: ['registration_url', 'authorization_url', 'token_url', 'revocation_url'],
    },
  },
  required: [
    'issuer',
    'authorization_endpoint',
    'token_endpoint',
    'registration_endpoint',
    'revocation_endpoint',
    'code_challenge_methods_supported',
    'agent_auth',
  ],
};

const CLIENT_METADATA: JsonSchema = {
  type: 'object',
  properties: {
    client_name: { type: 'string', maxLength: LIMITS.oauthMetadataCharsMax },
    redirect_uris: {
      type: 'array',
      minItems: 1,
      maxItems: LIMITS.oauthRedirectUrisMax,
      items: { type: 'string', maxLength: LIMITS.oauthMetadataCharsMax },
      description: 'https, http on a loopback address, or a private-use scheme; matched exactly.',
    },
    grant_types: { type: 'array', items: { enum: ['authorization_code', 'refresh_token'] } },
    response_types: { type: 'array', items: { const: 'code' } },
    token_endpoint_auth_method: { const: 'none' },
  },
  required: ['redirect_uris'],
};

const TOKEN_REQUEST: JsonSchema = {
  type: 'object',
  description: `\`grant_type=authorization_code\` (with \`code\`, \`redirect_uri\`, \`code_verifier\`), \`grant_type=refresh_token\` (with \`refresh_token\`, optionally a narrower \`scope\`), or — without \`grant_type\` — a revocation (\`token\`, \`token_type_hint\`). \`resource\`, when sent, must be the \`${OAUTH_URLS.ownerMcp}\` URL.`,
  properties: {
    grant_type: { enum: ['authorization_code', 'refresh_token'] },
    client_id: { type: 'string' },
    code: { type: 'string' },
    redirect_uri: { type: 'string' },
    code_verifier: { type: 'string', minLength: 43, maxLength: 128 },
    refresh_token: { type: 'string' },
    scope: { type: 'string' },
    resource: url,
    token: { type: 'string' },
    token_type_hint: { enum: ['access_token', 'refresh_token'] },
  },
  required: ['client_id'],
};

const TOKEN_RESPONSE: JsonSchema = {
  type: 'object',
  properties: {
    access_token: { type: 'string' },
    token_type: { const: 'Bearer' },
    expires_in: { const: LIMITS.oauthAccessTokenSeconds },
    refresh_token: { type: 'string' },
    scope: { type: 'string' },
  },
  required: ['access_token', 'token_type', 'expires_in', 'refresh_token', 'scope'],
};

const JSON_RPC: JsonSchema = {
  type: 'object',
  description: 'A JSON-RPC 2.0 message (MCP 2025-11-25).',
  properties: { jsonrpc: { const: '2.0' } },
  required: ['jsonrpc'],
};

const FORM = 'application/x-www-form-urlencoded';
const tags = ['oauth'];

export function oauthPaths(): Record<string, PathItem> {
  return {
    [OAUTH_URLS.protectedResource]: {
      get: {
        operationId: 'getOwnerProtectedResourceMetadata',
        summary: `Protected resource metadata of ${OAUTH_URLS.ownerMcp} (RFC 9728)`,
        tags,
        security: [],
        responses: { 200: json(`Which authorization server issues tokens for \`${OAUTH_URLS.ownerMcp}\`, and its scopes.`, PROTECTED_RESOURCE) },
      },
      options: preflight('preflightOwnerProtectedResourceMetadata', tags),
    },
    [OAUTH_URLS.authorizationServer]: {
      get: {
        operationId: 'getAuthorizationServerMetadata',
        summary: 'Authorization server metadata (RFC 8414)',
        tags,
        security: [],
        responses: { 200: json('The endpoints and what this server supports, with the `agent_auth` block (SPEC §4.8).', AUTHORIZATION_SERVER) },
      },
      options: preflight('preflightAuthorizationServerMetadata', tags),
    },
    [OAUTH_URLS.register]: {
      post: {
        operationId: 'registerOAuthClient',
        summary: 'Register a public client (RFC 7591)',
        description: `Creates no account. The client expires after ${LIMITS.oauthClientSeconds / 86_400} days (\`client_id_expires_at\`); afterwards it is \`invalid_client\` and registers again. At most ${LIMITS.oauthRegistrationsPerWindow} registrations per source address and hour.`,
        tags,
        security: [],
        requestBody: { required: true, content: { 'application/json': { schema: CLIENT_METADATA } } },
        responses: {
          201: json('The registered client: `client_id`, `client_id_issued_at`, `client_id_expires_at` and the metadata as accepted.', {
            type: 'object',
            properties: { client_id: { type: 'string' }, client_id_issued_at: { type: 'integer' }, client_id_expires_at: { type: 'integer' } },
            required: ['client_id', 'client_id_expires_at'],
          }),
          400: oauthError('`invalid_client_metadata`: fix the registration; do not retry it unchanged.'),
          413: oauthError(`The body is larger than ${LIMITS.oauthRegistrationBytesMax} bytes.`),
          429: oauthError('Too many registrations from this address; `Retry-After` says when to try again.'),
        },
      },
      options: preflight('preflightRegisterOAuthClient', tags),
    },
    [OAUTH_URLS.authorize]: {
      get: {
        operationId: 'authorizeOwner',
        summary: 'Authorization request (a browser page)',
        description:
          'Opened in the owner’s browser: `client_id`, `redirect_uri` (exact match), `response_type=code`, `code_challenge` with `code_challenge_method=S256`, `scope`, `state`, `resource`. The owner signs in at their identity provider, then answers a consent page.',
        tags,
        security: [],
        parameters: ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'resource'].map((name) => ({
          name,
          in: 'query' as const,
          required: !['scope', 'state', 'resource'].includes(name),
          description: `The authorization request's \`${name}\`.`,
          schema: { type: 'string' },
        })),
        responses: {
          302: redirect(
            'To the identity provider’s sign-in; or back to the client’s `redirect_uri` with `error`, `state` and `iss` (RFC 6749 §4.1.2.1, RFC 9207).',
          ),
          400: html('An unknown client or a `redirect_uri` it did not register: shown here, never redirected.'),
          404: html('The owner lane is not set up on this site (no identity provider): no grant can be issued.'),
        },
      },
      post: {
        operationId: 'answerOwnerConsent',
        summary: 'The owner’s answer on the consent page (a browser form)',
        tags,
        security: [],
        requestBody: {
          required: true,
          content: { [FORM]: { schema: { type: 'object', properties: { decision: { enum: ['approve', 'deny'] } }, required: ['decision'] } } },
        },
        responses: {
          303: redirect('Back to the client with `code`, `state` and `iss`, or `error=access_denied`.'),
          400: html('The consent form is no longer valid (expired or already answered).'),
          403: html('The form was not sent from this site.'),
        },
      },
    },
    [OAUTH_URLS.token]: {
      post: {
        operationId: 'oauthToken',
        summary: 'Token endpoint: code exchange, refresh, revocation (form-encoded)',
        tags,
        security: [],
        requestBody: { required: true, content: { [FORM]: { schema: TOKEN_REQUEST } } },
        responses: {
          200: {
            description: 'The tokens (a revocation answers 200 with no body).',
            headers: { 'Cache-Control': NO_STORE_HEADER },
            content: { 'application/json': { schema: TOKEN_RESPONSE } },
          },
          400: oauthError(
            '`invalid_request`, `invalid_grant` (discard the code or token and restart the step), `invalid_scope`, `invalid_target`, `unauthorized_client`, `unsupported_grant_type`.',
          ),
          401: oauthError('`invalid_client`: unknown or expired client; register again.'),
          413: oauthError(`The body is larger than ${LIMITS.oauthFormBytesMax} bytes.`),
          429: problemRef(429),
        },
      },
      options: preflight('preflightOAuthToken', tags),
    },
    [OAUTH_URLS.revoke]: {
      post: {
        operationId: 'revokeOAuthToken',
        summary: 'Revoke a token (RFC 7009)',
        description: 'A refresh token revokes its whole grant; an access token only itself. An unknown token is not an error (RFC 7009 §2.2).',
        tags,
        security: [],
        requestBody: {
          required: true,
          content: {
            [FORM]: {
              schema: {
                type: 'object',
                properties: { token: { type: 'string' }, token_type_hint: { enum: ['access_token', 'refresh_token'] }, client_id: { type: 'string' } },
                required: ['token', 'client_id'],
              },
            },
          },
        },
        responses: {
          200: { description: 'Revoked (or never valid).', headers: { 'Cache-Control': NO_STORE_HEADER } },
          400: oauthError('`invalid_request`: `token` is missing.'),
          401: oauthError('`invalid_client`: unknown or expired client.'),
          413: oauthError(`The body is larger than ${LIMITS.oauthFormBytesMax} bytes.`),
        },
      },
      options: preflight('preflightRevokeOAuthToken', tags),
    },
    [OAUTH_URLS.ownerMcp]: {
      description: `The owner lane: the public MCP server’s read tools plus the owner’s tools (${OWNER_TOOLS.map((tool) => `\`${tool.name}\` under \`${tool.scope}\``).join(', ')}), JSON-RPC 2.0 over Streamable HTTP (stateless, JSON responses). Agents send no \`Origin\`; a browser page may call only from this site.`,
      post: {
        operationId: 'ownerMcp',
        summary: 'MCP with the owner’s token',
        tags,
        security: [{ ownerOAuth: [SCOPE.read] }, { ownerBearer: [] }],
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { oneOf: [JSON_RPC, { type: 'array', minItems: 1, maxItems: LIMITS.mcpBatchMessagesMax, items: JSON_RPC }] } },
          },
        },
        responses: {
          200: json('The JSON-RPC response.', JSON_RPC),
          400: json(
            `The body is not one JSON-RPC message or a batch of 1 to ${LIMITS.mcpBatchMessagesMax}, or it is a batch under a protocol version without batches (only ${BATCH_PROTOCOL_VERSION} has them; the same refusal as \`/mcp\`'s), as a JSON-RPC error.`,
            JSON_RPC,
          ),
          401: {
            ...oauthError('No token, or a bad, expired, revoked or foreign one (`invalid_token`).'),
            headers: {
              'WWW-Authenticate': {
                description: `\`Bearer resource_metadata="…${OAUTH_URLS.protectedResource}", scope="${SCOPE.read}"\` (RFC 6750 §3, RFC 9728 §5.1).`,
                required: true,
                schema: { type: 'string', pattern: '^Bearer ' },
              },
            },
          },
          403: {
            description:
              'A tool call needing a scope the token lacks (`insufficient_scope`, with `WWW-Authenticate` naming it), as an OAuth error; or another host or another site’s page (`forbidden-origin`), as a problem.',
            content: { 'application/json': { schema: ref('schemas', 'OAuthError') }, 'application/problem+json': { schema: ref('schemas', 'Problem') } },
          },
          413: json(`The body is larger than ${LIMITS.mcpRequestBytesMax} bytes (a JSON-RPC error).`, JSON_RPC),
          421: problemRef(421),
          429: problemRef(429),
        },
      },
      options: {
        operationId: 'preflightOwnerMcp',
        summary: 'CORS preflight: granted to no other origin',
        tags,
        security: [],
        responses: { 204: { description: 'From this site itself: `Allow: POST, OPTIONS`, and no CORS grant.' }, 403: problemRef(403) },
      },
    },
  };
}
