// The fast path of an object type: one pass over the value's keys checks that each is an own property its schema
// declares (anything else goes to the general copy), then the answer is built as an object literal with a bit per
// property seen, the same answer the general copy gives.
import type { FieldRule } from '@agentproto/runtime/translate';
import { type Code, ident, joinCode, str, ts } from '../../code.js';
import { emitDerived } from './derive.js';
import type { Emitter } from './emitter.js';
import { mapField } from './field.js';
import { writePath } from './paths.js';
import { type Direction, prop, type Shape } from './support.js';

/** The most properties a fast path tells apart (one bit each of a 32-bit integer). */
const MAX_FAST = 30;

/**
 * The fast path of an object type, or undefined when its rules need the general copy (a rule reaching below the
 * root, a box, a template, a default) or its shape has too many properties. The function checks, in one pass over
 * the keys, that every property is an own one the shape declares (else it hands the value to `general`), then
 * writes the answer the general copy would give: the constants, each property no rule claims as it is, each rule's
 * field translated, the derived ones. Keys come in the same order as the general copy's when the value's keys come
 * in the schema's order.
 */
export function emitFastObject(
  cx: Emitter,
  name: Code,
  general: Code,
  fields: Readonly<Record<string, FieldRule>>,
  direction: Direction,
  shape: Shape,
): Code | undefined {
  const rules = Object.entries(fields).map(([path, rule]) => ({ path, rule, to: rule.move ?? path }));
  const simple = rules.every(
    (r) =>
      !r.path.includes('/') &&
      !r.to.includes('/') &&
      r.rule.box === undefined &&
      r.rule.template === undefined &&
      r.rule.default === undefined &&
      r.rule.emptyIsAbsent === undefined &&
      r.rule.orFrom === undefined &&
      (r.rule.derive === undefined || direction === 'up' || r.path !== '__proto__'),
  );
  if (!simple) return undefined;
  const carried = rules.filter((r) => r.rule.const === undefined && r.rule.derive === undefined);
  // What each carried rule reads, and what the general copy leaves out (the same claims as object.ts's).
  const sources = new Map(carried.map((r) => [direction === 'up' ? r.path : r.to, r] as const));
  const claimed = new Set(
    direction === 'up'
      ? rules.map((r) => r.path)
      : [...carried.map((r) => r.to), ...rules.filter((r) => !carried.includes(r)).map((r) => r.path)],
  );
  const known = [...new Set([...shape.properties, ...sources.keys()])];
  if (known.length > MAX_FAST) return undefined;
  const bit = new Map(known.map((k, i) => [k, 2 ** i] as const));
  const bitOf = (k: string) => bit.get(k) ?? 0;
  const copied = shape.properties.filter((k) => !claimed.has(k));
  // Each value the answer takes is read in the pass, by the key the pass holds (`v[k]`): V8 reads it by its slot,
  // where a read by name after the pass goes through an inline cache that misses on every object of a shape it has
  // not seen (a producer that spreads objects makes a new shape for each).
  const read = known.filter((k) => sources.has(k) || copied.includes(k));
  const local = new Map(read.map((k, i) => [k, ident(`p${i}`)] as const));
  const readValue = (k: string): Code => local.get(k) ?? ts`v[${str(k)}]`;
  // Keys read for their bit: every known one, but those only claimed (a constant's stale value, a derived field),
  // which the answer never copies.
  const cases = known.map((k) => {
    if (claimed.has(k) && !sources.has(k))
      return ts`      case ${str(k)}: break;
`;
    const into = local.get(k);
    return into === undefined
      ? ts`      case ${str(k)}: seen |= ${bitOf(k)}; break;
`
      : ts`      case ${str(k)}: seen |= ${bitOf(k)}; ${into} = v[k]; break;
`;
  });
  const required = new Set(shape.required);
  // The object literal: the constants going down, then the copied properties the schema requires, as long as no
  // optional one comes before them.
  const consts =
    direction === 'down'
      ? rules
          .filter((r) => r.rule.const !== undefined)
          .map((r) => ts`${prop(r.path)}: ${cx.value(r.rule.const)}`)
      : [];
  let lead = copied.findIndex((k) => !required.has(k) || k === '__proto__');
  if (lead === -1) lead = copied.length;
  const inLiteral = copied.slice(0, lead);
  const mask = inLiteral.reduce((m, k) => m + bitOf(k), 0);
  const literalKeys = [...consts, ...inLiteral.map((k) => ts`${prop(k)}: ${readValue(k)}`)];
  const body: Code[] = [];
  // Going down, a derived field reads a property of the answer; when one carried rule alone writes that property
  // (no copy, no constant), the value it wrote is kept in a local and read from there.
  const derivedHeads = new Set(
    direction === 'down'
      ? rules.flatMap((r) => (r.rule.derive ? [r.rule.derive.from.split('/')[0]] : []))
      : [],
  );
  const held = new Map(
    carried
      .filter(
        (r) =>
          direction === 'down' &&
          derivedHeads.has(r.path) &&
          r.path !== '__proto__' &&
          !copied.includes(r.path),
      )
      .map((r, i) => [r.path, ident(`d${i}`)] as const),
  );
  const kept = (target: string, value: Code): Code => {
    const h = held.get(target);
    return h === undefined ? value : ts`(${h} = ${value})`;
  };
  for (const k of copied.slice(lead))
    body.push(ts`  if ((seen & ${bitOf(k)}) !== 0) ${writePath(cx, ts`out`, [k], readValue(k))}
`);
  for (const r of carried) {
    const source = direction === 'up' ? r.path : r.to;
    const target = direction === 'up' ? r.to : r.path;
    // A property the pass saw is an own one; one it did not see may still be an own property that is not enumerable.
    body.push(ts`  {
    const value = (seen & ${bitOf(source)}) !== 0 ? ${readValue(source)} : ${str(source)} in v && hop.call(v, ${str(source)}) ? v[${str(source)}] : undefined;
    if (value !== undefined) ${writePath(cx, ts`out`, [target], kept(target, mapField(cx, r.rule, direction, ts`value`)))}
  }
`);
  }
  if (direction === 'down')
    body.push(
      ...emitDerived(
        cx,
        rules.map((r) => ({ rule: r.rule, from: [r.path] })),
        held,
      ),
    );
  const start = literalKeys.length === 0 ? ts`{}` : ts`{ ${joinCode(literalKeys, ', ')} }`;
  const locals = [...local.values(), ...held.values()].map((n) => ts`${n}: unknown`);
  const declared =
    locals.length === 0
      ? ts``
      : ts`  let ${joinCode(locals, ', ')};
`;
  return ts`function ${name}(v: unknown): unknown {
  if (!isObject(v)) return v;
  let seen = 0;
${declared}  for (const k in v) {
    if (!hop.call(v, k)) return ${general}(v);
    switch (k) {
${cases}      default: return ${general}(v);
    }
  }
${
  mask === 0
    ? ts``
    : ts`  if ((seen & ${mask}) !== ${mask}) return ${general}(v);
`
}  const out: Obj = ${start};
${body}  return out;
}
`;
}
