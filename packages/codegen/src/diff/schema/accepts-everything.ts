// Whether a schema takes every JSON value once its references are followed: `{}`, `true`, and also a named type such
// as `JSONValue` (an `anyOf` of objects of JSONValues, arrays of JSONValues, strings, numbers, booleans and null). Two
// such schemas are one schema written two ways, and the walk reports no change between them.
import { isRecord } from '../../util/json.js';
import type { TypeLookup } from './expand.js';

const JSON_TYPES = ['null', 'boolean', 'object', 'array', 'number', 'string'] as const;
type JsonType = (typeof JSON_TYPES)[number];

// Keywords that never reject a value.
const NEUTRAL = new Set([
  '$schema',
  '$id',
  '$anchor',
  '$comment',
  '$defs',
  'definitions',
  'title',
  'description',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'discriminator',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
]);

// How deep references are followed at one place of a value before giving up (an answer of "no" is always safe).
const MAX_FOLLOW = 16;

/** True when the schema takes every JSON value; false when it may not (a "no" is always the safe answer). */
export function acceptsEverything(schema: unknown, lookup: TypeLookup): boolean {
  return JSON_TYPES.every((t) => takesAll(schema, t, lookup, new Set(), new Set(), 0));
}

/**
 * Whether the schema takes every value of one JSON type. A reference met again inside a member or an item of the
 * value (`assumed`) is taken to hold: the value is finite, so that is an induction on its depth. One met again at
 * the same place (`pending`) would be a loop, and is a "no".
 */
function takesAll(
  schema: unknown,
  type: JsonType,
  lookup: TypeLookup,
  assumed: Set<string>,
  pending: Set<string>,
  follows: number,
): boolean {
  if (schema === true) return true;
  if (!isRecord(schema)) return false;
  const everything = (sub: unknown) =>
    JSON_TYPES.every((t) => takesAll(sub, t, lookup, new Set([...assumed, ...pending]), new Set(), follows));
  for (const [key, value] of Object.entries(schema)) {
    if (NEUTRAL.has(key) || key.startsWith('x-')) continue;
    switch (key) {
      case '$ref': {
        if (typeof value !== 'string') return false;
        const target = lookup(value);
        if (!target) return false;
        const mark = `${target.type}#${target.pointer}`;
        if (assumed.has(mark)) continue;
        if (pending.has(mark) || follows >= MAX_FOLLOW) return false;
        if (!takesAll(target.schema, type, lookup, assumed, new Set([...pending, mark]), follows + 1))
          return false;
        continue;
      }
      case 'type': {
        const types = Array.isArray(value) ? value : [value];
        if (!types.includes(type)) return false;
        continue;
      }
      case 'anyOf': {
        if (!Array.isArray(value)) return false;
        if (!value.some((b) => takesAll(b, type, lookup, assumed, pending, follows))) return false;
        continue;
      }
      case 'allOf': {
        if (!Array.isArray(value)) return false;
        if (!value.every((b) => takesAll(b, type, lookup, assumed, pending, follows))) return false;
        continue;
      }
      case 'oneOf': {
        // One branch that takes them all, and no other that takes any of them, is beyond this check: only one branch.
        if (!Array.isArray(value) || value.length !== 1) return false;
        if (!takesAll(value[0], type, lookup, assumed, pending, follows)) return false;
        continue;
      }
      case 'properties':
      case 'additionalProperties':
      case 'unevaluatedProperties': {
        if (type !== 'object') continue;
        const subs = key === 'properties' ? (isRecord(value) ? Object.values(value) : [false]) : [value];
        if (!subs.every(everything)) return false;
        continue;
      }
      case 'items':
      case 'unevaluatedItems': {
        if (type !== 'array') continue;
        if (!everything(value)) return false;
        continue;
      }
      case 'prefixItems': {
        if (type !== 'array') continue;
        if (!Array.isArray(value) || !value.every(everything)) return false;
        continue;
      }
      case 'required':
        if (type === 'object' && !(Array.isArray(value) && value.length === 0)) return false;
        continue;
      case 'minProperties':
      case 'minItems':
      case 'minLength':
        if (value !== 0 && kindOf(key) === type) return false;
        continue;
      case 'maxProperties':
      case 'maxItems':
      case 'maxLength':
      case 'patternProperties':
      case 'propertyNames':
      case 'dependentRequired':
      case 'dependentSchemas':
      case 'contains':
      case 'minContains':
      case 'maxContains':
      case 'uniqueItems':
      case 'pattern':
      case 'format':
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
      case 'multipleOf':
        if (kindOf(key) === type && !(key === 'uniqueItems' && value === false)) return false;
        continue;
      default:
        // `enum`, `const`, `not`, `if`, and any keyword not known here: it may reject something.
        return false;
    }
  }
  return true;
}

/** The JSON type a keyword constrains. */
function kindOf(keyword: string): JsonType {
  if (/Properties$|^propertyNames$|^dependent/.test(keyword)) return 'object';
  if (/Items$|^contains$|Contains$|^uniqueItems$/.test(keyword)) return 'array';
  if (/Length$|^pattern$|^format$/.test(keyword)) return 'string';
  return 'number';
}
