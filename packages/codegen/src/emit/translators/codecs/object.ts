// Object types: a new object with the rules' fields translated and every other property copied. With the shape of
// what the function takes, a fast path (object-fast.ts) comes first and hands anything it does not take to the
// general copy written here: every property walked, the rules applied where they claim one.
import { compilePathTemplate, type FieldRule } from '@agentproto/runtime/translate';
import { type Code, joinCode, str, ts } from '../../code.js';
import { claim, emitCopyRest } from './claims.js';
import { emitDerived } from './derive.js';
import type { Emitter } from './emitter.js';
import { mapField } from './field.js';
import { emitFastObject } from './object-fast.js';
import { readPath, writePath } from './paths.js';
import { type Direction, prop, type Shape, split } from './support.js';

/** One rule of an object type, with its paths split. */
interface Field {
  rule: FieldRule;
  from: string[];
  to: string[];
  flag: string[] | undefined;
}

/**
 * An object type: a new object with the rules' fields translated, and every other property copied. With the shape
 * of what the function takes, the common case — a value holding only properties its schema declares, each its own —
 * is built as an object literal (fast path), and anything else by the general copy.
 */
export function emitObject(
  cx: Emitter,
  name: Code,
  fields: Readonly<Record<string, FieldRule>>,
  direction: Direction,
  shape: Shape | undefined,
): void {
  const general = shape === undefined ? name : cx.fresh(`${String(name)}_any`);
  const fast = shape === undefined ? undefined : emitFastObject(cx, name, general, fields, direction, shape);
  if (fast !== undefined) cx.define(fast);
  emitGeneralObject(cx, fast === undefined ? name : general, fields, direction);
}

