// Every enum value reaches a client: for each version with client scenarios, the enums reachable from the types of
// the answers its scenarios send (a JSON-RPC method's result type, an operation's body or stream item type for the
// status sent) are found by walking the version's schema files, and every value of each must appear, at a place that
// enum types, in some answer a client reads (the file's answers or a scenario's). An enum left out on purpose is listed
// below with the reason. Answers marked `offSchema` count for nothing: they are off the schema on purpose.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CLIENT_SCENARIOS_FILE } from '@agentproto/conformance';
import { resolveBinding } from '@agentproto/registry';
import type { Surface, SurfaceContent } from '@agentproto/runtime/contract';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ROOT, versionsWith } from '../support/spec-files.js';

/** Enum values no answer needs to carry, by `<id>@<version> <File>.schema.json#<pointer>`, each with its reason. */
const SKIPPED: Readonly<Record<string, { values?: readonly string[]; why: string }>> = {
  'agentscope@1.1 HealthStatus.schema.json#/properties/runner': {
    why: 'getHealth is answered for a client that checks health first, but no scenario asks a client to',
  },
  'mcp@2025-11-25 TaskStatus.schema.json#': {
    why: "CreateTaskResult answers only a tools/call whose params carry `task`; the scenarios' clients ask for none",
  },
  ...Object.fromEntries(
    [
      'CreateMessageRequestParams.schema.json#/properties/includeContext',
      'ToolChoice.schema.json#/properties/mode',
      'StringSchema.schema.json#/properties/format',
      'NumberSchema.schema.json#/properties/type',
    ].map((at) => [
      `mcp@2026-07-28 ${at}`,
      {
        why: "reached only inside an InputRequiredResult's inputRequests (sampling, elicitation), which a server may send only to a client that declared those capabilities, and the scenarios' clients declare none",
      },
    ]),
  ),
};

/** A JSON value read from a schema or an answer. */
type Json = unknown;
type Node = Record<string, Json>;

const isNode = (v: Json): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The schema keywords whose value is one subschema, and those whose value is a list or a map of them. */
const ONE = [
  'additionalProperties',
  'items',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'contains',
];
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];

/** One version's schema files, read once each, and the node a `$ref` names from a file. */
class Schemas {
  private readonly files = new Map<string, Node>();
  /** The version's folder first, then the folder of the version it extends (which lends it every type it lacks). */
  constructor(private readonly dirs: readonly string[]) {}

  /** The root of a schema file of the version; undefined when there is none. */
  file(name: string): Node | undefined {
    if (!this.files.has(name)) {
      const at = this.dirs.map((d) => path.join(d, name)).find((f) => existsSync(f));
      if (at === undefined) return undefined;
      this.files.set(name, JSON.parse(readFileSync(at, 'utf8')));
    }
    return this.files.get(name);
  }

  /** Where a `$ref` from `file` points: the file and the JSON pointer inside it. */
  resolve(file: string, ref: string): { file: string; pointer: string; node: Node } {
    const [target = '', fragment = ''] = ref.split('#');
    const name = target === '' ? file : path.posix.normalize(target);
    let node: Json = this.file(name);
    for (const token of fragment.split('/').filter((t) => t !== ''))
      node = isNode(node)
        ? node[token.replaceAll('~1', '/').replaceAll('~0', '~')]
        : Array.isArray(node)
          ? node[Number(token)]
          : undefined;
    if (!isNode(node)) throw new Error(`${file}: the $ref ${ref} names nothing`);
    return { file: name, pointer: fragment, node };
  }
}

/** An enum of a schema file: where it is, and its values. */
interface EnumAt {
  key: string;
  values: readonly Json[];
}

/** Every enum reachable from a schema node, by `<File>#<pointer>`. */
function reachableEnums(
  schemas: Schemas,
  file: string,
  pointer: string,
  node: Node,
  out: Map<string, EnumAt>,
  seen: Set<string>,
): void {
  const key = `${file}#${pointer}`;
  if (seen.has(key)) return;
  seen.add(key);
  if (Array.isArray(node.enum)) out.set(key, { key, values: node.enum });
  if (typeof node.$ref === 'string') {
    const to = schemas.resolve(file, node.$ref);
    reachableEnums(schemas, to.file, to.pointer, to.node, out, seen);
  }
  for (const k of ONE) {
    const sub = node[k];
    if (isNode(sub)) reachableEnums(schemas, file, `${pointer}/${k}`, sub, out, seen);
  }
  for (const k of LIST) {
    const subs = node[k];
    if (Array.isArray(subs))
      subs.forEach((sub, i) => {
        if (isNode(sub)) reachableEnums(schemas, file, `${pointer}/${k}/${i}`, sub, out, seen);
      });
  }
  for (const k of MAP.filter((m) => m !== '$defs')) {
    const subs = node[k];
    if (isNode(subs))
      for (const [name, sub] of Object.entries(subs))
        if (isNode(sub)) reachableEnums(schemas, file, `${pointer}/${k}/${name}`, sub, out, seen);
  }
}

