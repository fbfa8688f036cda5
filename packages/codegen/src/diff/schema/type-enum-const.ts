// `type`, `enum` and `const`: what kinds of value a node takes, and which values exactly. A type gained or lost, an
// enum value added or removed, a constant changed: each names the values only one side takes.
import { sampleOfType } from '../sample.js';
import type { Mutation } from './found-change.js';
import type { Here } from './handler.js';
import { equal, list, short } from './json-values.js';
import { set, setFrom } from './mutations.js';

/** Compares the `type` of two nodes: the types gained and lost (an `integer` widened to `number` gains some). */
export function types(here: Here): void {
  const { o, n, at, add } = here;
  if (equal(o.type, n.type)) return;
  const of = (x: unknown) => new Set(Array.isArray(x) ? x.map(String) : x === undefined ? [] : [String(x)]);
  const before = of(o.type);
  const after = of(n.type);
  if (before.size === 0 || after.size === 0) {
    // Without `type`, a reference, a union or a value list still says what the value is.
    const constrained = (x: Record<string, unknown>) =>
      ['$ref', 'anyOf', 'oneOf', 'allOf', 'enum', 'const'].some((k) => k in x);
    if (constrained(before.size === 0 ? o : n)) return;
    const narrowed = before.size === 0;
    add(
      narrowed ? 'type-narrowed' : 'type-widened',
      narrowed ? `now must be ${[...after].join(' or ')}` : `may now be any type`,
      narrowed ? 'senders' : 'receivers',
      [],
    );
    return;
  }
  const takes = (set: Set<string>, t: string) => set.has(t) || (t === 'integer' && set.has('number'));
  const gained = [...after].filter((t) => !takes(before, t) || (t === 'number' && !before.has('number')));
  const lost = [...before].filter((t) => !takes(after, t) || (t === 'number' && !after.has('number')));
  // `integer` to `number` gains the non-integers; the sample of a gained `number` must not be an integer.
  const ofType = (schema: unknown, t: string, side: 'old' | 'new'): Mutation => ({
    accept: side,
    apply: (_node, tools) => (t === 'number' ? 0.5 : sampleOfType(schema, t, tools.resolve[side])),
  });
  if (gained.length > 0)
    add(
      'type-widened',
      `now also takes ${gained.join(', ')}`,
      'receivers',
      gained.map((t) => ofType(at.new, t, 'new')),
    );
  if (lost.length > 0)
    add(
      'type-narrowed',
      `no longer takes ${lost.join(', ')}`,
      'senders',
      lost.map((t) => ofType(at.old, t, 'old')),
    );
}

/** Compares the `enum` of two nodes: the list added or removed, or the values gained and lost. */
export function enums(here: Here): void {
  const { o, n, add } = here;
  const before = Array.isArray(o.enum) ? o.enum : undefined;
  const after = Array.isArray(n.enum) ? n.enum : undefined;
  if (equal(before, after)) return;
  if (!before || !after) {
    if (after) add('enum-added', `now must be one of ${list(after)}`, 'senders', []);
    else if (before) add('enum-removed', `need no longer be one of ${list(before)}`, 'receivers', []);
    return;
  }
  const gained = after.filter((v) => !before.some((b) => equal(b, v)));
  const lost = before.filter((v) => !after.some((a) => equal(a, v)));
  if (gained.length > 0)
    add(
      'enum-value-added',
      `takes the new value${gained.length > 1 ? 's' : ''} ${list(gained)}`,
      'receivers',
      gained.map((v) => set('new', v)),
    );
  if (lost.length > 0)
    add(
      'enum-value-removed',
      `no longer takes ${list(lost)}`,
      'senders',
      lost.map((v) => set('old', v)),
    );
}

/** Compares the `const` of two nodes: changed, added or removed. */
export function consts(here: Here): void {
  const { o, n, add } = here;
  if (equal(o.const, n.const) && 'const' in o === 'const' in n) return;
  if ('const' in o && 'const' in n)
    add('const-changed', `must be ${short(n.const)} instead of ${short(o.const)}`, 'both', [
      set('new', n.const),
      set('old', o.const),
    ]);
  else if ('const' in n) add('const-added', `now must be ${short(n.const)}`, 'senders', []);
  else add('const-removed', `need no longer be ${short(o.const)}`, 'receivers', [setFrom('new', n, true)]);
}
