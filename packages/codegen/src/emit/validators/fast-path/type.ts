// `type`: ajv's test for each JSON type, and the type the keywords after it may take for granted.
import { type Code, joinCode, ts } from '../../code.js';
import { ANNOTATIONS, isObject, type Schema, type Site, Unsupported } from './support.js';

/** ajv's test for a JSON type. */
export function typeCheck(type: string, d: Code): Code {
  switch (type) {
    case 'object':
      return ts`(${d} && typeof ${d} == "object" && !Array.isArray(${d}))`;
    case 'array':
      return ts`Array.isArray(${d})`;
    case 'string':
      return ts`typeof ${d} == "string"`;
    // Number.isFinite and Number.isInteger are false for anything but a number, as ajv's tests are.
    case 'number':
      return ts`Number.isFinite(${d})`;
    case 'integer':
      return ts`Number.isInteger(${d})`;
    case 'boolean':
      return ts`typeof ${d} == "boolean"`;
    case 'null':
      return ts`${d} === null`;
    default:
      throw new Unsupported(`type ${type}`);
  }
}

/**
 * The check of `type` (none when the type is already known) and the type known after it: one type, with an integer
 * a number for the keywords that follow.
 */
export function emitType({ schema, data, known }: Site): { checks: Code[]; known: string | undefined } {
  if (schema.type === undefined) return { checks: [], known };
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).map(String);
  const checks =
    types.length === 1 && types[0] === known
      ? []
      : [
          ts`if(!(${joinCode(
            types.map((t) => typeCheck(t, data)),
            ' || ',
          )})) return false;`,
        ];
  const after = types.length === 1 ? (types[0] === 'integer' ? 'number' : types[0]) : known;
  return { checks, known: after };
}

/** A branch that is a lone `type` test (annotations aside). */
export function typeOnly(branch: Schema): boolean {
  return (
    isObject(branch) &&
    typeof branch.type === 'string' &&
    Object.keys(branch).every((k) => k === 'type' || ANNOTATIONS.has(k))
  );
}
