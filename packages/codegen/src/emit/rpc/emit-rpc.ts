// Emits `rpc.ts` and `rpc-client.ts`: the server side of a version's JSON-RPC surface as one Hono endpoint with typed
// method dispatch, and the typed client that calls it.
import type { ProtocolModel, RpcMethodModel } from '../../model/protocol-model.js';
import { type Code, doc, ident, joinCode, key, literal, str, ts } from '../code.js';
import { emitProtoNames } from '../routes/emit-routes.js';
import { rpcValidatorName } from '../validators/emit-validators.js';
import { rpcMethodsType, rpcParamsType, rpcResultType } from './emit-rpc-types.js';

const handlersType = (model: ProtocolModel) => `${model.stem}RpcHandlers`;

function summary(m: RpcMethodModel): string {
  return m.summary === '' ? `\`${m.name}\`` : `${m.summary} (\`${m.name}\`)`;
}

/** Emits `rpc.ts`: the handlers interface, the method table and `create<Protocol>RpcApp(handlers, options)`. */
export function emitRpcServer(model: ProtocolModel): Code {
  const rpc = model.rpc;
  if (!rpc) throw new Error(`${model.protocol}@${model.version} has no JSON-RPC surface`);
  const stem = model.stem;
  const typeNames = [...new Set(rpc.methods.flatMap((m) => [rpcParamsType(m), rpcResultType(m)]))].sort();
  const handlers = rpc.methods.map((m) => {
    const result = m.stream
      ? ts`AsyncIterable<${ident(rpcResultType(m))}> | Promise<AsyncIterable<${ident(rpcResultType(m))}>>`
      : ts`${ident(rpcResultType(m))} | Promise<${ident(rpcResultType(m))}>`;
    return ts`${doc(summary(m), '  ')}  ${key(m.name)}(params: ${ident(rpcParamsType(m))}, context: RpcContext): ${result};\n`;
  });
  const specs = rpc.methods.map((m) => {
    const result = m.result.typeName ?? rpcValidatorName(m, 'result');
    const parts: Code[] = [
      ts`name: ${str(m.name)}`,
      ts`paramStructure: ${str(m.paramStructure)}`,
      ts`paramNames: ${literal(m.params.map((p) => p.name))}`,
      ts`params: messages.${ident(rpcValidatorName(m, 'params'))}`,
      ts`result: messages.${ident(result)}`,
    ];
    // The schema type is named in what a developer hears of a result that breaks it.
    if (m.result.typeName) parts.push(ts`resultType: ${str(m.result.typeName)}`);
    if (m.stream) parts.push(ts`stream: ${str(m.stream)}`);
    if (m.protoNames !== undefined) parts.push(ts`protoNames: { nodes: protoNames, root: ${m.protoNames} }`);
    return ts`  { ${joinCode(parts, ', ')} },\n`;
  });
  const errors = rpc.errors.map(
    (e) => ts`  ${key(e.name)}: { code: ${e.code}, message: ${str(e.message)} },\n`,
  );
  return ts`import {
  createJsonRpcApp,
  createJsonRpcDispatcher,
  type RpcAppOptions,
  type RpcContext,
  type RpcDispatcher,
  type RpcDispatcherOptions,
  type RpcHandler,
  type RpcMethodSpec,${
    rpc.protoNames
      ? ts`
  type ProtoNameNode,`
      : ts``
  }
} from '@agentproto/runtime';
import type { Hono } from 'hono';
import type { ${joinCode(typeNames.map(ident), ', ')} } from './rpc-types.js';
import * as messages from './validators.js';

${doc(`The handlers of an ${model.title} ${model.version} agent's JSON-RPC surface, one per method, keyed by method name. A handler\nthrows a JsonRpcError to answer with an error.`)}export interface ${ident(handlersType(model))} {
${handlers}}

${rpc.protoNames ? emitProtoNames(rpc.protoNames, "methods' params") : ts``}const methodSpecs: readonly RpcMethodSpec[] = [
${specs}];

