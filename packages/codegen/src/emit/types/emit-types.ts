// The types emitter: openapi-typescript over the version's bundled document, with our rules for open objects, binary
// strings and if/then/else unions.
import type { ProtocolModel } from '../../model/protocol-model.js';
import { isRecord } from '../../util/json.js';
import { type Code, verbatim } from '../code.js';
import { loadTypeLibrary, requireTypeLibrary } from './type-libraries.js';

/**
 * Emits the TypeScript types of a protocol version with openapi-typescript: `paths`, `operations`, `components`,
 * and one exported alias per public type (`export type Task = components['schemas']['Task']`).
 *
 * Objects whose schema allows more keys than it lists get an index signature, so a value with extra fields is
 * still assignable (the types are as open as the schema). Binary strings become `Blob`; an if/then/else that
 * chooses between two types becomes their union.
 */
export async function emitTypes(model: ProtocolModel): Promise<Code> {
  const {
    default: openapiTS,
    astToString,
    oapiRef,
    tsUnion,
  } = await loadTypeLibrary(
    'openapi-typescript',
    // sound: openapi-typescript's CommonJS build (index.cjs) exports what its ESM build does, `default` included.
    async () => requireTypeLibrary('openapi-typescript') as typeof import('openapi-typescript'),
  );
  const ts = await loadTypeLibrary(
    'typescript',
    // sound: TypeScript's one CommonJS module is the `ts` namespace its types declare.
    async () => requireTypeLibrary('typescript') as typeof import('typescript'),
  );
  const cyclic = typesOnCycles(model);
  // sound: the bundle is the version's OpenAPI 3.1 document (it passed the OpenAPI schema) with the types inlined.
  // `never`, as TypeScript allows no direct cast between a plain record and openapi-typescript's OpenAPI3 type.
  const nodes = await openapiTS(model.bundle as never, {
    additionalProperties: true,
    emptyObjectsUnknown: true,
    rootTypes: true,
    rootTypesNoSchemaPrefix: true,
    // Type names are the schema files' names, verbatim (`APIKeySecurityScheme`, not `ApiKeySecurityScheme`).
    rootTypesKeepCasing: true,
    alphabetize: false,
    // A default is what the receiver assumes when a field is absent, so the field stays optional for the sender.
    defaultNonNullable: false,
    silent: true,
    transform(schema) {
      // Read as plain JSON: openapi-typescript's SchemaObject type leaves out the 2020-12 keywords read here, and a
      // property's schema reaches this as written, a boolean one (`true`) included.
      const node: unknown = schema;
      if (!isRecord(node)) return undefined;
      if (node.format === 'binary' || typeof node.contentMediaType === 'string') {
        return ts.factory.createTypeReferenceNode('Blob');
      }
      // `if`/`then`/`else` choosing between two types is a union of the two to TypeScript.
      const then = refOf(node.then);
      const otherwise = refOf(node.else);
      if (node.if !== undefined && then !== undefined && otherwise !== undefined) {
        return tsUnion([oapiRef(then), oapiRef(otherwise)]);
      }
      // An array of a type that refers back to itself through arrays (MCP's JSONValue) is `unknown[]`: TypeScript
      // cannot resolve `components['schemas']['JSONValue'][]` inside JSONValue's own member of `components` (TS2502).
      // The array stays an array; its items are typed by the validators, and precisely in the JSON-RPC types.
      const items = refOf(node.items);
      if (node.type === 'array' && items !== undefined && cyclic.has(items))
        return ts.factory.createArrayTypeNode(ts.factory.createKeywordTypeNode(ts.SyntaxKind.UnknownKeyword));
      return undefined;
    },
  });
  // openapi-typescript's printer quotes every name and string itself.
  return verbatim(astToString(nodes));
}

/** The reference a subschema is, if it is one. */
function refOf(schema: unknown): string | undefined {
  return isRecord(schema) && typeof schema.$ref === 'string' ? schema.$ref : undefined;
}

/** The bundle references (`#/components/schemas/<Type>`) of the types that reach themselves through references. */
function typesOnCycles(model: ProtocolModel): Set<string> {
  const edges = new Map<string, string[]>();
  for (const t of model.types) {
    const out: string[] = [];
    JSON.stringify(t.schema, (key, value) => {
      if (key === '$ref' && typeof value === 'string') {
        const target = model.types.find((o) => o.id === new URL(value.split('#')[0] ?? '', t.id).href);
        if (target) out.push(target.name);
      }
      return value;
    });
    edges.set(t.name, out);
  }
  const onCycle = new Set<string>();
  for (const start of edges.keys()) {
    const seen = new Set<string>();
    const stack = [...(edges.get(start) ?? [])];
    for (let name = stack.pop(); name !== undefined; name = stack.pop()) {
      if (name === start) {
        onCycle.add(`#/components/schemas/${start}`);
        break;
      }
      if (seen.has(name)) continue;
      seen.add(name);
      stack.push(...(edges.get(name) ?? []));
    }
  }
  return onCycle;
}
