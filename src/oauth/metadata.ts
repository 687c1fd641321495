/**
 * The two discovery documents of the owner lane. The protected resource metadata
 * (RFC 9728) tells a client holding only the `/owner/mcp` URL which authorization server
 * to use and which scopes exist; the authorization server metadata (RFC 8414) tells it
 * every endpoint and what this server does: public clients, S256 PKCE only, code and
 * refresh grants, Client ID Metadata Documents (MCP 2025-11-25), and `iss` in the
 * authorization response (RFC 9207). The `agent_auth` block (SPEC §4.8) states the
 * identity type (`service_auth`) and credential type (`access_token`) of SPEC §5.2, and
 * repeats the four URLs an agent needs under plain names. Both are published whether or not an identity
 * provider is configured: without one, authorization shows a "not set up" page.
 */
import type { Answer } from '../http/answer.ts';
import { OAUTH_URLS } from '../urls.ts';
import type { OAuthConfig } from './config.ts';
import { SCOPE_NAMES } from './scopes.ts';

export function protectedResourceMetadata(config: OAuthConfig) {
  return {
    resource: config.resource,
    authorization_servers: [config.siteUrl],
    scopes_supported: SCOPE_NAMES,
    bearer_methods_supported: ['header'],
    resource_name: 'Owner MCP endpoint',
  };
}

export function authorizationServerMetadata(config: OAuthConfig) {
  const url = (path: string) => `${config.siteUrl}${path}`;
  return {
    issuer: config.siteUrl,
    authorization_endpoint: url(OAUTH_URLS.authorize),
    token_endpoint: url(OAUTH_URLS.token),
    registration_endpoint: url(OAUTH_URLS.register),
    revocation_endpoint: url(OAUTH_URLS.revoke),
    scopes_supported: SCOPE_NAMES,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    agent_auth: {
      // SPEC §5.2: how an agent authenticates here — as a service, with an OAuth access token.
      identity_type: 'service_auth',
      credential_type: 'access_token',
      registration_url: url(OAUTH_URLS.register),
      authorization_url: url(OAUTH_URLS.authorize),
      token_url: url(OAUTH_URLS.token),
      revocation_url: url(OAUTH_URLS.revoke),
    },
  };
}

/** A metadata document: public, cacheable for a little while, readable from any origin (browser-based clients discover too). */
export function metadataAnswer(document: object): Answer {
  const body = Buffer.from(JSON.stringify(document));
  return {
    status: 200,
    headers: {
      'Content-Type': 'application/json',
      'Content-Length': String(body.length),
      'Cache-Control': 'public, max-age=300',
      'Access-Control-Allow-Origin': '*',
    },
    body,
  };
}
