// ProtoJSON names (`x-protoJson` in the document's `info`): a binding whose bodies are the JSON mapping of protobuf
// messages, whose parsers must take each field under its JSON name or its proto field name. Worked out here once, as
// a table the generated routes hand the runtime (ProtoNameNode, @agentproto/runtime): the places in a request body
// where names are read (objects whose schema declares properties, through `$ref`, `allOf`/`oneOf`/`anyOf`, array items
// and map values), each field's proto name, and the optional plain-string fields whose `""` is proto3's "not set".
// Objects that declare no properties (a `google.protobuf.Struct`, `metadata`) are free-form: their keys are data.
import type { ProtoNameNode } from '@agentproto/runtime';
import { isRecord, resolveLocalPointer } from '../util/json.js';
import { PROTO_JSON } from '../util/proto-json.js';
import type { OperationModel, TypeModel } from './protocol-model.js';

export { PROTO_JSON };

/**
 * The proto field name of a JSON name, by protobuf's naming rule (fields are lower_snake_case, and the JSON name is
 * their lowerCamelCase): `messageId` → `message_id`, `oauth2SecurityScheme` → `oauth2_security_scheme`.
 */
export function protoFieldName(jsonName: string): string {
  return jsonName.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** A schema and the URI its relative references resolve against. */
interface Located {
  schema: Record<string, unknown>;
  base: string;
}

/** What a union of schemas says of one place in a body, gathered through references and combinators. */
interface Shape {
  fields: Map<string, Located[]>;
  required: Set<string>;
  values: Located[];
  items: Located[];
}

const COMBINATORS = ['allOf', 'oneOf', 'anyOf'] as const;

/** Builds the table of one document's request bodies: add each body's schema, then read `nodes`. */
export class ProtoNameTable {
  readonly nodes: ProtoNameNode[] = [];
  readonly #types: ReadonlyMap<string, Record<string, unknown>>;
  /** The key of each schema object met, so a union of schemas has a key and recursive types end. */
  readonly #ids = new WeakMap<object, string>();
  readonly #memo = new Map<string, number>();

  constructor(types: readonly TypeModel[]) {
    this.#types = new Map(types.map((t) => [t.id, t.schema]));
  }

  /**
   * The node of a body with this schema (references as the types' `$id`s, or relative to `base`), or -1 when no name
   * in it is read (a free-form object, a scalar).
   */
  add(schema: Record<string, unknown>, base = ''): number {
    return this.#node([{ schema, base }]);
  }

  #node(given: Located[]): number {
    const union = given.map((l) => this.#unwrap(l));
    const key = union
      .map((l) => `${l.base} ${this.#id(l.schema)}`)
      .sort()
      .join('\n');
    const known = this.#memo.get(key);
    if (known !== undefined) return known;
    const shape: Shape = { fields: new Map(), required: new Set(), values: [], items: [] };
    for (const l of union) this.#gather(l, shape, new Set());
    if (shape.fields.size === 0) {
      // A map or an array is a node only when its values or items are: its own keys are never renamed. Until it is
      // one, a path back to it reads nothing.
      this.#memo.set(key, -1);
      const values = shape.values.length > 0 ? this.#node(shape.values) : -1;
      const items = shape.items.length > 0 ? this.#node(shape.items) : -1;
      if (values < 0 && items < 0) return -1;
      const index = this.nodes.length;
      this.nodes.push({ ...(values >= 0 ? { values } : {}), ...(items >= 0 ? { items } : {}) });
      this.#memo.set(key, index);
      return index;
    }
    // The index is taken before the children are built, so a type that contains itself points back at it.
    const index = this.nodes.length;
    const node: ProtoNameNode = {};
    this.nodes.push(node);
    this.#memo.set(key, index);
    const fields: Record<string, number> = {};
    const protoNames: Record<string, string> = {};
    const emptyUnset: string[] = [];
    for (const [name, schemas] of shape.fields) {
      fields[name] = this.#node(schemas);
      const proto = protoFieldName(name);
      if (proto !== name && !shape.fields.has(proto)) protoNames[proto] = name;
      if (!shape.required.has(name) && schemas.every((l) => this.#plainString(l))) emptyUnset.push(name);
    }
    node.fields = fields;
    if (Object.keys(protoNames).length > 0) node.protoNames = protoNames;
    if (emptyUnset.length > 0) node.emptyUnset = emptyUnset;
    if (shape.items.length > 0) {
      const items = this.#node(shape.items);
      if (items >= 0) node.items = items;
    }
    return index;
  }

  /** A schema that is only a reference (and a description) stands for what it points at. */
  #unwrap(l: Located): Located {
    let at = l;
    for (let hops = 0; hops < 32; hops++) {
      if (Object.keys(at.schema).some((k) => k !== '$ref' && k !== 'description')) return at;
      const target = this.#resolve(at.schema.$ref, at.base);
      if (!target) return at;
      at = target;
    }
    return at;
  }

  /** A schema's key: its text, so equal schemas met twice (a body under two media types) make one node. */
  #id(schema: object): string {
    let id = this.#ids.get(schema);
    if (id === undefined) {
      id = JSON.stringify(schema);
      this.#ids.set(schema, id);
    }
    return id;
  }

  /** Adds what `l` says (through its references and combinators) to `shape`. */
  #gather(l: Located, shape: Shape, seen: Set<object>): void {
    if (seen.has(l.schema)) return;
    seen.add(l.schema);
    const { schema, base } = l;
    const target = this.#resolve(schema.$ref, base);
    if (target) this.#gather(target, shape, seen);
    for (const k of COMBINATORS) {
      const list = schema[k];
      if (Array.isArray(list))
        for (const s of list) if (isRecord(s)) this.#gather({ schema: s, base }, shape, seen);
    }
    if (isRecord(schema.properties))
      for (const [name, s] of Object.entries(schema.properties)) {
        if (!isRecord(s)) continue;
        const list = shape.fields.get(name);
        if (list) list.push({ schema: s, base });
        else shape.fields.set(name, [{ schema: s, base }]);
      }
    if (Array.isArray(schema.required))
      for (const name of schema.required) if (typeof name === 'string') shape.required.add(name);
    if (isRecord(schema.additionalProperties))
      shape.values.push({ schema: schema.additionalProperties, base });
    if (isRecord(schema.items)) shape.items.push({ schema: schema.items, base });
  }

  /** The schema a reference points at: a type (by `$id`, or a file name relative to `base`), or a place in one. */
  #resolve(ref: unknown, base: string): Located | undefined {
    if (typeof ref !== 'string') return undefined;
    let uri: string;
    try {
      uri = base === '' ? new URL(ref).href : new URL(ref, base).href;
    } catch {
      return undefined;
    }
    const hash = uri.indexOf('#');
    const id = hash < 0 ? uri : uri.slice(0, hash);
    const doc = this.#types.get(id);
    const found = hash < 0 || uri.length === hash + 1 ? doc : resolveLocalPointer(doc, uri.slice(hash + 1));
    return isRecord(found) ? { schema: found, base: id } : undefined;
  }

  /**
   * Whether a field's schema is a string that may be empty, with nothing else to say (no length, pattern, format or
   * enumeration): proto3's plain `string`, whose default `""` means the field is not set.
   */
  #plainString(l: Located): boolean {
    const target = this.#resolve(l.schema.$ref, l.base);
    const s = target ? target.schema : l.schema;
    if (s !== l.schema && Object.keys(l.schema).some((k) => k !== '$ref' && k !== 'description'))
      return false;
    return (
      s.type === 'string' &&
      !('enum' in s) &&
      !('const' in s) &&
      !('pattern' in s) &&
      !('format' in s) &&
      !(typeof s.minLength === 'number' && s.minLength > 0)
    );
  }
}

/**
 * For a ProtoJSON document: the table of its request bodies, each JSON body's node set on its content
 * (`protoNames`), and each operation's query parameters by proto name (`queryProtoNames`). Changes `operations`.
 */
export function protoNamesOf(operations: OperationModel[], types: readonly TypeModel[]): ProtoNameNode[] {
  const table = new ProtoNameTable(types);
  for (const op of operations) {
    for (const c of op.requestBody?.contents ?? []) {
      if (c.kind !== 'json') continue;
      const root = table.add(c.schema);
      if (root >= 0) c.protoNames = root;
    }
    const query: Record<string, string> = {};
    const declared = new Set(op.queryParams.map((p) => p.name));
    for (const p of op.queryParams) {
      const proto = protoFieldName(p.name);
      if (proto !== p.name && !declared.has(proto)) query[proto] = p.name;
    }
    if (Object.keys(query).length > 0) op.queryProtoNames = query;
  }
  return table.nodes;
}