${doc(`The errors the ${model.title} ${model.version} JSON-RPC surface declares, by name: \`new JsonRpcError(code, message)\`.`)}export const ${ident(`${stem}RpcErrors`)} = {
${errors}} as const;

${doc(
  `Builds a Hono app serving the ${model.title} ${model.version} JSON-RPC surface at one endpoint (\`options.path\`, default \`/\`).\n` +
    "The envelope and each method's params are validated before a handler runs (-32600, -32601, -32602); in development\n" +
    'every result is checked against its schema.',
)}export function create${ident(stem)}RpcApp(handlers: ${ident(handlersType(model))}, options?: RpcAppOptions): Hono {
  return createJsonRpcApp(methodSpecs, handlers as unknown as Record<string, RpcHandler>, options);
}

${doc(
  `Answers one ${model.title} ${model.version} JSON-RPC body that the caller has already read and parsed, as the app of\n` +
    `\`create${stem}RpcApp\` answers it: for a transport that reads the body itself (one read, one parse, no second routing).\n` +
    'The caller keeps the body within its size and nesting limits.',
)}export function create${ident(stem)}RpcDispatcher(handlers: ${ident(handlersType(model))}, options?: RpcDispatcherOptions): RpcDispatcher {
  return createJsonRpcDispatcher(methodSpecs, handlers as unknown as Record<string, RpcHandler>, options);
}
`;
}

/** Emits `rpc-client.ts`: `create<Protocol>RpcClient(options)`, one typed function per method. */
export function emitRpcClient(model: ProtocolModel): Code {
  const rpc = model.rpc;
  if (!rpc) throw new Error(`${model.protocol}@${model.version} has no JSON-RPC surface`);
  const typeNames = [
    ...new Set(rpc.methods.flatMap((m) => [rpcParamsType(m), ...(m.notification ? [] : [rpcResultType(m)])])),
  ].sort();
  const methods = rpc.methods.map((m) => {
    const optional = !m.params.some((p) => p.required);
    const params = ts`params${optional ? ts`?` : ts``}: ${ident(rpcParamsType(m))}`;
    const sent = optional ? ts`params ?? {}` : ts`params`;
    const call = m.notification
      ? ts`rpc.notify(${str(m.name)}, ${sent}, options)`
      : m.stream
        ? ts`rpc.stream<${ident(rpcResultType(m))}>(${str(m.name)}, ${sent}, ${str(m.stream)}, options)`
        : ts`rpc.call<${ident(rpcResultType(m))}>(${str(m.name)}, ${sent}, options)`;
    const note = m.notification
      ? '\nA notification: sent without an id, never answered; resolves once the endpoint has taken it.'
      : m.stream
        ? '\nIterate the answer for each item; a JsonRpcError is thrown for an error.'
        : '\nRejects with a JsonRpcError when the agent answers with an error.';
    return ts`${doc(`${summary(m)}.${note}`, '    ')}    ${key(m.name)}: (${params}, options?: RpcCallOptions) => ${call},\n`;
  });
  return ts`import { type RpcCallOptions, RpcCaller, type RpcClientOptions } from '@agentproto/runtime';
import type { ${joinCode(typeNames.map(ident), ', ')} } from './rpc-types.js';

${doc(`A typed client for an ${model.title} ${model.version} agent's JSON-RPC endpoint. \`options.url\` is the endpoint; pass\n\`options.fetch\` to call an app in memory.`)}export function create${ident(model.stem)}RpcClient(options: RpcClientOptions) {
  const rpc = new RpcCaller(options);
  return {
    /** The underlying caller, for methods by name. */
    rpc,
${methods}  };
}

${doc(`The client returned by \`create${model.stem}RpcClient\`.`)}export type ${ident(`${model.stem}RpcClient`)} = ReturnType<typeof create${ident(model.stem)}RpcClient>;

export type { ${ident(rpcMethodsType(model))} } from './rpc-types.js';
`;
}
