/**
 * What the Micropub endpoint reads (functions/micropub.ts): the process's authorization
 * server, which verifies tokens and names the site and its state folder, and the owner's
 * writes. Both outlive generations; absent, the endpoint says posting is not available.
 */
import type { OAuthServer } from '../oauth/server.ts';
import type { OwnerWrites } from '../owner/writes.ts';

export interface MicropubContext {
  oauth: OAuthServer | undefined;
  owner: OwnerWrites | undefined;
}
