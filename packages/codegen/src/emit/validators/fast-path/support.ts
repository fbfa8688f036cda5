// What every construct of the fast-path compiler shares: the schema shape, the reason a schema is left to ajv, and
// the guards that run a keyword's checks only on values of its JSON type.
import { type Code, joinCode, ts } from '../../code.js';

/** Why a schema has no fast path: it uses a keyword (or a form of one) this compiler does not take. */
export class Unsupported extends Error {}

/** A JSON Schema: an object, or `true` (anything) / `false` (nothing). */
export type Schema = Record<string, unknown> | boolean;

/** Where a construct's checks apply: the schema object, the base URI its `$ref`s resolve against, the value. */
export interface Site {
  /** The schema whose keywords are compiled. */
  schema: Record<string, unknown>;
  /** The base URI of `schema` (its own `$id` applied). */
  base: string;
  /** An expression for the value checked (`data`, a variable, `data[k]`). */
  data: Code;
  /** The JSON type the statements before these already made sure of, if any: its test is not repeated. */
  known: string | undefined;
}

/** Keywords that say nothing about validity (annotations, and the places of subschemas reached through `$ref`). */
export const ANNOTATIONS: ReadonlySet<string> = new Set([
  '$schema',
  '$id',
  '$comment',
  '$defs',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  'contentEncoding',
  'contentMediaType',
]);

/** Whether `v` is a JSON object (not an array, not null). */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A subschema (a keyword's value, or an entry of its list), which must be an object or a boolean; the schemas passed
 * the meta-schema, so anything else is only a form this compiler does not take.
 */
export function subschema(value: unknown, keyword: string): Schema {
  if (typeof value === 'boolean' || isObject(value)) return value;
  throw new Unsupported(`${keyword} that is not a schema`);
}

/** The value of a count keyword (`minItems`, `maxLength`, …), which must be a non-negative integer. */
export function integer(value: unknown, keyword: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new Unsupported(`${keyword} that is not a non-negative integer`);
  return value;
}

/** The condition for keywords of one JSON type, with `&&` after it; nothing when that type is already known. */
export function guard(known: string | undefined, type: string, test: Code): Code {
  return known === type ? ts`` : ts`${test} && `;
}

/** Statements that run only for values of one JSON type; unwrapped when that type is already known. */
export function block(known: string | undefined, type: string, test: Code, inner: readonly Code[]): Code {
  return known === type ? lines(inner) : ts`if(${test}){\n${lines(inner)}\n}`;
}

/** Statements one per line. */
export function lines(statements: readonly Code[]): Code {
  return joinCode(statements, '\n');
}
