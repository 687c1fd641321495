/**
 * The consumer metadata of the RPC contract (`/api/rpc/contract.json`): the checksum of
 * the generated declaration (sha256 of its exact text, so a client can tell whether the
 * types it compiled against are the ones served), the capnweb client versions the
 * server is built and tested with, the transports, the limits with their reasons, and
 * the error codes. Computed once per process from the same functions the build and
 * `service.describe()` use, so the three never disagree.
 */
import { createHash } from 'node:crypto';
import { LIMIT_DEFINITIONS } from '../core/limits.ts';
import { URLS } from '../urls.ts';
import { rpcDeclaration } from './declaration.ts';
import { RPC_ERROR_CODES } from './errors.ts';

/** The capnweb versions clients may use: the range the server depends on (a test keeps it equal to package.json's). */
export const CAPNWEB_CLIENT_RANGE = '^0.12.0';

export interface ContractSummary {
  checksum: string;
  clientPackage: string;
  typesUrl: string;
  /** The consumer metadata document: checksum, client versions, transports, limits. */
  metadataUrl: string;
}

export interface Contract {
  declaration: string;
  summary: ContractSummary;
  document: Record<string, unknown>;
}

let computed: Contract | undefined;

export function contract(): Contract {
  if (computed) return computed;
  const declaration = rpcDeclaration();
  const checksum = createHash('sha256').update(declaration).digest('hex');
  const summary: ContractSummary = { checksum, clientPackage: `capnweb@${CAPNWEB_CLIENT_RANGE}`, typesUrl: URLS.rpcTypes, metadataUrl: URLS.rpcContract };
  const limits = Object.fromEntries(Object.entries(LIMIT_DEFINITIONS).filter(([name]) => name.startsWith('rpc')));
  const document = {
    name: 'Collections RPC',
    endpoint: URLS.rpc,
    protocol: 'capnweb',
    contract: { checksum: { algorithm: 'sha256', value: checksum }, types: URLS.rpcTypes, rootType: 'Root' },
    client: { package: 'capnweb', versions: CAPNWEB_CLIENT_RANGE },
    transports: [
      {
        name: 'http-batch',
        method: 'POST',
        path: URLS.rpc,
        client: 'newHttpBatchRpcSession',
        sessions: 'single-use: resume with pageAfter(endCursor) on a new session',
      },
      {
        name: 'websocket',
        method: 'GET',
        path: URLS.rpc,
        client: 'newWebSocketRpcSession',
        sessions: 'long-lived: next(), feed.stream(); capabilities die with the socket',
      },
    ],
    errorCodes: RPC_ERROR_CODES,
    limits,
  };
  computed = { declaration, summary, document };
  return computed;
}
