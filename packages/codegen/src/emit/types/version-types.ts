// The two files of a version that the type-writing libraries make: `openapi.ts` (openapi-typescript) and, for a
// version with a JSON-RPC surface, `rpc-types.ts` (json-schema-to-typescript). They are the slowest of a version's
// files and need nothing but the model, so a run may make them in a second process (types-process.ts) while this one
// makes the others.
import type { ProtocolModel } from '../../model/protocol-model.js';
import { emitRpcTypes } from '../rpc/emit-rpc-types.js';
import { emitTypes } from './emit-types.js';

/** The text of a version's type files: `openapi.ts`, and `rpc-types.ts` when the version has a JSON-RPC surface. */
export interface VersionTypes {
  openapi: string;
  rpcTypes?: string;
}

/** Makes a version's type files, in this process. */
export async function emitVersionTypes(model: ProtocolModel): Promise<VersionTypes> {
  const openapi = String(await emitTypes(model));
  return model.rpc ? { openapi, rpcTypes: String(await emitRpcTypes(model)) } : { openapi };
}
