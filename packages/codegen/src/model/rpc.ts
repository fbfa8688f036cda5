// The JSON-RPC surface (OpenRPC 1.3 Method and Content Descriptor Objects): one method model per method, sorted by
// name, its params with their schemas, its result, its declared errors, and whether it answers with a stream.
import type { LoadedVersion } from '../load/load-protocols.js';
import { isRecord } from '../util/json.js';
import { streamFraming } from '../util/media-types.js';
import { RPC_BATCHES, RPC_STREAM } from '../validate/validate-openrpc.js';
import { PROTO_JSON, ProtoNameTable } from './proto-names.js';
import type { RpcMethodModel, RpcModel, RpcParamModel, TypeModel } from './protocol-model.js';
import { documentContext } from './references.js';

/** The version's JSON-RPC surface, or undefined when it has no `openrpc.json`. */
export function rpcOf(v: LoadedVersion, types: TypeModel[]): RpcModel | undefined {
  if (!v.openrpc) return undefined;
  // sound: the model stage takes validated versions, and the OpenRPC meta-schema validateVersion checks against
  // admits only a JSON object.
  const doc = v.openrpc.value as Record<string, unknown>;
  const ctx = documentContext(doc, types);
  const errorOf = (x: unknown) => {
    const e = ctx.deref(x);
    return isRecord(e) ? { code: Number(e.code), message: String(e.message ?? '') } : undefined;
  };
  const methods = (Array.isArray(doc.methods) ? doc.methods : []).map(ctx.deref).filter(isRecord);
  const models = methods.map((m): RpcMethodModel => {
    const params = (Array.isArray(m.params) ? m.params : []).map(ctx.deref).filter(isRecord);
    const result = ctx.deref(m.result);
    const resultSchema = isRecord(result) && isRecord(result.schema) ? result.schema : {};
    const typeName = ctx.typeOf(resultSchema);
    // A result that is one of several public types: each named, so a checker can say which one a result missed.
    const branches = resultSchema.anyOf ?? resultSchema.oneOf;
    const union = Array.isArray(branches) ? branches.map((b) => ctx.typeOf(b)) : [];
    const named = union.length > 1 && union.every((t) => t !== undefined) ? union : undefined;
    const framing = typeof m[RPC_STREAM] === 'string' ? streamFraming(m[RPC_STREAM]) : undefined;
    const structure =
      m.paramStructure === 'by-name' || m.paramStructure === 'by-position' ? m.paramStructure : 'either';
    return {
      name: String(m.name),
      summary: String(m.summary ?? ''),
      paramStructure: structure,
      params: params.map(
        (p): RpcParamModel => ({
          name: String(p.name),
          required: p.required === true,
          ...(typeof p.description === 'string' ? { description: p.description } : {}),
          schema: ctx.toIdRefs(isRecord(p.schema) ? p.schema : {}),
        }),
      ),
      result: {
        ...(typeName ? { typeName } : {}),
        ...(named ? { union: named } : {}),
        schema: ctx.toIdRefs(resultSchema),
      },
      errors: (Array.isArray(m.errors) ? m.errors : [])
        .map(errorOf)
        .filter((e) => e !== undefined)
        .sort((a, b) => a.code - b.code),
      ...(framing ? { stream: framing } : {}),
      ...(m.result === undefined ? { notification: true as const } : {}),
    };
  });
  const components = isRecord(doc.components) && isRecord(doc.components.errors) ? doc.components.errors : {};
  const endpoint = endpointOf(doc.servers);
  // `x-protoJson`: each method's params (an object of them) may name fields by their proto names.
  let protoNames: ProtoNameTable | undefined;
  if (isRecord(doc.info) && doc.info[PROTO_JSON] === true) {
    protoNames = new ProtoNameTable(types);
    for (const m of models) {
      const root = protoNames.add(paramsObjectSchema(m));
      if (root >= 0) m.protoNames = root;
    }
  }
  return {
    file: v.openrpc.file,
    ...(endpoint ? { endpoint } : {}),
    ...(protoNames && protoNames.nodes.length > 0 ? { protoNames: protoNames.nodes } : {}),
    ...(isRecord(doc.info) && doc.info[RPC_BATCHES] === false ? { batches: false as const } : {}),
    methods: models.sort((a, b) => a.name.localeCompare(b.name)),
    errors: Object.entries(components)
      .map(([name, e]) => ({ name, ...(errorOf(e) ?? { code: 0, message: '' }) }))
      .sort((a, b) => a.code - b.code || a.name.localeCompare(b.name)),
  };
}

/** The path of the endpoint the document's first server names (`http://127.0.0.1:41241/jsonrpc` → `/jsonrpc`). */
function endpointOf(servers: unknown): string | undefined {
  const first = Array.isArray(servers) ? servers[0] : undefined;
  if (!isRecord(first) || typeof first.url !== 'string') return undefined;
  try {
    return new URL(first.url, 'http://agent.invalid').pathname;
  } catch {
    return undefined;
  }
}

/** The JSON Schema of a method's params sent by name: an object of the params, the required ones required. */
export function paramsObjectSchema(method: RpcMethodModel): Record<string, unknown> {
  return {
    type: 'object',
    properties: Object.fromEntries(method.params.map((p) => [p.name, p.schema])),
    ...(method.params.some((p) => p.required)
      ? { required: method.params.filter((p) => p.required).map((p) => p.name) }
      : {}),
  };
}
