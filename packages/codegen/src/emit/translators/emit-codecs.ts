// Emits a translation table's codecs as straight-line code: for each `from` type one function per direction, with
// every rule of the table written out as the statements it stands for (a constant is a key of the object literal the
// value starts as, an enum table a `switch`, a nested type a direct call, a union a chain of tests on its tag or on
// which member is present). What the codecs do is exactly what @agentproto/runtime/translate's `compileTranslation`
// does with the same table — the same values, keys in the same order — without walking the table at each call:
// test/translate/a2a-codecs.test.ts holds the two side by side.
import {
  type CaseRule,
  compilePathTemplate,
  type FieldRule,
  type TranslationTable,
  type TypeRule,
} from '@agentproto/runtime/translate';
import { type Code, ident, isIdentifier, joinCode, literal, str, ts } from '../code.js';

/** The paths rules read or write, as a tree (`true` where a whole property is claimed). */
interface Claimed {
  [key: string]: Claimed | true;
}

/** Which direction a function translates: `up` from the `from` version to the `to` one, `down` back. */
type Direction = 'up' | 'down';

/** What a type's values hold, as its schema declares: every property name a value may have, and those it must. */
export interface Shape {
  properties: readonly string[];
  required: readonly string[];
}

/** The shapes of each version's types, by name, when the schemas are at hand: the codecs' fast paths are built on them. */
export interface Shapes {
  from(type: string): Shape | undefined;
  to(type: string): Shape | undefined;
}

/** The most properties a fast path tells apart (one bit each of a 32-bit integer). */
const MAX_FAST = 30;

const split = (path: string): string[] => path.split('/');

/** The claim tree of some paths, as the runtime builds it: a path inside one already claimed whole adds nothing. */
function claim(paths: ReadonlyArray<readonly string[]>): Claimed {
  const root: Claimed = {};
  for (const path of paths) {
    let at = root;
    for (const [i, k] of path.entries()) {
      if (i === path.length - 1) {
        at[k] = true;
        break;
      }
      const next = Object.hasOwn(at, k) ? at[k] : undefined;
      if (next === true) break;
      if (next === undefined) {
        const made: Claimed = {};
        at[k] = made;
        at = made;
      } else at = next;
    }
  }
  return root;
}

/** A property key of an object literal; `__proto__` computed, so that it is a property and never the prototype. */
const prop = (name: string): Code => (name === '__proto__' ? ts`[${str(name)}]` : str(name));

/** Whether a value is written as a literal in place (a JSON scalar) rather than as a shared constant. */
const isScalar = (value: unknown): boolean => value === null || typeof value !== 'object';

/** One rule of an object type, with its paths split. */
interface Field {
  rule: FieldRule;
  from: string[];
  to: string[];
  flag: string[] | undefined;
}

/** The module-level code the codecs share: constants hoisted out of the functions, and the functions themselves. */
class Emitter {
  readonly #table: TranslationTable;
  readonly #constants: Code[] = [];
  /** The constants made so far, by type and JSON text: one constant however many rules use the value. */
  readonly #shared = new Map<string, Code>();
  readonly #functions: Code[] = [];
  readonly #names = new Set<string>();
  readonly #typeNames = new Map<string, { up: Code; down: Code }>();
  readonly #enumNames = new Map<string, { up: Code; down: Code }>();
  #count = 0;

  readonly #shapes: Shapes | undefined;

  constructor(table: TranslationTable, shapes?: Shapes) {
    this.#table = table;
    this.#shapes = shapes;
  }

  /** A fresh identifier for a function or constant: `base` when it is one and free, else numbered. */
  #fresh(base: string): Code {
    let name = isIdentifier(base) ? base : `${base.replace(/[^A-Za-z0-9_$]/g, '_')}`;
    if (!isIdentifier(name)) name = `_${name}`;
    while (this.#names.has(name)) name = `${name}_${this.#count++}`;
    this.#names.add(name);
    return ident(name);
  }