/** The general copy of an object type: every property walked, rules applied where they claim one. */
function emitGeneralObject(
  cx: Emitter,
  name: Code,
  fields: Readonly<Record<string, FieldRule>>,
  direction: Direction,
): void {
  if (Object.keys(fields).length === 0) {
    // No rule: the copy is every own enumerable property, in order, `__proto__` as data; a spread copies just those,
    // as one clone where the loop sets each key by name.
    cx.define(ts`function ${name}(v: unknown): unknown {
  if (!isObject(v)) return v;
  return { ...v };
}
`);
    return;
  }
  const rules: Field[] = Object.entries(fields).map(([path, rule]) => ({
    rule,
    from: split(path),
    to: split(rule.move ?? path),
    flag: rule.box ? split(rule.box.flag) : undefined,
  }));
  const carried = rules.filter(
    (r) => r.rule.const === undefined && r.rule.derive === undefined && r.rule.template === undefined,
  );
  const named = rules.filter((r) => r.rule.template !== undefined);
  const consts = rules.filter((r) => r.rule.const !== undefined);
  const derived = rules.filter((r) => r.rule.derive !== undefined);
  const flags = rules.flatMap((r) => (r.flag ? [r.flag] : []));
  // Templates are compiled once, when the module loads.
  const templates = new Map(named.map((r) => [r, cx.template(r.rule.template ?? '')] as const));
  const templateCode = (r: Field) => {
    const t = templates.get(r);
    if (t === undefined) throw new Error('a template rule without its template');
    return t;
  };
  const body: Code[] = [];
  // The object starts with the constants of the `from` side (going down) that make a plain literal: the first ones
  // that sit at the root under a key that is not `__proto__`; the others are written after, in the rules' order.
  let literalKeys: Code[] = [];
  let rest = consts;
  if (direction === 'down') {
    const simple = consts.findIndex((r) => r.from.length !== 1 || r.from[0] === '__proto__');
    const leading = simple === -1 ? consts : consts.slice(0, simple);
    literalKeys = leading.map((r) => ts`${prop(r.from[0] ?? '')}: ${cx.value(r.rule.const)}`);
    rest = simple === -1 ? [] : consts.slice(simple);
    for (const r of rest) body.push(ts`  ${writePath(cx, ts`out`, r.from, cx.value(r.rule.const))}\n`);
  }
  const claimed =
    direction === 'up'
      ? claim([...rules.map((r) => r.from), ...flags])
      : claim([
          ...carried.map((r) => r.to),
          ...rules.filter((r) => !carried.includes(r) && r.rule.template === undefined).map((r) => r.from),
          ...flags,
          ...named.flatMap((r) => compilePathTemplate(r.rule.template ?? '').vars.map((k) => [k])),
        ]);
  body.push(emitCopyRest(cx, claimed));
  for (const r of carried) {
    const source = direction === 'up' ? r.from : r.to;
    const target = direction === 'up' ? r.to : r.from;
    const dflt = r.rule.default === undefined ? undefined : cx.value(r.rule.default);
    // Going up, an absent value is read from another path of the same value (`orFrom`).
    const other =
      r.rule.orFrom !== undefined && direction === 'up'
        ? readPath(cx, ts`v`, split(r.rule.orFrom))
        : undefined;
    const direct = readPath(cx, ts`v`, source);
    const got =
      other === undefined
        ? ts`    const got = ${direct};\n`
        : ts`    const given = ${direct};\n    const got = given === undefined ? ${other} : given;\n`;
    const read =
      other === undefined && dflt === undefined
        ? ts`    const value = ${direct};\n`
        : dflt === undefined
          ? ts`${got}    const value = got;\n`
          : ts`${got}    const value = got === undefined ? ${dflt} : got;\n`;
    let write: Code;
    const { box } = r.rule;
    if (box && r.flag && direction === 'up') {
      // A boxed value is opened when its flag says it was boxed.
      const opened = ts`${readPath(cx, ts`v`, r.flag)} === true && isObject(value) && Object.hasOwn(value, ${str(box.key)}) ? value[${str(box.key)}] : value`;
      write =
        dflt === undefined
          ? ts`      ${writePath(cx, ts`out`, target, opened)}\n`
          : ts`      const up = ${opened};\n      if (up !== ${dflt}) ${writePath(cx, ts`out`, target, ts`up`)}\n`;
    } else if (box && r.flag) {
      write = ts`      if (isObject(value)) ${writePath(cx, ts`out`, target, ts`value`)}
      else {
        ${writePath(cx, ts`out`, target, ts`{ [${str(box.key)}]: value }`)}
        ${writePath(cx, ts`out`, r.flag, ts`true`)}
      }
`;
    } else {
      const mapped = mapField(cx, r.rule, direction, ts`value`);
      write =
        dflt === undefined
          ? ts`      ${writePath(cx, ts`out`, target, mapped)}\n`
          : ts`      const mapped = ${mapped};\n      if (mapped !== ${dflt}) ${writePath(cx, ts`out`, target, ts`mapped`)}\n`;
    }
    // An empty object read as absent (`emptyIsAbsent`), going up only.
    const present =
      r.rule.emptyIsAbsent && direction === 'up'
        ? ts`value !== undefined && !(isObject(value) && Object.keys(value).length === 0)`
        : ts`value !== undefined`;
    body.push(ts`  {
${read}    if (${present}) {
${write}    }
  }
`);
  }
  for (const r of named) {
    const template = templateCode(r);
    body.push(
      direction === 'up'
        ? ts`  {
    const value = ${readPath(cx, ts`v`, r.from)};
    const found = typeof value === 'string' ? ${template}.match(value) : undefined;
    if (found) for (const [k, x] of Object.entries(found)) put(out, k, x);
    else if (value !== undefined) ${writePath(cx, ts`out`, r.from, ts`value`)}
  }
`
        : ts`  {
    const name = ${template}.fill(v);
    if (name !== undefined) ${writePath(cx, ts`out`, r.from, ts`name`)}
  }
`,
    );
  }
  if (direction === 'down') body.push(...emitDerived(cx, derived));
  const start = literalKeys.length === 0 ? ts`{}` : ts`{ ${joinCode(literalKeys, ', ')} }`;
  cx.define(ts`function ${name}(v: unknown): unknown {
  if (!isObject(v)) return v;
  const out: Obj = ${start};
${body}  return out;
}
`);
}
