// What `unevaluatedProperties` needs to know: the properties a schema evaluates on any object it accepts.
import type { Compiler } from './compiler.js';
import { isObject, type Schema, subschema, Unsupported } from './support.js';

/** Properties evaluated: these names, names matching these patterns, or all of them. */
export interface Evaluated {
  names: string[];
  patterns: string[];
  all: boolean;
}

/**
 * The properties `schema` evaluates on an object it accepts, known without looking at the object: its own
 * `properties` and `patternProperties`, everything under `additionalProperties` or `unevaluatedProperties`, and
 * those of its `allOf` branches and `$ref` targets. Branches that apply only sometimes (anyOf, oneOf, if) must
 * evaluate nothing, else the set depends on the object and this compiler leaves the schema to ajv.
 */
export function evaluated(
  cx: Compiler,
  schema: Schema,
  base: string,
  seen: Set<object>,
  top = false,
): Evaluated {
  const none: Evaluated = { names: [], patterns: [], all: false };
  if (typeof schema === 'boolean' || seen.has(schema)) return none;
  seen.add(schema);
  const here = typeof schema.$id === 'string' ? new URL(schema.$id, base).href : base;
  const result: Evaluated = {
    names: Object.keys(isObject(schema.properties) ? schema.properties : {}),
    patterns: Object.keys(isObject(schema.patternProperties) ? schema.patternProperties : {}),
    // The schema's own unevaluatedProperties is what asks; in a subschema, it has evaluated every property.
    all: schema.additionalProperties !== undefined || (!top && schema.unevaluatedProperties !== undefined),
  };
  const merge = (other: Evaluated) => {
    result.names.push(...other.names);
    result.patterns.push(...other.patterns);
    result.all ||= other.all;
  };
  if (typeof schema.$ref === 'string') {
    const target = cx.resolve(schema.$ref, here);
    merge(evaluated(cx, target.schema, target.base, seen));
  }
  if (Array.isArray(schema.allOf))
    for (const b of schema.allOf) merge(evaluated(cx, subschema(b, 'allOf'), here, seen));
  for (const key of ['anyOf', 'oneOf', 'if', 'then', 'else', 'dependentSchemas'] as const) {
    const branches =
      key === 'anyOf' || key === 'oneOf' ? schema[key] : schema[key] === undefined ? [] : [schema[key]];
    for (const b of Array.isArray(branches) ? branches : []) {
      const e = evaluated(cx, subschema(b, key), here, new Set(seen));
      if (e.all || e.names.length > 0 || e.patterns.length > 0)
        throw new Unsupported(`unevaluatedProperties over a ${key} whose branches evaluate properties`);
    }
  }
  return result;
}
