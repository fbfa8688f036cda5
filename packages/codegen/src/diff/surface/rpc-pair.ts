// One JSON-RPC method on both sides, as the parts of the JSON-RPC differ (params, errors) see it, and how a finding
// of it is recorded. Its own file so that each part depends on this and not on the others.
import type { Witness } from '../diff-types.js';
import type { FoundChange } from '../schema/found-change.js';
import type { RpcMethod } from './rpc-method-table.js';
import type { Findings, SurfaceFinding } from './surface-finding.js';

/** A method both sides declare, and where its findings go. */
export interface MethodPair {
  out: Findings;
  name: string;
  o: RpcMethod;
  n: RpcMethod;
}

/** Records a finding of the OpenRPC document that no schema walk found (so it has no mutations). */
export function pushRpc(
  out: SurfaceFinding[],
  found: Omit<FoundChange, 'mutations'>,
  witnesses?: Witness[],
): void {
  out.push({
    found: { ...found, mutations: [] },
    document: 'openrpc',
    ...(witnesses ? { witnesses } : {}),
  });
}
