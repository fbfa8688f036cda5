// Types from JSON Schema alone, by json-schema-to-typescript: for schema sets without an OpenAPI document (a JSON-RPC
// surface, and the `.d.ts` of each exported protocol version). openapi-typescript makes the types of the OpenAPI
// surface (emit-types.ts); DECISIONS of the A2A protocol compares the two on the same schemas.
import type { TypeModel } from '../../model/protocol-model.js';
import { isRecord, mapRefs } from '../../util/json.js';
import { loadTypeLibrary } from './type-libraries.js';

/**
 * Every type of the version as one JSON Schema whose `definitions` hold the schema files (their sibling references
 * made local) and whose properties are the versions' named types, so json-schema-to-typescript declares each once.
 */
export function typesDocument(
  types: readonly TypeModel[],
  extra: Record<string, Record<string, unknown>> = {},
): Record<string, unknown> {
  const byId = new Map(types.map((t) => [t.id, t.name]));
  const local = (value: Record<string, unknown>) =>
    mapRefs(value, (ref) => {
      const [file = '', fragment] = ref.split('#');
      const name = byId.get(file) ?? types.find((t) => `${t.name}.schema.json` === file)?.name;
      return name ? `#/definitions/${name}${fragment ?? ''}` : ref;
    });
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
function forJsonSchemaToTs(schema: unknown, inProperties = false): unknown {
  if (Array.isArray(schema)) return schema.map((x) => forJsonSchemaToTs(x));
  if (!isRecord(schema)) return schema;
  if (inProperties) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(schema)) out[k] = forJsonSchemaToTs(v);
    return out;
  }
  if (typeof schema.$ref === 'string' && Object.keys(schema).every((k) => k === '$ref' || ANNOTATIONS.has(k)))
    return { $ref: schema.$ref };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema))
    out[k] =
      k === 'properties' || k === 'definitions' || k === '$defs' || k === 'patternProperties'
        ? forJsonSchemaToTs(v, true)
        : forJsonSchemaToTs(v);
  if (!CONSTRAINING.some((k) => k in schema)) out.tsType = 'unknown';
  return out;
}

/** Runs json-schema-to-typescript over a types document: one declaration per definition, named by its title. */
export async function compileTypes(document: Record<string, unknown>): Promise<string> {
  const { compile } = await loadTypeLibrary(
    'json-schema-to-typescript',
    () => import('json-schema-to-typescript'),
  );
  const text = await compile(document, 'AllTypes', {
    bannerComment: '',
    // Objects are as open as their schemas: one without `additionalProperties: false` gets an index signature.
    additionalProperties: true,
    declareExternallyReferenced: true,
    unreachableDefinitions: true,
    strictIndexSignatures: true,
    unknownAny: true,
    format: false,
    ignoreMinAndMaxItems: true,
    $refOptions: { resolve: { external: false } },
  });
  // The document's own root is a container with no properties of its own, not a type anyone uses.
  const start = text.indexOf('export interface AllTypes {');
  const end = start < 0 ? -1 : text.indexOf('}\n', start);
  const declared = (start < 0 || end < 0 ? text : text.slice(0, start) + text.slice(end + 2)).trim();
  return `${declared}${foldedAliases(document, declared)}`;
}

/**
 * json-schema-to-typescript folds a definition that is only a reference to another (MCP's `EmptyResult`, which is
 * `Result`) into its target and declares no type by its name; each gets its name back as an alias.
 */
function foldedAliases(document: Record<string, unknown>, declared: string): string {
  const names = new Set(
    [...declared.matchAll(/^export (?:type|interface) ([A-Za-z0-9_$]+)/gm)].map((m) => m[1]),
  );
  const definitions = isRecord(document.definitions) ? document.definitions : {};
  let out = '';
  for (const [name, schema] of Object.entries(definitions)) {
    if (!isRecord(schema) || typeof schema.$ref !== 'string') continue;
    const target = /^#\/definitions\/([A-Za-z0-9_$]+)$/.exec(schema.$ref)?.[1];
    if (target && !names.has(name) && Object.keys(schema).length === 1)
      out += `\n/** The same type as ${target}. */\nexport type ${name} = ${target};`;
  }
  return out;
}
