// Unions: told apart by their tag (`by`) or by which properties are present, each member translated by its own
// function (a member with its fields inline is an object type of its own), and wrapped or unwrapped when the other
// version holds it under a key.
import type { CaseRule, FieldRule, TypeRule } from '@agentproto/runtime/translate';
import { type Code, joinCode, str, ts } from '../../code.js';
import type { Emitter } from './emitter.js';
import { emitObject } from './object.js';
import type { Direction } from './support.js';

/** The function `name` of a union type: a chain of tests, each handing the value to a member's function. */
export function emitUnion(
  cx: Emitter,
  name: Code,
  by: string | undefined,
  cases: Readonly<Record<string, CaseRule>>,
  direction: Direction,
): void {
  const members = Object.entries(cases).map(([value, c]) => {
    let inner: Code;
    if (c.type !== undefined) inner = cx.type(c.type)[direction];
    else {
      // A member with its fields inline is an object type of its own, with the tag as a constant when there is one.
      const own: Record<string, FieldRule> = by === undefined ? {} : { [by]: { const: value } };
      inner = cx.fresh(`${direction}${String(name).slice(direction.length)}_${value}`);
      emitObject(cx, inner, { ...own, ...(c.fields ?? {}) }, direction, undefined);
    }
    const tagged = by !== undefined && c.type !== undefined && writesTag(cx.table.types[c.type], by, value);
    return { value, wrap: c.wrap, when: c.when ?? [], has: c.has ?? [], inner, tagged };
  });
  const wrapped = (m: (typeof members)[number], value: Code) =>
    m.wrap === undefined ? value : ts`{ [${str(m.wrap)}]: ${value} }`;
  // `in` first: an inline cache answers it for a value of a shape seen before, where Object.hasOwn is a call each
  // time; the own-property test then runs only for the member found.
  const anyOf = (keys: readonly string[]) =>
    joinCode(
      keys.map((k) =>
        keys.length === 1
          ? ts`${str(k)} in v && hop.call(v, ${str(k)})`
          : ts`(${str(k)} in v && hop.call(v, ${str(k)}))`,
      ),
      ' || ',
    );
  let body: Code;
  if (direction === 'up' && by !== undefined) {
    const cases = members.map(
      (m) => ts`    case ${str(m.value)}: return ${wrapped(m, ts`${m.inner}(v)`)};\n`,
    );
    body = ts`  switch (v[${str(by)}]) {
${cases}  }
`;
  } else if (direction === 'up') {
    body = joinCode(
      members
        .filter((m) => m.has.length > 0)
        .map((m) => ts`  if (${anyOf(m.has)}) return ${wrapped(m, ts`${m.inner}(v)`)};\n`),
      '',
    );
  } else {
    body = joinCode(
      members
        .filter((m) => m.wrap !== undefined || m.when.length > 0)
        .map((m) => {
          const test = m.wrap !== undefined ? anyOf([m.wrap]) : anyOf(m.when);
          const given = m.wrap !== undefined ? ts`v[${str(m.wrap)}]` : ts`v`;
          // A member whose own function writes the tag answers as it is: no second look at what it made.
          if (by === undefined || m.tagged) return ts`  if (${test}) return ${m.inner}(${given});\n`;
          // The tag first, as the `from` side writes it, when the member's own function did not write it.
          return ts`  if (${test}) {
    const value = ${m.inner}(${given});
    return !isObject(value) || value[${str(by)}] === ${str(m.value)} ? value : { [${str(by)}]: ${str(m.value)}, ...value };
  }
`;
        }),
      '',
    );
  }
  cx.define(ts`function ${name}(v: unknown): unknown {
  if (!isObject(v)) return v;
${body}  return v;
}
`);
}

/**
 * Whether the object function of `rule` writes `by` as `value` on every object it answers going down (and answers
 * anything else as it came): `by` is a constant field at its root, and no other rule writes under that name (a
 * deeper path, a box flag). Both its fast path and its general copy write the constants first.
 */
function writesTag(rule: TypeRule | undefined, by: string, value: string): boolean {
  const fields = rule?.fields;
  if (rule === undefined || fields === undefined || rule.cases !== undefined) return false;
  if (rule.enum !== undefined || rule.list !== undefined || by === '__proto__') return false;
  if (!Object.hasOwn(fields, by) || fields[by]?.const !== value) return false;
  const under = (path: string) => path === by || path.startsWith(`${by}/`);
  return Object.entries(fields).every(
    ([path, r]) => (path === by || !under(path)) && (r.box === undefined || !under(r.box.flag)),
  );
}
