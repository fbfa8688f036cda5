// Emits the `index.ts` of a generated version folder: what `@agentproto/<protocol>/<version>` re-exports.
import type { ProtocolModel } from '../model/protocol-model.js';
import { type Code, doc, ident, joinCode, ts } from './code.js';
import { rpcMethodsType, rpcParamsType, rpcResultType } from './rpc/emit-rpc-types.js';

/** The names `rpc-types.ts` contributes to the index: the method map and each method's params and result types. */
function rpcExports(model: ProtocolModel): string[] {
  const methods = model.rpc?.methods ?? [];
  return [
    rpcMethodsType(model),
    ...new Set(methods.flatMap((m) => [rpcParamsType(m), rpcResultType(m)])),
  ].sort();
}

/** Emits the `index.ts` of a generated version folder. */
export function emitIndex(model: ProtocolModel): Code {
  return ts`export * from './client.js';
${doc(`Types of the ${model.title} ${model.version} messages and HTTP surface.`)}export type * from './openapi.js';
export * from './paths.js';
export * from './routes.js';
${
  model.rpc
    ? ts`export * from './rpc.js';
export * from './rpc-client.js';
${doc("The JSON-RPC surface's own types, from json-schema-to-typescript: each method's params and result, and the method map.")}export type { ${joinCode(rpcExports(model).map(ident), ', ')} } from './rpc-types.js';
`
    : ts``
}${doc('One standalone validator per public type: `validators.Task(value)` is a type guard; every error stays on it.')}export * as validators from './validators.js';
`;
}