/**
 * Marks the enum values an instance carries where the schema types them with an enum. Every branch of a union is
 * followed: a value counts for an enum only when it is one of the enum's values at the place that enum types.
 */
function usedValues(
  schemas: Schemas,
  file: string,
  pointer: string,
  node: Node,
  value: Json,
  used: Map<string, Set<string>>,
  depth = 0,
): void {
  if (depth > 64) return;
  const key = `${file}#${pointer}`;
  if (Array.isArray(node.enum) && node.enum.some((v) => JSON.stringify(v) === JSON.stringify(value))) {
    const set = used.get(key) ?? new Set<string>();
    set.add(JSON.stringify(value));
    used.set(key, set);
  }
  if (typeof node.$ref === 'string') {
    const to = schemas.resolve(file, node.$ref);
    usedValues(schemas, to.file, to.pointer, to.node, value, used, depth + 1);
  }
  for (const k of ['anyOf', 'oneOf', 'allOf', 'if', 'then', 'else']) {
    const subs = node[k];
    const list = Array.isArray(subs) ? subs : isNode(subs) ? [subs] : [];
    list.forEach((sub, i) => {
      const at = Array.isArray(subs) ? `${pointer}/${k}/${i}` : `${pointer}/${k}`;
      if (isNode(sub)) usedValues(schemas, file, at, sub, value, used, depth + 1);
    });
  }
  if (isNode(value)) {
    const props = isNode(node.properties) ? node.properties : {};
    for (const [name, v] of Object.entries(value)) {
      const sub = props[name];
      if (isNode(sub)) usedValues(schemas, file, `${pointer}/properties/${name}`, sub, v, used, depth + 1);
      else if (isNode(node.additionalProperties))
        usedValues(
          schemas,
          file,
          `${pointer}/additionalProperties`,
          node.additionalProperties,
          v,
          used,
          depth + 1,
        );
    }
  }
  if (Array.isArray(value) && isNode(node.items))
    for (const v of value) usedValues(schemas, file, `${pointer}/items`, node.items, v, used, depth + 1);
}

/** Where a stream's item or a body's type is, as a schema file of the version. */
function typeFile(schemas: Schemas, typeName: string | undefined): string | undefined {
  if (typeName === undefined) return undefined;
  const name = `${typeName}.schema.json`;
  return schemas.file(name) ? name : undefined;
}

/** The contents an operation declares for a status: its own, its range's, or the default. */
function contentsFor(
  responses: Readonly<Record<string, readonly SurfaceContent[]>>,
  status: number,
): readonly SurfaceContent[] {
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default ?? [];
}

/** Where a value is typed: a schema file and the pointer of its schema inside it. */
type Typed = [file: string, pointer: string, value: Json];

