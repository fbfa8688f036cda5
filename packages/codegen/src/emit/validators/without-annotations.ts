// A schema as a validator reads it: the annotations that say nothing about which values are valid (`title`,
// `description`, `$comment`, `examples`) removed wherever a schema stands. ajv's code for a schema never reads them,
// so the message validators are made from schemas without them (emit-validators.ts), and the validators of a version
// whose edit touched only its prose are the same as before — and can be taken from the generator's cache.
import { isRecord } from '../../util/json.js';

/** The annotations removed: JSON Schema 2020-12's meta-data vocabulary, less `default`, `deprecated`, `readOnly`, `writeOnly`. */
export const PROSE_ANNOTATIONS: ReadonlySet<string> = new Set([
  'title',
  'description',
  '$comment',
  'examples',
]);

/** Keywords whose value is one schema. */
const ONE = new Set([
  'additionalProperties',
  'items',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'additionalItems',
]);
/** Keywords whose value is an array of schemas (`items` too, in drafts before 2020-12). */
const MANY = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
/** Keywords whose value maps names to schemas. */
const NAMED = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/**
 * `schema` without its prose annotations, at its root and in every subschema (a property named `description` under
 * `properties` is a name, and stays). Values of other keywords (`const`, `enum`, `default`, unknown ones) are copied
 * as they are. The input is not changed.
 */
export function withoutAnnotations<T>(schema: T): T;
// The body behind the signature: a schema gives a schema of the same shape.
export function withoutAnnotations(schema: unknown): unknown {
  if (!isRecord(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (PROSE_ANNOTATIONS.has(key)) continue;
    if (Array.isArray(value) && MANY.has(key)) out[key] = value.map((s) => withoutAnnotations(s));
    else if (ONE.has(key)) out[key] = withoutAnnotations(value);
    else if (NAMED.has(key) && isRecord(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([n, s]) => [n, withoutAnnotations(s)]));
    else out[key] = value;
  }
  return out;
}
