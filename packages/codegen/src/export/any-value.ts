// Which types of a version accept every JSON value. A free-form value is often written as a recursive union (a value
// is an object of values, an array of values, or a scalar), which says "anything" in a way code generators follow
// forever: quicktype's Python renderer overflows its stack on one. The draft-07 bundle writes such a type as the
// empty schema, which accepts the same instances and reads as "any" everywhere.
import { isRecord } from '../util/json.js';

/** The six JSON types; `integer` is a part of `number`, not the whole. */
const JSON_TYPES = ['object', 'array', 'string', 'number', 'boolean', 'null'] as const;

// Keywords that never reject a value (a type's `$id` and `$schema` included: its references are read by name).
const ANNOTATIONS = new Set([
  '$id',
  '$schema',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
]);

type Types = ReadonlySet<string>;
const ALL: Types = new Set(JSON_TYPES);
const NONE: Types = new Set();

/**
 * The names of the types in `types` that accept every JSON value. A type counts when it is made only of `type`
 * lists, `anyOf`s and `$ref`s, where an object's `additionalProperties` and an array's `items` (if present) accept
 * every value, and the types it lets through, each whole, are all six. Recursion is read coinductively: a type is
 * assumed to accept everything until shown otherwise, which is sound because every recursive reference it may lean on
 * sits one level down (under `items` or `additionalProperties`), so the claim holds for each value by induction on
 * its depth; a reference back to a type at the same place counts as accepting nothing.
 */
export function anyValueTypes(
  types: ReadonlyMap<string, unknown>,
  nameOfRef: (ref: string) => string,
): Set<string> {
  const assumed = new Map<string, Types>([...types.keys()].map((n) => [n, ALL]));
  // Each pass can only take types away: stop when one takes none.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, schema] of types) {
      const now = wholeTypes(schema, { types, assumed, nameOfRef, stack: [name], below: false });
      if (now.size !== assumed.get(name)?.size) {
        assumed.set(name, now);
        changed = true;
      }
    }
  }
  return new Set([...assumed].filter(([, t]) => t.size === ALL.size).map(([n]) => n));
}

interface Reading {
  types: ReadonlyMap<string, unknown>;
  assumed: ReadonlyMap<string, Types>;
  nameOfRef: (ref: string) => string;
  // The types entered at this place (no `items` or `additionalProperties` crossed since): a loop among them says nothing.
  stack: readonly string[];
  // Below the place: a reference is read by what is assumed of its type, never followed.
  below: boolean;
}

/** The JSON types `schema` accepts every value of (those it accepts only some values of are left out). */
function wholeTypes(schema: unknown, r: Reading): Types {
  if (schema === true) return ALL;
  if (!isRecord(schema)) return NONE;
  const keys = Object.keys(schema).filter((k) => !ANNOTATIONS.has(k));
  if (keys.length === 0) return ALL;
  if (keys.length === 1 && typeof schema.$ref === 'string') {
    const name = r.nameOfRef(schema.$ref);
    if (r.below) return r.assumed.get(name) ?? NONE;
    if (!r.types.has(name) || r.stack.includes(name)) return NONE;
    return wholeTypes(r.types.get(name), { ...r, stack: [...r.stack, name] });
  }
  if (keys.length === 1 && Array.isArray(schema.anyOf)) {
    const out = new Set<string>();
    for (const branch of schema.anyOf) for (const t of wholeTypes(branch, r)) out.add(t);
    return out;
  }
  if (!keys.includes('type') || keys.some((k) => !['type', 'additionalProperties', 'items'].includes(k)))
    return NONE;
  const listed = Array.isArray(schema.type) ? schema.type : [schema.type];
  const out = new Set<string>(listed.filter((t): t is string => typeof t === 'string' && t !== 'integer'));
  // One level down: a reference is read by what is assumed of its type.
  const below = (sub: unknown) => sub === undefined || acceptsAll(sub, r);
  if (out.has('object') && !below(schema.additionalProperties)) out.delete('object');
  if (out.has('array') && !below(schema.items)) out.delete('array');
  return out;
}

/** Whether `schema`, one level below the place being read, accepts every value (by what is assumed so far). */
function acceptsAll(schema: unknown, r: Reading): boolean {
  return wholeTypes(schema, { ...r, stack: [], below: true }).size === ALL.size;
}