  /** A constant of the module, with its value: JSON scalars as literals, anything else parsed from its JSON text. */
  #constant(value: unknown, type: Code, shared = true): Code {
    // Paths and claim trees are only read, so rules share them; a rule's own value (a default compared by identity, a
    // constant written into answers) is its own object, as it is in the table.
    const id = `${String(type)} ${JSON.stringify(value)}`;
    const known = shared ? this.#shared.get(id) : undefined;
    if (known) return known;
    const name = this.#fresh(`K${this.#constants.length}`);
    if (shared) this.#shared.set(id, name);
    // JSON.parse keeps `__proto__` an own property, where an object literal would set the prototype with it.
    const source = isScalar(value) ? literal(value) : ts`JSON.parse(${str(JSON.stringify(value))})`;
    this.#constants.push(ts`const ${name}: ${type} = ${source};\n`);
    return name;
  }

  /** A value where a rule holds it: a literal when a scalar, else a shared constant (the same object at every call). */
  #value(value: unknown): Code {
    return isScalar(value) ? literal(value) : this.#constant(value, ts`unknown`, false);
  }

  /** A path of more than one property, as a constant array. */
  #path(path: readonly string[]): Code {
    return this.#constant(path, ts`readonly string[]`);
  }

  /** The functions of `from` type `name` (emitted on first use, so rules may refer to each other in any order). */
  type(name: string): { up: Code; down: Code } {
    const known = this.#typeNames.get(name);
    if (known) return known;
    const rule = this.#table.types[name];
    if (!rule) throw new Error(`translation ${this.#table.from}→${this.#table.to}: no rule for type ${name}`);
    const names = { up: this.#fresh(`up${name}`), down: this.#fresh(`down${name}`) };
    this.#typeNames.set(name, names);
    for (const direction of ['up', 'down'] as const)
      this.#typeFunction(name, names[direction], rule, direction);
    return names;
  }

  /** The functions of enum table `name`: a `switch` over its spellings, anything else passed through. */
  #enum(name: string): { up: Code; down: Code } {
    const known = this.#enumNames.get(name);
    if (known) return known;
    const pairs = this.#table.enums[name];
    if (!pairs) throw new Error(`translation ${this.#table.from}→${this.#table.to}: no enum table ${name}`);
    const names = { up: this.#fresh(`enumUp${name}`), down: this.#fresh(`enumDown${name}`) };
    this.#enumNames.set(name, names);
    const entries = Object.entries(pairs);
    // As a Map built from the pairs reads them: a spelling that comes twice maps as its last pair says.
    const maps = { up: new Map(entries), down: new Map(entries.map(([a, b]) => [b, a])) };
    for (const direction of ['up', 'down'] as const) {
      const cases = [...maps[direction]].map(([a, b]) => ts`    case ${str(a)}: return ${str(b)};\n`);
      this.#functions.push(ts`function ${names[direction]}(v: unknown): unknown {
  switch (v) {
${cases}    default: return v;
  }
}
`);
    }
    return names;
  }

  #typeFunction(typeName: string, name: Code, rule: TypeRule, direction: Direction): void {
    if (rule.enum !== undefined) {
      const e = this.#enum(rule.enum)[direction];
      this.#functions.push(ts`function ${name}(v: unknown): unknown {
  return ${e}(v);
}
`);
      return;
    }
    if (rule.cases !== undefined) {
      this.#union(name, rule.by, rule.cases, direction);
      return;
    }
    if (rule.list !== undefined) {
      const item = this.type(rule.list.items)[direction];
      const at = rule.list.at;
      this.#functions.push(
        direction === 'up'
          ? ts`function ${name}(v: unknown): unknown {
  return Array.isArray(v) ? { [${str(at)}]: v.map(${item}) } : v;
}
`
          : ts`function ${name}(v: unknown): unknown {
  const items = isObject(v) ? v[${str(at)}] : undefined;
  return Array.isArray(items) ? items.map(${item}) : v;
}
`,
      );
      return;
    }
    this.#object(name, rule.fields ?? {}, direction, this.#shape(typeName, rule, direction));
  }

  /** The schema's shape of what a type's function takes: the `from` type going up, the type its rule makes going down. */
  #shape(name: string, rule: TypeRule, direction: Direction): Shape | undefined {
    return direction === 'up' ? this.#shapes?.from(name) : this.#shapes?.to(rule.to ?? name);
  }

  /** A union: told apart by its tag (`by`) or by which properties are present, each member by its own function. */
  #union(
    name: Code,
    by: string | undefined,
    cases: Readonly<Record<string, CaseRule>>,
    direction: Direction,
  ): void {
    const members = Object.entries(cases).map(([value, c]) => {
      let inner: Code;
      if (c.type !== undefined) inner = this.type(c.type)[direction];
      else {
        // A member with its fields inline is an object type of its own, with the tag as a constant when there is one.
        const own: Record<string, FieldRule> = by === undefined ? {} : { [by]: { const: value } };
        inner = this.#fresh(`${direction}${String(name).slice(direction.length)}_${value}`);
        this.#object(inner, { ...own, ...(c.fields ?? {}) }, direction, undefined);
      }
      return { value, wrap: c.wrap, when: c.when ?? [], has: c.has ?? [], inner };
    });
    const wrapped = (m: (typeof members)[number], value: Code) =>
      m.wrap === undefined ? value : ts`{ [${str(m.wrap)}]: ${value} }`;
    const anyOf = (keys: readonly string[]) =>
      joinCode(
        keys.map((k) => ts`Object.hasOwn(v, ${str(k)})`),
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
            if (by === undefined) return ts`  if (${test}) return ${m.inner}(${given});\n`;
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
    this.#functions.push(ts`function ${name}(v: unknown): unknown {
  if (!isObject(v)) return v;
${body}  return v;
}
`);
  }

  /** The value at `path` of object `of` (a variable known to be an object), own properties only. */
  #get(of: Code, path: readonly string[]): Code {
    const [first, ...rest] = path;
    if (first === undefined) return of;
    if (rest.length === 0)
      return ts`(Object.hasOwn(${of}, ${str(first)}) ? ${of}[${str(first)}] : undefined)`;
    return ts`getPath(${of}, ${this.#path(path)})`;
  }

  /** The statement that writes `value` at `path` of `out`. */
  #set(out: Code, path: readonly string[], value: Code): Code {
    const [first, ...rest] = path;
    if (first === undefined) throw new Error('a translation rule with an empty path');
    if (rest.length > 0) return ts`setPath(${out}, ${this.#path(path)}, ${value});`;
    return first === '__proto__'
      ? ts`define(${out}, ${str(first)}, ${value});`
      : ts`${out}[${str(first)}] = ${value};`;
  }

  /** A field's value translated by its rule (not its box): `x` is a variable. */
  #map(rule: FieldRule, direction: Direction, x: Code): Code {
    if (rule.enum !== undefined) return ts`${this.#enum(rule.enum)[direction]}(${x})`;
    if (rule.type !== undefined) return ts`${this.type(rule.type)[direction]}(${x})`;
    if (rule.items !== undefined)
      return ts`(Array.isArray(${x}) ? ${x}.map(${this.type(rule.items)[direction]}) : ${x})`;
    if (rule.values !== undefined)
      return ts`(isObject(${x}) ? mapValues(${x}, ${this.type(rule.values)[direction]}) : ${x})`;
    if (rule.negate) return ts`(typeof ${x} === 'boolean' ? !${x} : ${x})`;
    if (rule.one) return direction === 'up' ? ts`(Array.isArray(${x}) ? ${x}[0] : ${x})` : ts`[${x}]`;
    return x;
  }

  /**
   * The loop that copies every property of `v` no rule claims into `out`, in `v`'s order: a property claimed whole
   * is skipped, one a rule reaches into is copied without what the rule takes (an empty object stays, empty).
   */
  #copyRest(claimed: Claimed): Code {
    const whole = Object.keys(claimed).filter((k) => claimed[k] === true);
    const inner = Object.entries(claimed).flatMap(([k, c]) => (c === true ? [] : [[k, c] as const]));
    const cases = [
      ...(whole.length > 0
        ? [
            ts`      ${joinCode(
              whole.map((k) => ts`case ${str(k)}:`),
              ' ',
            )}\n        continue;\n`,
          ]
        : []),
      ...inner.map(([k, c]) => {
        const tree = this.#constant(c, ts`Claimed`);
        return ts`      case ${str(k)}: {
        const x = v[k];
        if (!isObject(x)) break;
        if (Object.keys(x).length === 0) ${this.#set(ts`out`, [k], ts`{}`)}
        else copyRest(x, ${tree}, out, [${str(k)}]);
        continue;
      }
`;
      }),
    ];
    const skip =
      cases.length === 0
        ? ts``
        : ts`    switch (k) {
${cases}    }
`;
    return ts`  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
${skip}    if (k === '__proto__') define(out, k, v[k]);
    else out[k] = v[k];
  }
`;
  }

  /**
   * An object type: a new object with the rules' fields translated, and every other property copied. With the shape
   * of what the function takes, the common case — a value holding only properties its schema declares, each its own —
   * is built as an object literal (fast path), and anything else by the general copy.
   */
  #object(
    name: Code,
    fields: Readonly<Record<string, FieldRule>>,
    direction: Direction,
    shape: Shape | undefined,
  ): void {
    const general = shape === undefined ? name : this.#fresh(`${String(name)}_any`);
    const fast = shape === undefined ? undefined : this.#fastObject(name, general, fields, direction, shape);
    if (fast !== undefined) this.#functions.push(fast);
    this.#generalObject(fast === undefined ? name : general, fields, direction);
  }

  /**
   * The fast path of an object type, or undefined when its rules need the general copy (a rule reaching below the
   * root, a box, a template, a default) or its shape has too many properties. The function checks, in one pass over
   * the keys, that every property is an own one the shape declares (else it hands the value to `general`), then
   * writes the answer the general copy would give: the constants, each property no rule claims as it is, each rule's
   * field translated, the derived ones. Keys come in the same order as the general copy's when the value's keys come
   * in the schema's order.
   */
  #fastObject(
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
        (r.rule.derive === undefined || direction === 'up' || r.path !== '__proto__'),
    );
    if (!simple) return undefined;
    const carried = rules.filter((r) => r.rule.const === undefined && r.rule.derive === undefined);
    // What each carried rule reads, and what the general copy leaves out (the same claims as `#generalObject`).
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
    // Keys read for their bit: every known one, but those only claimed (a constant's stale value, a derived field),
    // which the answer never copies.
    const cases = known.map((k) =>
      claimed.has(k) && !sources.has(k)
        ? ts`      case ${str(k)}: break;
`
        : ts`      case ${str(k)}: seen |= ${bitOf(k)}; break;
`,
    );
    const copied = shape.properties.filter((k) => !claimed.has(k));
    const required = new Set(shape.required);
    // The object literal: the constants going down, then the copied properties the schema requires, as long as no
    // optional one comes before them.
    const consts =
      direction === 'down'
        ? rules
            .filter((r) => r.rule.const !== undefined)
            .map((r) => ts`${prop(r.path)}: ${this.#value(r.rule.const)}`)
        : [];
    let lead = copied.findIndex((k) => !required.has(k) || k === '__proto__');
    if (lead === -1) lead = copied.length;
    const inLiteral = copied.slice(0, lead);
    const mask = inLiteral.reduce((m, k) => m + bitOf(k), 0);
    const literalKeys = [...consts, ...inLiteral.map((k) => ts`${prop(k)}: v[${str(k)}]`)];
    const body: Code[] = [];
    for (const k of copied.slice(lead))
      body.push(ts`  if ((seen & ${bitOf(k)}) !== 0) ${this.#set(ts`out`, [k], ts`v[${str(k)}]`)}
`);
    for (const r of carried) {
      const source = direction === 'up' ? r.path : r.to;
      const target = direction === 'up' ? r.to : r.path;
      // A property the pass saw is an own one; one it did not see may still be an own property that is not enumerable.
      body.push(ts`  {
    const value = (seen & ${bitOf(source)}) !== 0 || (${str(source)} in v && hop.call(v, ${str(source)})) ? v[${str(source)}] : undefined;
    if (value !== undefined) ${this.#set(ts`out`, [target], this.#map(r.rule, direction, ts`value`))}
  }
`);
    }
    if (direction === 'down')
      body.push(...this.#derived(rules.map((r) => ({ rule: r.rule, from: [r.path] }))));
    const start = literalKeys.length === 0 ? ts`{}` : ts`{ ${joinCode(literalKeys, ', ')} }`;
    return ts`function ${name}(v: unknown): unknown {
  if (!isObject(v)) return v;
  let seen = 0;
  for (const k in v) {
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

  /** The statements that write the derived fields (going down), from the translated object. */
  #derived(rules: ReadonlyArray<{ rule: FieldRule; from: readonly string[] }>): Code[] {
    return rules.flatMap((r) => {
      if (r.rule.derive === undefined) return [];
      const values = r.rule.derive.in;
      // Set membership of the table's values: a scalar by ===, an object (never the same one) by no value.
      const test = joinCode(
        values.filter(isScalar).map((x) => ts`source === ${literal(x)}`),
        ' || ',
      );
      return [
        ts`  {
    const source = ${this.#derivedSource(split(r.rule.derive.from))};
    if (source !== undefined) ${this.#set(ts`out`, r.from, test.empty ? ts`false` : ts`(${test})`)}
  }
`,
      ];
    });
  }

  /** The general copy of an object type: every property walked, rules applied where they claim one. */
  #generalObject(name: Code, fields: Readonly<Record<string, FieldRule>>, direction: Direction): void {
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
    const templates = new Map(
      named.map((r) => {
        const t = this.#fresh(`Template${this.#constants.length}`);
        this.#constants.push(ts`const ${t} = compilePathTemplate(${str(r.rule.template ?? '')});\n`);
        return [r, t] as const;
      }),
    );
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
      literalKeys = leading.map((r) => ts`${prop(r.from[0] ?? '')}: ${this.#value(r.rule.const)}`);
      rest = simple === -1 ? [] : consts.slice(simple);
      for (const r of rest) body.push(ts`  ${this.#set(ts`out`, r.from, this.#value(r.rule.const))}\n`);
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
    body.push(this.#copyRest(claimed));
    for (const r of carried) {
      const source = direction === 'up' ? r.from : r.to;
      const target = direction === 'up' ? r.to : r.from;
      const dflt = r.rule.default === undefined ? undefined : this.#value(r.rule.default);
      const got = this.#get(ts`v`, source);
      const read =
        dflt === undefined
          ? ts`    const value = ${got};\n`
          : ts`    const got = ${got};\n    const value = got === undefined ? ${dflt} : got;\n`;
      let write: Code;
      const { box } = r.rule;
      if (box && r.flag && direction === 'up') {
        // A boxed value is opened when its flag says it was boxed.
        const opened = ts`${this.#get(ts`v`, r.flag)} === true && isObject(value) && Object.hasOwn(value, ${str(box.key)}) ? value[${str(box.key)}] : value`;
        write =
          dflt === undefined
            ? ts`      ${this.#set(ts`out`, target, opened)}\n`
            : ts`      const up = ${opened};\n      if (up !== ${dflt}) ${this.#set(ts`out`, target, ts`up`)}\n`;
      } else if (box && r.flag) {
        write = ts`      if (isObject(value)) ${this.#set(ts`out`, target, ts`value`)}
      else {
        ${this.#set(ts`out`, target, ts`{ [${str(box.key)}]: value }`)}
        ${this.#set(ts`out`, r.flag, ts`true`)}
      }
`;
      } else {
        const mapped = this.#map(r.rule, direction, ts`value`);
        write =
          dflt === undefined
            ? ts`      ${this.#set(ts`out`, target, mapped)}\n`
            : ts`      const mapped = ${mapped};\n      if (mapped !== ${dflt}) ${this.#set(ts`out`, target, ts`mapped`)}\n`;
      }
      body.push(ts`  {
${read}    if (value !== undefined) {
${write}    }
  }
`);
    }
    for (const r of named) {
      const template = templateCode(r);
      body.push(
        direction === 'up'
          ? ts`  {
    const value = ${this.#get(ts`v`, r.from)};
    const found = typeof value === 'string' ? ${template}.match(value) : undefined;
    if (found) for (const [k, x] of Object.entries(found)) put(out, k, x);
    else if (value !== undefined) ${this.#set(ts`out`, r.from, ts`value`)}
  }
`
          : ts`  {
    const name = ${template}.fill(v);
    if (name !== undefined) ${this.#set(ts`out`, r.from, ts`name`)}
  }
`,
      );
    }
    if (direction === 'down') body.push(...this.#derived(derived));
    const start = literalKeys.length === 0 ? ts`{}` : ts`{ ${joinCode(literalKeys, ', ')} }`;
    this.#functions.push(ts`function ${name}(v: unknown): unknown {
  if (!isObject(v)) return v;
  const out: Obj = ${start};
${body}  return out;
}
`);
  }

  /** The value a derived field is computed from: at `path` of the translated object, read step by step. */
  #derivedSource(path: readonly string[]): Code {
    let code = ts`out`;
    for (const [i, k] of path.entries())
      code =
        i === 0
          ? ts`(Object.hasOwn(out, ${str(k)}) ? out[${str(k)}] : undefined)`
          : ts`at(${code}, ${str(k)})`;
    return code;
  }

  /** The module's constants and functions, in the order they were made. */
  code(): Code {
    return ts`${this.#constants}
${joinCode(this.#functions, '\n')}`;
  }
}

/** The helpers the emitted functions call: the same steps as the runtime's, each a plain function. */
const HELPERS = ts`/** A JSON object. */
type Obj = Record<string, unknown>;

/** A tree of the paths some rule reads or writes, which the copy of everything else leaves out. */
interface Claimed {
  readonly [key: string]: Claimed | true;
}

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const hop = Object.prototype.hasOwnProperty;

/** Sets an own property named \`__proto__\`: from JSON it is data, never the object's prototype. */
function define(o: Obj, k: string, value: unknown): void {
  Object.defineProperty(o, k, { value, enumerable: true, writable: true, configurable: true });
}

/** Sets an own property, whatever its name. */
function put(o: Obj, k: string, value: unknown): void {
  if (k === '__proto__') define(o, k, value);
  else o[k] = value;
}

/** The own property \`k\` of \`v\` when \`v\` is an object. */
function at(v: unknown, k: string): unknown {
  return isObject(v) && Object.hasOwn(v, k) ? v[k] : undefined;
}

/** The value at a path of own properties, or undefined. */
function getPath(v: unknown, path: readonly string[]): unknown {
  let here = v;
  for (const k of path) here = at(here, k);
  return here;
}

/** Writes a value at a path, copying each object on the way (it may be the input's, and input is never written). */
function setPath(out: Obj, path: readonly string[], value: unknown): void {
  let here = out;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i] ?? '';
    const next = here[k];
    const made: Obj = isObject(next) && Object.hasOwn(here, k) ? { ...next } : {};
    put(here, k, made);
    here = made;
  }
  put(here, path[path.length - 1] ?? '', value);
}

/** Copies every field of \`v\` no rule claims into \`out\`, at the same path (below the root). */
function copyRest(v: Obj, claimed: Claimed, out: Obj, path: readonly string[]): void {
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    const c = Object.hasOwn(claimed, k) ? claimed[k] : undefined;
    if (c === true) continue;
    const value = v[k];
    if (c === undefined || !isObject(value)) setPath(out, [...path, k], value);
    else if (Object.keys(value).length === 0) setPath(out, [...path, k], {});
    else copyRest(value, c, out, [...path, k]);
  }
}

/** An object's values, each through \`f\`. */
function mapValues(v: Obj, f: (x: unknown) => unknown): Obj {
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) put(out, k, f(x));
  return out;
}
`;

/**
 * The codecs of a table: the helpers, then a function per direction of each `from` type, and `CODECS`, each type's
 * pair by name. Returns the code and, per type, the names of its two functions.
 */
export function emitCodecs(
  table: TranslationTable,
  shapes?: Shapes,
): {
  code: Code;
  functions: ReadonlyMap<string, { up: Code; down: Code }>;
} {
  const emitter = new Emitter(table, shapes);
  const names = Object.keys(table.types).sort();
  const functions = new Map(names.map((name) => [name, emitter.type(name)] as const));
  const entries = names.map((name) => {
    const f = functions.get(name);
    if (!f) throw new Error(`no codec for ${name}`);
    return ts`  ${prop(name)}: { up: ${f.up}, down: ${f.down} },\n`;
  });
  return {
    code: ts`${HELPERS}
${emitter.code()}
/** Each type's pair of functions, by name. */
const CODECS: Readonly<Record<string, Codec>> = {
${entries}};
`,
    functions,
  };
}
