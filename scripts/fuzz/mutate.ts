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
const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
  '$ref',
  '~/',
];

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
  const path = all[pick % all.length] as string[];
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
        const key =
          mutation === 'hostile-key' ? (HOSTILE_KEYS[n % HOSTILE_KEYS.length] as string) : `x_${n % 1000}`;
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
  let parent = copy as Record<string, unknown>;
  for (const token of path.slice(0, -1)) parent = parent[token] as Record<string, unknown>;
  const last = path.at(-1) as string;
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
