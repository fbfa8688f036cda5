// Emits `rpc-types.ts`: the TypeScript types of a version's JSON-RPC surface, made by json-schema-to-typescript from
// the schema files and each method's params, with a map of the methods. An OpenRPC document has no OpenAPI form for
// openapi-typescript to read, so its types come from the schemas themselves.
import type { ProtocolModel, RpcMethodModel } from '../../model/protocol-model.js';
import { paramsObjectSchema } from '../../model/rpc.js';
import { type Code, doc, ident, joinCode, key, ts, verbatim } from '../code.js';
import { compileTypes, typesDocument } from '../types/emit-json-schema-types.js';

/** The TypeScript name of a method's params (`SendMessageParams`); method names like `message/send` are folded. */
export function rpcTypeStem(method: RpcMethodModel): string {
  const stem = method.name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
  return /^[A-Za-z]/.test(stem) ? stem : `Method${stem}`;
}

/** The type of a method's params. */
export const rpcParamsType = (m: RpcMethodModel) => `${rpcTypeStem(m)}Params`;
/** The type of a method's result (for a streaming method, of one item). */
export const rpcResultType = (m: RpcMethodModel) => `${rpcTypeStem(m)}Result`;
/** The interface mapping each method name to its params, result and stream flag. */
export const rpcMethodsType = (model: ProtocolModel) => `${model.stem}RpcMethods`;

/** Emits `rpc-types.ts` for a version with a JSON-RPC surface. */
export async function emitRpcTypes(model: ProtocolModel): Promise<Code> {
  const rpc = model.rpc;
  if (!rpc) throw new Error(`${model.protocol}@${model.version} has no JSON-RPC surface`);
  const extra: Record<string, Record<string, unknown>> = {};
  for (const m of rpc.methods) {
    extra[rpcParamsType(m)] = {
      description: `The params of \`${m.name}\`, by name.`,
      ...paramsObjectSchema(m),
    };
    if (!m.result.typeName && !m.notification)
      extra[rpcResultType(m)] = { description: `The result of \`${m.name}\`.`, ...m.result.schema };
  }
  const declarations = await compileTypes(typesDocument(model.types, extra));
  const aliases = rpc.methods
    // A result type named as the method's result already is (`initialize` answers `InitializeResult`) needs no alias.
    .filter((m) => (m.result.typeName && m.result.typeName !== rpcResultType(m)) || m.notification)
    .map((m) =>
      m.notification
        ? ts`${doc(`\`${m.name}\` is a notification: it is never answered.`)}export type ${ident(rpcResultType(m))} = void;\n`
        : ts`${doc(`The result of \`${m.name}\`${m.stream ? ' (one item of its stream)' : ''}.`)}export type ${ident(rpcResultType(m))} = ${ident(m.result.typeName ?? '')};\n`,
    );
  const entries = rpc.methods.map(
    (m) =>
      ts`  ${key(m.name)}: { params: ${ident(rpcParamsType(m))}; result: ${ident(rpcResultType(m))}; stream: ${m.stream !== undefined} };\n`,
  );
  return ts`${verbatim(declarations)}

${joinCode(aliases, '\n')}
${doc(`The methods of the ${model.title} ${model.version} JSON-RPC surface: each one's params, its result (for a streaming method, one item) and whether it streams.`)}export interface ${ident(rpcMethodsType(model))} {
${entries}}
`;
}
