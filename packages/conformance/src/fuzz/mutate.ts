// Near-valid requests: one constraint of a valid one broken at a time. Each mutation names the rule it breaks and
// where; the caller keeps only those the binding's validator rejects (a wrong type inside a union may still match
// another branch, and is then no mutation at all).
import {
  escapePointerToken,
  type JsonSchemaObject,
  pointerOf,
  type SurfaceParameter,
} from '@agentproto/runtime/contract';
import { isObject } from '../kit/is-object.js';
import { type Located, type SchemaSet, typesOf } from './schemas.js';

/** Which rule a mutation breaks. */
export type MutationKind =
  | 'missing-required'
  | 'wrong-type'
  | 'out-of-range'
  | 'unknown-enum'
  | 'extra-property'
  | 'malformed-body';

/** One constraint broken: what, where (a JSON pointer into the body, or `?name` for a query parameter), and how. */
export interface Mutation<T> {
  kind: MutationKind;
  at: string;
  /** What was done, as a failure message says it. */
  description: string;
  apply: (value: T) => T;
}

const MAX_DEPTH = 6;
const UNKNOWN = 'conformance-unknown-value';

/** A JSON value of another type than `value`'s. */
export function otherType(value: unknown): unknown {
  if (typeof value === 'string') return 12345;
  if (typeof value === 'number') return 'not a number';
  if (typeof value === 'boolean') return 'yes';
  if (Array.isArray(value)) return { conformance: 'an object, not an array' };
  if (value === null) return 0;
  return ['an array, not an object'];
}

/** Replaces the value at a pointer inside a copy of `root` (`undefined` deletes the key). */
function setAt(root: unknown, path: readonly (string | number)[], next: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return next;
  if (Array.isArray(root)) {
    const copy: unknown[] = root.slice();
    // sound: a path steps into an array by a number (walk below goes into one at index 0), into an object by a key
    const index = head as number;
    copy[index] = setAt(copy[index], rest, next);
    return copy;
  }
  // sound: spreading copies a value's own keys whatever the value (none for undefined or null), as the copy needs
  const copy: Record<string, unknown> = { ...(root as object) };
  if (rest.length === 0 && next === undefined) delete copy[head];
  else copy[head] = setAt(copy[head], rest, next);
  return copy;
}

/** Every single-constraint mutation of a JSON body `value` that the schema at `located` accepts. */
export function bodyMutations(
  schemas: SchemaSet,
  located: Located,
  value: unknown,
): Array<Mutation<unknown>> {
  const out: Array<Mutation<unknown>> = [];
  const walk = (here: Located, v: unknown, path: Array<string | number>, depth: number) => {
    const at = pointerOf(path);
    const { node } = schemas.deref(here);
    const put = (kind: MutationKind, description: string, next: unknown) =>
      out.push({ kind, at, description, apply: (root) => setAt(root, path, next) });
    put(
      'wrong-type',
      `${at || 'the body'} is ${JSON.stringify(otherType(v))}, not ${article(typeName(v))}`,
      otherType(v),
    );
    if ('const' in node && typeof node.const === 'string')
      put('unknown-enum', `${at} is "${UNKNOWN}", not "${node.const}"`, UNKNOWN);
    if (Array.isArray(node.enum) && typeof v === 'string')
      put('unknown-enum', `${at} is "${UNKNOWN}", a value its enum does not list`, UNKNOWN);
    if (typeof v === 'number') rangeMutations(node, (d, n) => put('out-of-range', `${at} is ${n}, ${d}`, n));
    if (typeof v === 'string') {
      if (typeof node.maxLength === 'number' && node.maxLength < 10_000)
        put(
          'out-of-range',
          `${at} is ${node.maxLength + 1} characters, over maxLength`,
          'x'.repeat(node.maxLength + 1),
        );
      if (typeof node.minLength === 'number' && node.minLength > 0)
        put(
          'out-of-range',
          `${at} is ${node.minLength - 1} characters, under minLength`,
          'x'.repeat(node.minLength - 1),
        );
    }
    if (depth >= MAX_DEPTH) return;
    if (isObject(v) && !Array.isArray(v) && typesOf(node).includes('object')) {
      const shape = schemas.shape(here);
      const record = v;
      for (const key of shape.required)
        if (key in record)
          out.push({
            kind: 'missing-required',
            at: `${at}/${escapePointerToken(key)}`,
            description: `${at}/${escapePointerToken(key)} is left out, though required`,
            apply: (root) => setAt(root, [...path, key], undefined),
          });
      if (shape.closed)
        put('extra-property', `${at || 'the body'} has a property its schema does not allow`, {
          ...record,
          conformance_extra: true,
        });
      for (const [key, property] of shape.properties)
        if (key in record) walk(property, record[key], [...path, key], depth + 1);
    }
    if (Array.isArray(v) && v.length > 0 && isObject(node.items))
      walk({ node: node.items, base: here.base }, v[0], [...path, 0], depth + 1);
  };
  walk(located, value, [], 0);
  return out;
}

/** The mutations of a set of query parameters (their text, as sent). */
export function queryMutations(
  schemas: SchemaSet,
  parameters: readonly SurfaceParameter[],
  base: string,
): Array<Mutation<Record<string, string>>> {
  const out: Array<Mutation<Record<string, string>>> = [];
  for (const p of parameters) {
    const { node } = schemas.deref({ node: p.schema, base });
    const set = (kind: MutationKind, description: string, text: string) =>
      out.push({ kind, at: `?${p.name}`, description, apply: (q) => ({ ...q, [p.name]: text }) });
    const types = typesOf(node);
    if (types.includes('integer') || types.includes('number')) {
      set('wrong-type', `?${p.name}=abc, not a number`, 'abc');
      rangeMutations(node, (d, n) => set('out-of-range', `?${p.name}=${n}, ${d}`, String(n)));
    }
    if (types.includes('boolean')) set('wrong-type', `?${p.name}=maybe, not a boolean`, 'maybe');
    if (Array.isArray(node.enum))
      set('unknown-enum', `?${p.name}=${UNKNOWN}, a value its enum does not list`, UNKNOWN);
    if (p.required)
      out.push({
        kind: 'missing-required',
        at: `?${p.name}`,
        description: `?${p.name} is left out, though required`,
        apply: (q) => Object.fromEntries(Object.entries(q).filter(([k]) => k !== p.name)),
      });
  }
  return out;
}

function rangeMutations(node: JsonSchemaObject, put: (description: string, n: number) => void): void {
  if (typeof node.minimum === 'number') put(`under its minimum ${node.minimum}`, node.minimum - 1);
  if (typeof node.exclusiveMinimum === 'number')
    put(`not over its exclusive minimum ${node.exclusiveMinimum}`, node.exclusiveMinimum);
  if (typeof node.maximum === 'number' && node.maximum < Number.MAX_SAFE_INTEGER)
    put(`over its maximum ${node.maximum}`, node.maximum + 1);
  if (typeof node.exclusiveMaximum === 'number')
    put(`not under its exclusive maximum ${node.exclusiveMaximum}`, node.exclusiveMaximum);
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v;
}

/** `an object`, `a string`: the type with its article. */
function article(type: string): string {
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}
