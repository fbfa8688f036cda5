// Compares the two sides' surfaces: the HTTP operations of their OpenAPI documents (paths and methods, parameters,
// request bodies, statuses, media types, stream items) and the methods of their OpenRPC documents (params, results,
// errors, streams). Each part is under surface/; the schemas a surface points at are walked by schema-changes.ts.
import type { DiffSide } from './diff-types.js';
import type { TypeLookup } from './schema/expand.js';
import { httpChanges } from './surface/http-operations.js';
import { rpcChanges } from './surface/rpc-methods.js';
import type { Findings, Pair, SurfaceFinding } from './surface/surface-finding.js';

export { type SurfaceFinding, subjectType } from './surface/surface-finding.js';

/** Every change between the two sides' OpenAPI and OpenRPC documents. */
export function surfaceChanges(sides: Pair<DiffSide>, types?: Pair<TypeLookup>): SurfaceFinding[] {
  const out: Findings = Object.assign([], types ? { types } : {});
  if (sides.old.openapi && sides.new.openapi) httpChanges(sides, out);
  if (sides.old.openrpc && sides.new.openrpc) rpcChanges(sides, out);
  return [...out];
}