/** Every answer of a scenario file, with the schema its values are typed by. */
function typedAnswers(file: Node, surface: Surface, schemas: Schemas, untyped: string[]): Typed[] {
  const out: Typed[] = [];
  const rpc = schemas.file('openrpc.json');
  const rpcMethods = rpc && Array.isArray(rpc.methods) ? rpc.methods : [];
  const maps = [
    file.answers,
    ...(Array.isArray(file.scenarios) ? file.scenarios.map((s) => (isNode(s) ? s.answers : undefined)) : []),
  ];
  for (const answers of maps) {
    if (!isNode(answers)) continue;
    for (const [name, given] of Object.entries(answers))
      for (const a of Array.isArray(given) ? given : [given]) {
        if (!isNode(a) || a.offSchema !== undefined) continue;
        const method = surface.rpc?.methods.find((m) => m.name === name);
        const values: [string | undefined, Json][] = [];
        if (method) {
          // A method's result is typed by its schema in openrpc.json (a reference to a type, or a union of them).
          const i = rpcMethods.findIndex((m) => isNode(m) && m.name === name);
          const results = [
            ...(a.result === undefined ? [] : [a.result]),
            ...(a.raw !== true && Array.isArray(a.events) ? a.events : []),
          ];
          if (i < 0) untyped.push(`${name}: not in openrpc.json`);
          else for (const r of results) out.push(['openrpc.json', `/methods/${i}/result/schema`, r]);
        } else {
          const operation = surface.operations.find((o) => o.operationId === name);
          const contents = operation
            ? contentsFor(operation.responses, typeof a.status === 'number' ? a.status : 200)
            : [];
          if (Array.isArray(a.events)) {
            const item = contents.find((c) => c.kind === 'stream')?.item?.typeName;
            for (const e of a.events) values.push([item, e]);
          } else if (a.body !== undefined)
            values.push([contents.find((c) => c.kind === 'json')?.typeName, a.body]);
        }
        for (const [type, value] of values) {
          const at = typeFile(schemas, type);
          if (at) out.push([at, '', value]);
          else untyped.push(`${name}: ${type ?? '(no type)'}`);
        }
      }
  }
  return out;
}

/** Every version folder that has client scenarios, as `<id>@<version>`. */
const withScenarios = versionsWith(CLIENT_SCENARIOS_FILE);

/** What a version's answers leave out: `<File>#<pointer>: values` for each enum with a value no answer carries. */
async function missingEnumValues(
  spec: string,
  file: Node,
): Promise<{ missing: string[]; enums: number; untyped: string[] }> {
  const [id = '', version = ''] = spec.split('@');
  const binding = await resolveBinding(spec);
  const surface = await binding.surface?.();
  if (!surface) throw new Error(`${spec} has no surface`);
  const manifest = parseYaml(readFileSync(path.join(ROOT, 'schemas', id, 'protocol.yaml'), 'utf8'));
  const extended: Json = manifest?.versions?.[version]?.extends;
  const schemas = new Schemas(
    [version, ...(typeof extended === 'string' ? [extended] : [])].map((v) =>
      path.join(ROOT, 'schemas', id, v),
    ),
  );
  const untyped: string[] = [];
  const answers = typedAnswers(file, surface, schemas, untyped);
  const enums = new Map<string, EnumAt>();
  const seen = new Set<string>();
  const used = new Map<string, Set<string>>();
  for (const [at, pointer, value] of answers) {
    const root = schemas.resolve(at, `#${pointer}`).node;
    reachableEnums(schemas, at, pointer, root, enums, seen);
    usedValues(schemas, at, pointer, root, value, used);
  }
  const missing: string[] = [];
  for (const e of enums.values()) {
    const skip = SKIPPED[`${spec} ${e.key}`];
    const left = e.values
      .map((v) => JSON.stringify(v))
      .filter((v) => !used.get(e.key)?.has(v))
      .filter((v) => !(skip && (skip.values === undefined || skip.values.includes(JSON.parse(v)))));
    if (left.length > 0) missing.push(`${e.key}: ${left.join(', ')}`);
  }
  return { missing, enums: enums.size, untyped };
}

const readFile = (spec: string): Node => {
  const [id = '', version = ''] = spec.split('@');
  return JSON.parse(readFileSync(path.join(ROOT, 'schemas', id, version, CLIENT_SCENARIOS_FILE), 'utf8'));
};

describe('client scenarios > every enum value', () => {
  it.each(withScenarios)('%s > the answers carry every value of every enum they can reach', async (spec) => {
    const { missing, enums, untyped } = await missingEnumValues(spec, readFile(spec));
    expect(untyped, 'answers whose type has no schema file to walk').toEqual([]);
    expect(enums).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  });

  it('refused > an answer that drops a value leaves it reported, at its enum', async () => {
    // The one dark icon of mcp@2025-11-25's answers turned light: `dark` is then in no answer.
    const file = readFile('mcp@2025-11-25');
    const text = JSON.stringify(file);
    expect(text.split('"theme":"dark"').length - 1).toBe(1);
    const { missing } = await missingEnumValues(
      'mcp@2025-11-25',
      JSON.parse(text.replace('"theme":"dark"', '"theme":"light"')),
    );
    expect(missing).toEqual(['Icon.schema.json#/properties/theme: "dark"']);
  });
});
