/**
 * What every owner-lane handler reads: the resolved configuration, the store, the clock
 * (injected, so tests move time without waiting), the owner's sign-in (absent when no
 * identity provider is configured) and how a `client_id` becomes a client — registered
 * here, or a Client ID Metadata Document (fetched only when the lane is set up). One context per process, built by
 * `OAuthServer` (src/oauth/server.ts); handlers hold no state of their own.
 */
import type { ClientLookup } from './clients.ts';
import type { OAuthConfig } from './config.ts';
import type { OwnerSignIn } from './sign-in.ts';
import type { OAuthStore } from './store.ts';

export interface OAuthContext {
  config: OAuthConfig;
  store: OAuthStore;
  /** Milliseconds since the epoch. */
  now(): number;
  signIn: OwnerSignIn | undefined;
  /**
   * The client a `client_id` names. `use: 'token'` (the token and revocation endpoints)
   * resolves a Client ID Metadata Document only for a client holding a live code or
   * grant, so a stranger cannot make this server fetch a URL from there.
   */
  client(clientId: string, use?: 'authorize' | 'token'): Promise<ClientLookup>;
}

/** A display name for a client: its own name, else its id. */
export const clientLabel = (lookup: { clientId: string; metadata: { client_name?: string } }) => lookup.metadata.client_name ?? lookup.clientId;
