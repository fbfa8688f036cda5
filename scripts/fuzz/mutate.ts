// Near-valid messages: a valid example with one thing broken, as a careless or hostile sender would send it.
import fc from 'fast-check';

/** One way to break a message at one place in it. */
export type Mutation =
  | 'delete'
  | 'replace'
  | 'retype'
  | 'extra-key'
  | 'hostile-key'
  | 'odd-string'
  | 'odd-number'
  | 'wrap-deep'
  | 'null';

const MUTATIONS: readonly Mutation[] = [
  'delete',
  'replace',
  'retype',
  'extra-key',
  'hostile-key',
  'odd-string',
  'odd-number',
  'wrap-deep',
  'null',
];

const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\r\n',
  '\ud800',
  '\udc00x',
  '日本語',
  '😀',
  'a'.repeat(10_000),
  '<script>alert(1)</script>',
  "'; DROP TABLE tasks; --",
  '../../../etc/passwd',
  '%00',
  '{{7*7}}',
  'true',
  '1e309',
];
const ODD_NUMBERS = [0, -0, -1, 1.5, 2 ** 53, -(2 ** 53), 1e308, -1e308, 5e-324, 2 ** 31, 2 ** 32, 0.1 + 0.2];
const HOSTILE_KEYS: readonly [string, ...string[]] = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
  '$ref',
  '~/',
];

/**
 * Whether a value is an object (an array too) whose members can be read by key: the runtime's `isObjectLike`, for the
 * fuzz scripts (which reach the runtime through its public entries only).
 */
export function isObjectLike(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The member of a non-empty list that `n` picks, counting round. */
export function cycle<T>(list: readonly [T, ...T[]], n: number): T {
  return list[n % list.length] ?? list[0];
}

/** Every place in a value: the pointer tokens that reach it. */
function places(value: unknown, at: string[] = [], out: string[][] = []): string[][] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((v, i) => void places(v, [...at, String(i)], out));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) places(v, [...at, k], out);
  return out;
}

function retype(value: unknown): unknown {
  if (typeof value === 'string') return value.length;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 1 : 'false';
  if (Array.isArray(value)) return Object.fromEntries(value.map((v, i) => [String(i), v]));
  if (value !== null && typeof value === 'object') return Object.values(value);
  return {};
}

/**
 * A copy of `value` with one mutation at the place `pick` selects (modulo the number of places). `other` is an
 * arbitrary JSON value for replacements, `n` picks among odd strings, numbers and keys.
 */
export function mutate(value: unknown, mutation: Mutation, pick: number, n: number, other: unknown): unknown {
  const copy = structuredClone(value);
  const all = places(copy);
  // `places` always lists the value itself (`[]`), so the list is never empty.
  const path = all[pick % all.length] ?? [];
  const apply = (target: unknown): unknown => {
    switch (mutation) {
      case 'replace':
        return other;
      case 'retype':
        return retype(target);
      case 'odd-string':
        return ODD_STRINGS[n % ODD_STRINGS.length];
      case 'odd-number':
        return ODD_NUMBERS[n % ODD_NUMBERS.length];
      case 'wrap-deep': {
        let wrapped: unknown = target;
        for (let i = 0; i < 20 + (n % 200); i++) wrapped = n % 2 === 0 ? [wrapped] : { a: wrapped };
        return wrapped;
      }
      case 'null':
        return null;
      case 'extra-key':
      case 'hostile-key': {
        if (target === null || typeof target !== 'object' || Array.isArray(target)) return target;
        const key = mutation === 'hostile-key' ? cycle(HOSTILE_KEYS, n) : `x_${n % 1000}`;
        // defineProperty, so `__proto__` becomes an own key, as JSON.parse makes it.
        Object.defineProperty(target, key, {
          value: other,
          enumerable: true,
          writable: true,
          configurable: true,
        });
        return target;
      }
      default:
        return target;
    }
  };
  if (path.length === 0) return mutation === 'delete' ? undefined : apply(copy);
  // Every place but the value itself is a member of an object or an array on the way to it, so `parent` is one and
  // `last` is set: the guard only says so to the compiler.
  let parent: unknown = copy;
  for (const token of path.slice(0, -1)) parent = isObjectLike(parent) ? parent[token] : undefined;
  const last = path.at(-1);
  if (!isObjectLike(parent) || last === undefined) return copy;
  if (mutation === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else {
    parent[last] = apply(parent[last]);
  }
  return copy;
}

/** Arbitrary near-valid variants of the given examples, each with one mutation. */
export function nearValid(examples: readonly unknown[]): fc.Arbitrary<unknown> {
  return fc
    .tuple(
      fc.constantFrom(...examples),
      fc.constantFrom(...MUTATIONS),
      fc.nat(),
      fc.nat(),
      fc.jsonValue({ maxDepth: 2 }),
    )
    .map(([example, mutation, pick, n, other]) => mutate(example, mutation, pick, n, other));
}

/** Any JSON value, and near-valid variants of the examples when there are some: what a validator may be handed. */
export function messages(examples: readonly unknown[]): fc.Arbitrary<unknown> {
  const any = fc.jsonValue({ maxDepth: 4 });
  return examples.length === 0
    ? any
    : fc.oneof({ arbitrary: nearValid(examples), weight: 3 }, { arbitrary: any, weight: 1 });
}
