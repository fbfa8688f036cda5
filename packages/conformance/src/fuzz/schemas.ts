// The schemas a surface names, by `$id`, and the two views the generator needs of any node: the node its `$ref`s lead
// to, and an object's properties and required keys gathered through `allOf`.
import type { JsonSchemaObject } from '@agentproto/runtime/contract';

/** A schema node and the URI its relative references resolve against. */
export interface Located {
  node: JsonSchemaObject;
  base: string;
}

/** What an object schema says about its keys, `allOf` parts included. */
export interface ObjectShape {
  properties: Map<string, Located>;
  required: Set<string>;
  /** `additionalProperties: false` or `unevaluatedProperties: false` on the object or one of its parts. */
  closed: boolean;
}

const isObject = (v: unknown): v is JsonSchemaObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every schema of a surface, found by `$id`. */
export class SchemaSet {
  private readonly byId = new Map<string, JsonSchemaObject>();

  constructor(schemas: readonly JsonSchemaObject[]) {
    for (const s of schemas) if (typeof s.$id === 'string') this.byId.set(s.$id, s);
  }

  /** Follows `$ref` until a node without one (at most 32 hops: a cycle of bare references ends there). */
  deref(located: Located): Located {
    let current = located;
    for (let hop = 0; hop < 32; hop++) {
      const ref = current.node.$ref;
      if (typeof ref !== 'string') return current;
      const target = this.lookup(ref, current.base);
      if (!target) return { node: {}, base: current.base };
      current = target;
    }
    return current;
  }

  /** The properties, required keys and closedness of an object schema, through `allOf` and references. */
  shape(located: Located): ObjectShape {
    const shape: ObjectShape = { properties: new Map(), required: new Set(), closed: false };
    const visit = (l: Located, depth: number) => {
      if (depth > 8) return;
      const { node, base } = this.deref(l);
      const props = node.properties;
      if (isObject(props))
        for (const [k, v] of Object.entries(props))
          if (isObject(v) && !shape.properties.has(k)) shape.properties.set(k, { node: v, base });
      if (Array.isArray(node.required)) for (const k of node.required) shape.required.add(String(k));
      if (node.additionalProperties === false || node.unevaluatedProperties === false) shape.closed = true;
      if (Array.isArray(node.allOf))
        for (const part of node.allOf) if (isObject(part)) visit({ node: part, base }, depth + 1);
    };
    visit(located, 0);
    return shape;
  }

  /** The branches of an `anyOf` or `oneOf` node, if it has them. */
  branches(located: Located): Located[] {
    const { node, base } = this.deref(located);
    const list = Array.isArray(node.oneOf) ? node.oneOf : Array.isArray(node.anyOf) ? node.anyOf : [];
    return list.filter(isObject).map((b) => ({ node: b, base }));
  }

  private lookup(ref: string, base: string): Located | undefined {
    let url: URL;
    try {
      url = new URL(ref, base);
    } catch {
      return undefined;
    }
    const fragment = decodeURIComponent(url.hash.replace(/^#/, ''));
    url.hash = '';
    const doc = this.byId.get(url.href);
    if (!doc) return undefined;
    let node: unknown = doc;
    for (const token of fragment.split('/').slice(1)) {
      if (!isObject(node)) return undefined;
      node = node[token.replaceAll('~1', '/').replaceAll('~0', '~')];
    }
    return isObject(node) ? { node, base: url.href } : undefined;
  }
}

/** The JSON types a node allows (its `type`, or what its keywords imply), `null` last. */
export function typesOf(node: JsonSchemaObject): string[] {
  const t = node.type;
  const listed = Array.isArray(t) ? t.map(String) : typeof t === 'string' ? [t] : [];
  if (listed.length > 0)
    return [...listed.filter((x) => x !== 'null'), ...listed.filter((x) => x === 'null')];
  if (node.properties || node.required || node.additionalProperties !== undefined) return ['object'];
  if (node.items || node.prefixItems) return ['array'];
  if (node.minimum !== undefined || node.maximum !== undefined) return ['number'];
  return [];
}
