// ProtoJSON names: a binding whose bodies are the JSON mapping of protobuf messages (its document says `x-protoJson`)
// takes each field under its JSON name (lowerCamelCase) or under its proto field name (snake_case), as every ProtoJSON
// parser must. The generator works out, once, where in a body names are read (the objects whose schema declares
// properties, following `$ref`, unions, array items and map values) and emits it as a table; here a parsed body is
// rewritten to its JSON names along that table before it is validated. Free-form objects (a `google.protobuf.Struct`
// such as `metadata`) are not in the table, so their keys are never touched.
import { escapePointerToken } from '../text/pointer.js';

/** How the names of one place in a body are read. Indexes point into the same table; -1 is a place not read. */
export interface ProtoNameNode {
  /** An object with declared fields: each JSON name, and the node of its value (-1: nothing under it is renamed). */
  fields?: Readonly<Record<string, number>>;
  /** The proto name of each declared field whose proto name is not its JSON name: proto name → JSON name. */
  protoNames?: Readonly<Record<string, string>>;
  /**
   * Fields where an empty string is proto3's default, so the field is not set: optional, plain-string fields. They
   * are left out of the body, as a proto3 reader would leave them unset.
   */
  emptyUnset?: readonly string[];
  /** A map (an object without declared fields): the node of each value; its keys are never renamed. */
  values?: number;
  /** An array: the node of each item. */
  items?: number;
}

/** Where a body's names are read: the generated table, and the node of the body itself. */
export interface ProtoNames {
  nodes: readonly ProtoNameNode[];
  root: number;
}

/** A field given twice, under its JSON name and its proto name: ProtoJSON forbids it. */
export interface ProtoNameClash {
  /** The JSON pointer of the field, under its JSON name. */
  pointer: string;
  jsonName: string;
  protoName: string;
}

/**
 * Rewrites `value` (a freshly parsed body, changed in place) to the JSON names of its fields, and leaves out optional
 * string fields given as `""`. Answers the first field given under both names, or undefined. A body already written
 * in JSON names is walked once and left as it is.
 */
export function readProtoNames(value: unknown, names: ProtoNames): ProtoNameClash | undefined {
  const found = walk(value, names.nodes, names.root);
  if (!found) return undefined;
  const pointer = found.tokens
    .reverse()
    .map((t) => `/${escapePointerToken(t)}`)
    .join('');
  return { pointer, jsonName: found.jsonName, protoName: found.protoName };
}

/** A clash as the walk finds it: the tokens of its path from the field up (each frame adds its own on the way out). */
interface Found {
  tokens: string[];
  jsonName: string;
  protoName: string;
}

function walk(value: unknown, nodes: readonly ProtoNameNode[], index: number): Found | undefined {
  const node = index >= 0 ? nodes[index] : undefined;
  if (!node || typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    const items = node.items;
    if (items === undefined || items < 0) return undefined;
    for (let i = 0; i < value.length; i++) {
      const clash = walk(value[i], nodes, items);
      if (clash) {
        clash.tokens.push(String(i));
        return clash;
      }
    }
    return undefined;
  }
  // sound: a non-null, non-array object parsed from JSON: a plain record of its members
  const object = value as Record<string, unknown>;
  const fields = node.fields;
  if (fields) {
    // One pass over the members: each declared one is followed at once; a proto name is kept for after the pass.
    const protoNames = node.protoNames;
    let renamed: string[] | undefined;
    for (const key in object) {
      const child = fields[key];
      if (child !== undefined && Object.hasOwn(fields, key)) {
        if (child < 0) continue;
        const clash = walk(object[key], nodes, child);
        if (clash) {
          clash.tokens.push(key);
          return clash;
        }
      } else if (protoNames && Object.hasOwn(protoNames, key)) {
        if (renamed) renamed.push(key);
        else renamed = [key];
      }
    }
    if (renamed && protoNames)
      for (const protoName of renamed) {
        // sound: `renamed` holds only keys protoNames has (checked above)
        const jsonName = protoNames[protoName] as string;
        if (Object.hasOwn(object, jsonName)) return { tokens: [jsonName], jsonName, protoName };
        object[jsonName] = object[protoName];
        delete object[protoName];
        // sound: every JSON name in protoNames is a declared field (the generator writes them so)
        const child = fields[jsonName] as number;
        if (child < 0) continue;
        const clash = walk(object[jsonName], nodes, child);
        if (clash) {
          clash.tokens.push(jsonName);
          return clash;
        }
      }
    const emptyUnset = node.emptyUnset;
    if (emptyUnset) for (const name of emptyUnset) if (object[name] === '') delete object[name];
    return undefined;
  }
  const values = node.values;
  if (values === undefined || values < 0) return undefined;
  for (const key in object) {
    const clash = walk(object[key], nodes, values);
    if (clash) {
      clash.tokens.push(key);
      return clash;
    }
  }
  return undefined;
}

/**
 * Rewrites query parameters given under their proto names (`history_length`) to the names the operation declares
 * (`historyLength`), in place. Answers the first parameter given under both names, or undefined.
 */
export function readProtoQuery(
  query: Record<string, string>,
  protoNames: Readonly<Record<string, string>>,
): ProtoNameClash | undefined {
  for (const key of Object.keys(query)) {
    if (!Object.hasOwn(protoNames, key)) continue;
    // sound: protoNames has `key` (checked above), and its values are strings
    const jsonName = protoNames[key] as string;
    if (Object.hasOwn(query, jsonName))
      return { pointer: `/${escapePointerToken(jsonName)}`, jsonName, protoName: key };
    query[jsonName] = query[key] ?? '';
    delete query[key];
  }
  return undefined;
}

/** What a refusal says of a field given under both its names. */
export function clashMessage(clash: ProtoNameClash): string {
  return `gives field "${clash.jsonName}" twice, as "${clash.jsonName}" and as its proto name "${clash.protoName}"`;
}
