/**
 * What every capability of one RPC session reads: the generation's query core and search
 * core (the session keeps the generation it started on), the site's URL for links, and
 * the session's accounting, and for an HTTP batch whose records can only be pulled, where
 * `records()` leaves its answers pre-serialized. Capabilities hold it in a private (`#`)
 * field, which capnweb never exposes.
 */
import type { QueryCore } from '../core/query.ts';
import type { SearchCore } from '../core/search.ts';
import type { WireHold } from './preserialized.ts';
import type { Session } from './session.ts';

export interface RpcContext {
  core: QueryCore;
  search: SearchCore;
  siteUrl: string;
  session: Session;
  /** Set for a batch whose `records()` answers are only pulled (src/rpc/preserialized.ts). */
  wire?: WireHold;
}
