// Emits `rpc-types.ts`: the TypeScript types of a version's JSON-RPC surface, made by json-schema-to-typescript from
// the schema files and each method's params, with a map of the methods. An OpenRPC document has no OpenAPI form for
// openapi-typescript to read, so its types come from the schemas themselves.
import { compile } from 'json-schema-to-typescript';
import type { ProtocolModel, RpcMethodModel, TypeModel } from '../../model/protocol-model.js';
import { paramsObjectSchema } from '../../model/rpc.js';
import { mapRefs } from '../../util/json.js';
import { type Code, doc, ident, joinCode, key, ts, verbatim } from '../code.js';

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

/**
 * Every type of the version as one JSON Schema whose `definitions` hold the schema files (their sibling references
 * made local) and whose properties are the versions' named types, so json-schema-to-typescript declares each once.
 */
export function typesDocument(
  types: readonly TypeModel[],
  extra: Record<string, Record<string, unknown>> = {},
): Record<string, unknown> {
  const byId = new Map(types.map((t) => [t.id, t.name]));
  const local = (value: unknown) =>
    mapRefs(value, (ref) => {
      const [file = '', fragment] = ref.split('#');
      const name = byId.get(file) ?? types.find((t) => `${t.name}.schema.json` === file)?.name;
      return name ? `#/definitions/${name}${fragment ?? ''}` : ref;
    }) as Record<string, unknown>;
  const definitions: Record<string, unknown> = {};
  for (const t of types) {
    const { $schema: _s, $id: _i, ...schema } = t.schema;
    definitions[t.name] = forJsonSchemaToTs(local(schema));
  }
  for (const [name, schema] of Object.entries(extra))
    definitions[name] = forJsonSchemaToTs(local({ title: name, ...schema }));
  return { title: 'AllTypes', definitions };
}

// Keywords that constrain which values a schema takes; a schema with none of them takes any JSON value.
const CONSTRAINING = [
  'type',
  'enum',
  'const',
  '$ref',
  'properties',
  'additionalProperties',
  'items',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'required',
];
// Keywords that only annotate.
const ANNOTATIONS = new Set([
  'description',
  'title',
  'deprecated',
  'examples',
  '$comment',
  'readOnly',
  'writeOnly',
]);

/**
 * Two rewrites that keep json-schema-to-typescript's types honest. A schema that takes any value (`{"description":
 * …}`) is typed `unknown`, where the tool would make it an object. A reference with only annotations beside it is
 * read as the bare reference, where the tool would declare a copy of the target under a new name (`Message1`).
 */
function forJsonSchemaToTs(schema: unknown, inProperties = false): Record<string, unknown> {
  if (Array.isArray(schema)) return schema.map((x) => forJsonSchemaToTs(x)) as never;
  if (typeof schema !== 'object' || schema === null) return schema as never;
  const node = schema as Record<string, unknown>;
  if (inProperties) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) out[k] = forJsonSchemaToTs(v);
    return out;
  }
  if (typeof node.$ref === 'string' && Object.keys(node).every((k) => k === '$ref' || ANNOTATIONS.has(k)))
    return { $ref: node.$ref };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node))
    out[k] =
      k === 'properties' || k === 'definitions' || k === '$defs' || k === 'patternProperties'
        ? forJsonSchemaToTs(v, true)
        : forJsonSchemaToTs(v);
  if (!CONSTRAINING.some((k) => k in node)) out.tsType = 'unknown';
  return out;
}

/** Runs json-schema-to-typescript over a types document: one declaration per definition, named by its title. */
export async function compileTypes(document: Record<string, unknown>): Promise<string> {
  const text = await compile(document as never, 'AllTypes', {
    bannerComment: '',
    // Objects are as open as their schemas: one without `additionalProperties: false` gets an index signature.
    additionalProperties: true,
    declareExternallyReferenced: true,
    unreachableDefinitions: true,
    strictIndexSignatures: true,
    unknownAny: true,
    format: false,
    ignoreMinAndMaxItems: true,
    $refOptions: { resolve: { external: false } } as never,
  });
  // The document's own root is a container with no properties of its own, not a type anyone uses.
  return text.replace(/^export interface AllTypes \{[^}]*\}\n/m, '').trim();
}

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
    if (!m.result.typeName)
      extra[rpcResultType(m)] = { description: `The result of \`${m.name}\`.`, ...m.result.schema };
  }
  const declarations = await compileTypes(typesDocument(model.types, extra));
  const aliases = rpc.methods
    .filter((m) => m.result.typeName)
    .map(
      (m) =>
        ts`${doc(`The result of \`${m.name}\`${m.stream ? ' (one item of its stream)' : ''}.`)}export type ${ident(rpcResultType(m))} = ${ident(m.result.typeName ?? '')};\n`,
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
