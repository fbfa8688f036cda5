// What the schemas declare, and nothing more. A request is validated against the 1.0 schemas, which leave objects
// open (DECISIONS 4: §5.7 says to ignore unrecognized fields); ignoring them means not keeping them either, so what a
// task stores of a client's message is cut to the fields its schema declares (DECISIONS 95). The walk reads the
// generated schemas: `properties` (of the object and of each `allOf`/`oneOf`/`anyOf` branch), `$ref`, `items`, and
// `additionalProperties` for maps. An object whose schema declares no property (a `google.protobuf.Struct` such as
// `metadata`, or a data part's `data`) is free-form and kept whole.
import type { JsonSchemaObject } from '@agentproto/runtime/contract';
import type { Message } from '../generated/1.0/index.js';
import { SURFACE } from '../generated/1.0/surface.js';
import { isObjectLike } from '../is-object-like.js';

type Schema = JsonSchemaObject;

/** The schemas of the handler version by `$id`. */
const byId = new Map<string, Schema>(
  SURFACE.schemas.flatMap((s) => (typeof s.$id === 'string' ? [[s.$id, s] as const] : [])),
);

const MESSAGE_ID = 'https://agentproto.dev/schemas/a2a/1.0/Message.schema.json';

/** `message` with only the fields the Message schema declares, at every depth (a new value; the input is kept). */
export function declaredMessage(message: Message): Message {
  const schema = byId.get(MESSAGE_ID);
  if (!schema) throw new Error('the generated schemas lack Message');
  // sound: pruning only drops members no schema declares; every member Message's type names is declared by the schema
  // it was generated from, so a valid Message stays a valid Message.
  return prune(message, schema, MESSAGE_ID) as Message;
}

/** `value` cut to what `schema` (whose `$id` base is `base`) declares. */
export function prune(value: unknown, schema: Schema, base: string): unknown {
  const branches = resolved(schema, base);
  if (Array.isArray(value)) {
    const items = branches.flatMap(({ schema: s, base: b }) =>
      isSchema(s.items) ? [{ schema: s.items, base: b }] : [],
    );
    const first = items[0];
    return first ? value.map((item) => prune(item, first.schema, first.base)) : value;
  }
  if (!isObjectLike(value)) return value;
  const declared = new Map<string, { schema: Schema; base: string }>();
  let map: { schema: Schema; base: string } | undefined;
  for (const { schema: s, base: b } of branches) {
    const properties = s.properties;
    if (isObjectLike(properties))
      for (const [key, sub] of Object.entries(properties))
        if (!declared.has(key) && isSchema(sub)) declared.set(key, { schema: sub, base: b });
    if (!map && isSchema(s.additionalProperties)) map = { schema: s.additionalProperties, base: b };
  }
  const out: Record<string, unknown> = {};
  if (declared.size === 0) {
    if (!map) return value;
    for (const [key, member] of Object.entries(value)) out[key] = prune(member, map.schema, map.base);
    return out;
  }
  for (const [key, member] of Object.entries(value)) {
    const sub = declared.get(key);
    if (sub) out[key] = prune(member, sub.schema, sub.base);
  }
  return out;
}

/** A schema and the schemas it stands for: through `$ref` (another file, resolved against `base`) and its branches. */
function resolved(
  schema: Schema,
  base: string,
  seen = new Set<Schema>(),
): { schema: Schema; base: string }[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const found = [{ schema, base }];
  if (typeof schema.$ref === 'string') {
    const id = new URL(schema.$ref, base).href;
    const target = byId.get(id);
    if (target) found.push(...resolved(target, id, seen));
  }
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list))
      for (const branch of list) if (isSchema(branch)) found.push(...resolved(branch, base, seen));
  }
  return found;
}

function isSchema(value: unknown): value is Schema {
  return isObjectLike(value) && !Array.isArray(value);
}
