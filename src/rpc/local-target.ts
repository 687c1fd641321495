/**
 * Which server object a capability argument stands for, when it stands for one of ours.
 * A client passes a selection to `discovery.recommend` by capability: what the server
 * receives is a capnweb stub, and calling methods on it would be a call back into the
 * client if the client had passed a target of its own — which the RPC surface never
 * makes (no callbacks into the client). So the stub is resolved here, without calling
 * it, to the object it points at in this process: capnweb keeps a stub's hook under a
 * private symbol, which `RpcStub.prototype.dup` reads first, so it is learned once by
 * calling `dup` on a probe; a hook that holds a local value (a target or a payload)
 * yields it, a hook that leads to the peer yields nothing. The capnweb range is pinned
 * (src/rpc/contract.ts), and the tests pass a client-side target to prove it is refused.
 */
import { RpcStub } from 'capnweb';

let rawStub: symbol | undefined;

/** The private symbol under which capnweb stubs keep their hook. */
function rawStubSymbol(): symbol | undefined {
  if (rawStub !== undefined) return rawStub;
  const probe = new Proxy(
    {},
    {
      get(_target, property) {
        if (typeof property === 'symbol') rawStub = property;
        throw new Error('probe');
      },
    },
  );
  try {
    (RpcStub.prototype as unknown as { dup(this: unknown): unknown }).dup.call(probe);
  } catch {
    // The probe always throws once it has seen the symbol.
  }
  return rawStub;
}

interface Hook {
  getValue?: () => { value: unknown };
}

/** The local object a stub points at (an RpcTarget of this process), or undefined when it leads to the peer or is not a stub. */
export function localTarget(value: unknown): unknown {
  const symbol = rawStubSymbol();
  if (symbol === undefined || (typeof value !== 'function' && typeof value !== 'object') || value === null) return undefined;
  const raw = (value as Record<symbol, { hook?: Hook; pathIfPromise?: unknown[] } | undefined>)[symbol];
  if (!raw || (raw.pathIfPromise?.length ?? 0) > 0 || typeof raw.hook?.getValue !== 'function') return undefined;
  try {
    return raw.hook.getValue().value;
  } catch {
    return undefined;
  }
}
