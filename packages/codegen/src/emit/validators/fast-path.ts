// Boolean fast paths: for each exported validator, a function that only answers "valid or not", with no error
// objects, no evaluated-property bookkeeping and the string-length count only when a length bound needs it. Valid
// messages are the common case; the generated validator tries its fast path first and runs ajv's error-reporting code
// only when the fast path says no. The verdict must be ajv's exactly (a test runs every example, counterexample and
// fuzz case through both), so this compiles the keywords it knows with ajv's semantics and leaves a type with any
// other keyword to ajv alone.
import { fullFormats } from 'ajv-formats/dist/formats.js';

/** Why a schema has no fast path: it uses a keyword (or a form of one) this compiler does not take. */
class Unsupported extends Error {}

/** What {@link emitFastPaths} returns. */
export interface FastPaths {
  /** JavaScript: module constants and one function per compiled schema. Uses `require` as ajv's output does. */
  code: string;
  /** Per export name, its fast-path function; exports without one are listed in `skipped`. */
  functions: Record<string, string>;
  /** Per export name without a fast path, the reason. */
  skipped: Record<string, string>;
}

type Schema = Record<string, unknown> | boolean;

// Keywords that say nothing about validity (annotations, and the places of subschemas reached through `$ref`).
const ANNOTATIONS = new Set([
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

// Keywords compiled below. Anything else in a schema leaves its export to ajv alone.
const KNOWN = new Set([
  '$ref',
  'type',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'required',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'minProperties',
  'maxProperties',
  'dependentRequired',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'allOf',
  'anyOf',
  'oneOf',
  'discriminator',
  'not',
  'if',
  'then',
  'else',
]);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Compiles the fast paths of `exports` (export name → schema `$id`) over `schemas` (every schema resource by `$id`,
 * as ajv was given them).
 */
export function emitFastPaths(
  schemas: ReadonlyMap<string, Record<string, unknown>>,
  exports: Readonly<Record<string, string>>,
): FastPaths {
  const compiler = new FastPathCompiler(schemas);
  const functions: Record<string, string> = {};
  const skipped: Record<string, string> = {};
  for (const [name, id] of Object.entries(exports)) {
    const attempt = compiler.attempt(id);
    if (typeof attempt === 'string') functions[name] = attempt;
    else skipped[name] = attempt.reason;
  }
  return { code: compiler.code(), functions, skipped };
}

class FastPathCompiler {
  /** Emitted functions, by name, in order. */
  private readonly bodies = new Map<string, string>();
  /** Module constants (regular expressions, formats, helpers). */
  private readonly constants: string[] = [];
  private readonly functionOf = new Map<object | boolean, string>();
  private readonly regexps = new Map<string, string>();
  private readonly formats = new Map<string, string>();
  private counter = 0;
  private helpers = new Set<string>();

  constructor(private readonly schemas: ReadonlyMap<string, Record<string, unknown>>) {}

  /** The fast path of the schema with this `$id`, or why there is none (nothing is kept of a failed attempt). */
  attempt(id: string): string | { reason: string } {
    const schema = this.schemas.get(id);
    if (!schema) return { reason: `no schema ${id}` };
    const bodies = new Map(this.bodies);
    const functionOf = new Map(this.functionOf);
    const constants = [...this.constants];
    const regexps = new Map(this.regexps);
    const formats = new Map(this.formats);
    const helpers = new Set(this.helpers);
    try {
      return this.functionFor(schema, id);
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
      // Roll back: functions half-made for this export must not be emitted.
      this.restore(bodies, functionOf, constants, regexps, formats, helpers);
      return { reason: error.message };
    }
  }

  private restore(
    bodies: Map<string, string>,
    functionOf: Map<object | boolean, string>,
    constants: string[],
    regexps: Map<string, string>,
    formats: Map<string, string>,
    helpers: Set<string>,
  ) {
    this.bodies.clear();
    for (const [k, v] of bodies) this.bodies.set(k, v);
    this.functionOf.clear();
    for (const [k, v] of functionOf) this.functionOf.set(k, v);
    this.constants.length = 0;
    this.constants.push(...constants);
    this.regexps.clear();
    for (const [k, v] of regexps) this.regexps.set(k, v);
    this.formats.clear();
    for (const [k, v] of formats) this.formats.set(k, v);
    this.helpers = helpers;
  }

  code(): string {
    const helpers: string[] = [];
    if (this.helpers.has('ucs2length'))
      helpers.push('const fastUcs2length = require("ajv/dist/runtime/ucs2length").default;');
    if (this.helpers.has('equal'))
      helpers.push('const fastEqual = require("ajv/dist/runtime/equal").default;');
    return [...helpers, ...this.constants, ...this.bodies.values()].join('\n');
  }

  /** The name of a function that checks `schema` (compiled once per schema object; recursion is a call). */
  private functionFor(schema: Schema, base: string): string {
    const known = this.functionOf.get(schema);
    if (known) return known;
    const name = `fast${this.counter++}`;
    this.functionOf.set(schema, name);
    const lines: string[] = [];
    this.checks(schema, base, 'data', lines);
    this.bodies.set(name, `function ${name}(data){\n${lines.join('\n')}\nreturn true;\n}`);
    return name;
  }

  private variable(): string {
    return `v${this.counter++}`;
  }

  /**
   * Statements that `return false` when the value in `d` breaks `schema`. `known` is the JSON type the statements
   * before these already made sure of, if any: its test is not repeated.
   */
  private checks(schema: Schema, baseIn: string, d: string, out: string[], knownIn?: string): void {
    if (schema === true) return;
    if (schema === false) {
      out.push('return false;');
      return;
    }
    const base = typeof schema.$id === 'string' ? new URL(schema.$id, baseIn).href : baseIn;
    for (const key of Object.keys(schema)) {
      if (ANNOTATIONS.has(key)) continue;
      if (!KNOWN.has(key)) throw new Unsupported(`keyword ${key}`);
    }
    const s = schema;
    if (typeof s.$ref === 'string') {
      const target = this.resolve(s.$ref, base);
      out.push(`if(!${this.functionFor(target.schema, target.base)}(${d})) return false;`);
    }
    let known = knownIn;
    if (s.type !== undefined) {
      const types = Array.isArray(s.type) ? s.type : [s.type];
      if (!(types.length === 1 && types[0] === known))
        out.push(`if(!(${types.map((t) => typeCheck(String(t), d)).join(' || ')})) return false;`);
      // An integer is a number, for the keywords that follow.
      if (types.length === 1) known = types[0] === 'integer' ? 'number' : String(types[0]);
    }
    if (s.const !== undefined || 'const' in s) out.push(`if(!(${this.equals(d, s.const)})) return false;`);
    if (Array.isArray(s.enum))
      out.push(`if(!(${s.enum.map((v) => this.equals(d, v)).join(' || ')})) return false;`);
    this.numberChecks(s, d, out, known);
    this.stringChecks(s, d, out, known);
    this.objectChecks(s, base, d, out, known);
    this.arrayChecks(s, base, d, out, known);
    this.applicators(s, base, d, out, known);
  }

  /** The schema a `$ref` names, and the base URI its own references resolve against. */
  private resolve(ref: string, base: string): { schema: Schema; base: string } {
    const url = new URL(ref, base);
    const fragment = decodeURIComponent(url.hash.slice(1));
    url.hash = '';
    let target: unknown = this.schemas.get(url.href);
    if (target === undefined) throw new Unsupported(`unresolved $ref ${ref}`);
    if (fragment !== '') {
      if (!fragment.startsWith('/')) throw new Unsupported(`$ref to an anchor ${ref}`);
      for (const token of fragment.slice(1).split('/')) {
        const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
        target =
          isObject(target) || Array.isArray(target) ? (target as Record<string, unknown>)[key] : undefined;
      }
      if (!isObject(target) && typeof target !== 'boolean') throw new Unsupported(`unresolved $ref ${ref}`);
    }
    return { schema: target as Schema, base: url.href };
  }

  /** A boolean expression: `d` passes `branch`; a lone `$ref` or `type` is tested in place, else through a function. */
  private passes(branch: Schema, base: string, d: string): string {
    if (isObject(branch)) {
      const keys = Object.keys(branch).filter((k) => !ANNOTATIONS.has(k));
      if (keys.length === 1 && typeof branch.$ref === 'string' && branch.$id === undefined) {
        const target = this.resolve(branch.$ref, base);
        return `${this.functionFor(target.schema, target.base)}(${d})`;
      }
      if (keys.length === 1 && typeof branch.type === 'string') return typeCheck(branch.type, d);
    }
    return `${this.functionFor(branch, base)}(${d})`;
  }

  /** A boolean expression: `d` equals `value` (ajv's deep equality for objects and arrays). */
  private equals(d: string, value: unknown): string {
    if (value === null || typeof value !== 'object') return `${d} === ${JSON.stringify(value)}`;
    this.helpers.add('equal');
    const name = `fastValue${this.counter++}`;
    this.constants.push(`const ${name} = ${JSON.stringify(value)};`);
    return `fastEqual(${d}, ${name})`;
  }

  private numberChecks(s: Record<string, unknown>, d: string, out: string[], known?: string): void {
    const bounds: string[] = [];
    // ajv's form: the bound fails when the comparison is false, so NaN fails too.
    const bound = (key: string, op: string) => {
      const limit = s[key];
      if (limit === undefined) return;
      if (typeof limit !== 'number') throw new Unsupported(`${key} that is not a number`);
      bounds.push(`!(${d} ${op} ${limit})`);
    };
    bound('minimum', '>=');
    bound('maximum', '<=');
    bound('exclusiveMinimum', '>');
    bound('exclusiveMaximum', '<');
    if (bounds.length > 0)
      out.push(
        `if(${guard(known, 'number', `typeof ${d} == "number"`)}(${bounds.join(' || ')})) return false;`,
      );
  }

  private stringChecks(s: Record<string, unknown>, d: string, out: string[], known?: string): void {
    const inner: string[] = [];
    if (s.minLength !== undefined) {
      const n = integer(s.minLength, 'minLength');
      // The length in code points is at most `.length` and at least half of it: count only in between.
      if (n > 0) {
        this.helpers.add('ucs2length');
        inner.push(
          `if(${d}.length < ${n} || (${d}.length < ${2 * n} && fastUcs2length(${d}) < ${n})) return false;`,
        );
      }
    }
    if (s.maxLength !== undefined) {
      const n = integer(s.maxLength, 'maxLength');
      this.helpers.add('ucs2length');
      inner.push(`if(${d}.length > ${n} && fastUcs2length(${d}) > ${n}) return false;`);
    }
    if (s.pattern !== undefined) {
      if (typeof s.pattern !== 'string') throw new Unsupported('pattern that is not a string');
      inner.push(`if(!${this.regexp(s.pattern)}.test(${d})) return false;`);
    }
    if (inner.length > 0) out.push(block(known, 'string', `typeof ${d} == "string"`, inner));
    if (s.format !== undefined) {
      // A format applies to the type its definition names (ajv-formats: strings, but numbers for int32, float, …).
      const format = this.format(s.format);
      if (format !== undefined) {
        const check = `if(!${format.test.replace('$D', d)}) return false;`;
        out.push(
          format.type === 'number'
            ? block(known, 'number', `typeof ${d} == "number"`, [check])
            : block(known, 'string', `typeof ${d} == "string"`, [check]),
        );
      }
    }
  }

  /** A module constant holding the pattern, compiled as ajv compiles it (with the `u` flag). */
  private regexp(pattern: string): string {
    let name = this.regexps.get(pattern);
    if (!name) {
      name = `fastPattern${this.counter++}`;
      this.regexps.set(pattern, name);
      this.constants.push(`const ${name} = new RegExp(${JSON.stringify(pattern)}, "u");`);
    }
    return name;
  }

  /**
   * A boolean expression over `$D` that runs ajv-formats' check of `format`, in the shape ajv calls it; undefined
   * for a format that takes every string (`binary`).
   */
  private format(format: unknown): { test: string; type: 'string' | 'number' } | undefined {
    if (typeof format !== 'string') throw new Unsupported('format that is not a string');
    const definition = (fullFormats as Record<string, unknown>)[format];
    if (definition === undefined) throw new Unsupported(`format ${format}`);
    if (definition === true) return undefined;
    const type = isObject(definition) && definition.type === 'number' ? 'number' : 'string';
    let name = this.formats.get(format);
    if (!name) {
      name = `fastFormat${this.counter++}`;
      this.formats.set(format, name);
      this.constants.push(
        `const ${name} = require("ajv-formats/dist/formats").fullFormats[${JSON.stringify(format)}];`,
      );
    }
    if (definition instanceof RegExp) return { test: `${name}.test($D)`, type };
    if (typeof definition === 'function') return { test: `${name}($D)`, type };
    if (isObject(definition)) {
      if (definition.async) throw new Unsupported(`asynchronous format ${format}`);
      if (definition.validate instanceof RegExp) return { test: `${name}.validate.test($D)`, type };
      if (typeof definition.validate === 'function') return { test: `${name}.validate($D)`, type };
    }
    throw new Unsupported(`format ${format} of an unknown shape`);
  }

  private objectChecks(
    s: Record<string, unknown>,
    base: string,
    d: string,
    out: string[],
    known?: string,
  ): void {
    const inner: string[] = [];
    if (s.required !== undefined && !Array.isArray(s.required))
      throw new Unsupported('required that is not a list');
    const required = new Set((s.required as unknown[] | undefined)?.map(String));
    const properties = s.properties;
    if (properties !== undefined && !isObject(properties))
      throw new Unsupported('properties that is not an object');
    // A required property with a schema is read once: missing, or checked.
    const checked = new Set(
      Object.entries(properties ?? {})
        .filter(([key, sub]) => required.has(key) && sub !== true)
        .map(([key]) => key),
    );
    for (const key of required)
      if (!checked.has(key)) inner.push(`if(${d}[${JSON.stringify(key)}] === undefined) return false;`);
    if (s.dependentRequired !== undefined) {
      if (!isObject(s.dependentRequired)) throw new Unsupported('dependentRequired that is not an object');
      for (const [key, needs] of Object.entries(s.dependentRequired)) {
        if (!Array.isArray(needs)) throw new Unsupported('dependentRequired entry that is not a list');
        const missing = needs.map((n) => `${d}[${JSON.stringify(String(n))}] === undefined`).join(' || ');
        if (missing)
          inner.push(`if(${d}[${JSON.stringify(key)}] !== undefined && (${missing})) return false;`);
      }
    }
    if (s.minProperties !== undefined)
      inner.push(`if(Object.keys(${d}).length < ${integer(s.minProperties, 'minProperties')}) return false;`);
    if (s.maxProperties !== undefined)
      inner.push(`if(Object.keys(${d}).length > ${integer(s.maxProperties, 'maxProperties')}) return false;`);
    if (properties !== undefined) {
      for (const [key, sub] of Object.entries(properties)) {
        if (sub === true) continue;
        const v = this.variable();
        const checks: string[] = [];
        this.checks(sub as Schema, base, v, checks);
        const read = `const ${v} = ${d}[${JSON.stringify(key)}];`;
        if (checked.has(key))
          inner.push(`{${read}\nif(${v} === undefined) return false;\n${checks.join('\n')}\n}`);
        else if (checks.length > 0) inner.push(`{${read}\nif(${v} !== undefined){\n${checks.join('\n')}\n}}`);
      }
    }
    const patterns = s.patternProperties;
    if (patterns !== undefined) {
      if (!isObject(patterns)) throw new Unsupported('patternProperties that is not an object');
      const entries = Object.entries(patterns).filter(([, sub]) => sub !== true);
      if (entries.length > 0) {
        const k = this.variable();
        const lines = entries.map(([pattern, sub]) => {
          const checks: string[] = [];
          this.checks(sub as Schema, base, `${d}[${k}]`, checks);
          return `if(${this.regexp(pattern)}.test(${k})){\n${checks.join('\n')}\n}`;
        });
        inner.push(`for(const ${k} in ${d}){\n${lines.join('\n')}\n}`);
      }
    }
    if (s.additionalProperties !== undefined && s.additionalProperties !== true) {
      const declared = {
        names: Object.keys(isObject(properties) ? properties : {}),
        patterns: Object.keys(isObject(patterns) ? patterns : {}),
        all: false,
      };
      inner.push(this.leftOver(declared, s.additionalProperties as Schema, base, d));
    }
    if (s.unevaluatedProperties !== undefined && s.unevaluatedProperties !== true) {
      const evaluated = this.evaluated(s, base, new Set(), true);
      if (!evaluated.all) inner.push(this.leftOver(evaluated, s.unevaluatedProperties as Schema, base, d));
    }
    if (inner.length > 0) out.push(block(known, 'object', typeCheck('object', d), inner));
  }

  /** A loop over the keys of `d` outside `known`, each checked against `rest` (false: none may be there). */
  private leftOver(known: Evaluated, rest: Schema, base: string, d: string): string {
    const k = this.variable();
    const conditions = [
      ...known.names.map((n) => `${k} === ${JSON.stringify(n)}`),
      ...known.patterns.map((p) => `${this.regexp(p)}.test(${k})`),
    ];
    const checks: string[] = [];
    this.checks(rest, base, `${d}[${k}]`, checks);
    if (checks.length === 0) return '';
    const test =
      conditions.length > 0
        ? `if(!(${conditions.join(' || ')})){\n${checks.join('\n')}\n}`
        : checks.join('\n');
    return `for(const ${k} in ${d}){\n${test}\n}`;
  }

  /**
   * The properties `schema` evaluates on an object it accepts, known without looking at the object: its own
   * `properties` and `patternProperties`, everything under `additionalProperties` or `unevaluatedProperties`, and
   * those of its `allOf` branches and `$ref` targets. Branches that apply only sometimes (anyOf, oneOf, if) must
   * evaluate nothing, else the set depends on the object and this compiler leaves the schema to ajv.
   */
  private evaluated(schema: Schema, base: string, seen: Set<object>, top = false): Evaluated {
    const none: Evaluated = { names: [], patterns: [], all: false };
    if (typeof schema === 'boolean' || seen.has(schema)) return none;
    seen.add(schema);
    const here = typeof schema.$id === 'string' ? new URL(schema.$id, base).href : base;
    const result: Evaluated = {
      names: Object.keys(isObject(schema.properties) ? schema.properties : {}),
      patterns: Object.keys(isObject(schema.patternProperties) ? schema.patternProperties : {}),
      // The schema's own unevaluatedProperties is what asks; in a subschema, it has evaluated every property.
      all: schema.additionalProperties !== undefined || (!top && schema.unevaluatedProperties !== undefined),
    };
    const merge = (other: Evaluated) => {
      result.names.push(...other.names);
      result.patterns.push(...other.patterns);
      result.all ||= other.all;
    };
    if (typeof schema.$ref === 'string') {
      const target = this.resolve(schema.$ref, here);
      merge(this.evaluated(target.schema, target.base, seen));
    }
    if (Array.isArray(schema.allOf))
      for (const b of schema.allOf) merge(this.evaluated(b as Schema, here, seen));
    for (const key of ['anyOf', 'oneOf', 'if', 'then', 'else', 'dependentSchemas'] as const) {
      const branches =
        key === 'anyOf' || key === 'oneOf' ? schema[key] : schema[key] === undefined ? [] : [schema[key]];
      for (const b of (branches as Schema[] | undefined) ?? []) {
        const e = this.evaluated(b, here, new Set(seen));
        if (e.all || e.names.length > 0 || e.patterns.length > 0)
          throw new Unsupported(`unevaluatedProperties over a ${key} whose branches evaluate properties`);
      }
    }
    return result;
  }

  private arrayChecks(
    s: Record<string, unknown>,
    base: string,
    d: string,
    out: string[],
    known?: string,
  ): void {
    const inner: string[] = [];
    if (s.minItems !== undefined)
      inner.push(`if(${d}.length < ${integer(s.minItems, 'minItems')}) return false;`);
    if (s.maxItems !== undefined)
      inner.push(`if(${d}.length > ${integer(s.maxItems, 'maxItems')}) return false;`);
    let first = 0;
    if (s.prefixItems !== undefined) {
      if (!Array.isArray(s.prefixItems)) throw new Unsupported('prefixItems that is not a list');
      s.prefixItems.forEach((sub, i) => {
        const checks: string[] = [];
        this.checks(sub as Schema, base, `${d}[${i}]`, checks);
        if (checks.length > 0) inner.push(`if(${d}.length > ${i}){\n${checks.join('\n')}\n}`);
      });
      first = s.prefixItems.length;
    }
    if (s.items !== undefined && s.items !== true) {
      if (Array.isArray(s.items)) throw new Unsupported('items as a list');
      const i = this.variable();
      const checks: string[] = [];
      this.checks(s.items as Schema, base, `${d}[${i}]`, checks);
      if (checks.length > 0)
        inner.push(`for(let ${i} = ${first}; ${i} < ${d}.length; ${i}++){\n${checks.join('\n')}\n}`);
    }
    if (inner.length > 0) out.push(block(known, 'array', `Array.isArray(${d})`, inner));
  }

  private applicators(
    s: Record<string, unknown>,
    base: string,
    d: string,
    out: string[],
    known?: string,
  ): void {
    const list = (key: string): Schema[] => {
      const v = s[key];
      if (v === undefined) return [];
      if (!Array.isArray(v) || v.length === 0) throw new Unsupported(`${key} that is not a non-empty list`);
      return v as Schema[];
    };
    for (const branch of list('allOf')) this.checks(branch, base, d, out, known);
    const anyOf = list('anyOf');
    if (anyOf.length > 0)
      // The verdict does not depend on the order: branches that are a lone type test go first, as they are cheapest.
      out.push(
        `if(!(${[...anyOf]
          .sort((a, b) => Number(!typeOnly(a)) - Number(!typeOnly(b)))
          .map((b) => this.passes(b, base, d))
          .join(' || ')})) return false;`,
      );
    const oneOf = list('oneOf');
    if (s.discriminator !== undefined) this.discriminated(s, oneOf, base, d, out, known);
    else if (oneOf.length > 0)
      out.push(
        `if((${oneOf.map((b) => `(${this.passes(b, base, d)} ? 1 : 0)`).join(' + ')}) !== 1) return false;`,
      );
    if (s.not !== undefined) out.push(`if(${this.passes(s.not as Schema, base, d)}) return false;`);
    // As in ajv, `if` without `then` or `else` decides nothing.
    if (s.if !== undefined && (s.then !== undefined || s.else !== undefined)) {
      const test = this.passes(s.if as Schema, base, d);
      const then = s.then === undefined ? 'true' : this.passes(s.then as Schema, base, d);
      const otherwise = s.else === undefined ? 'true' : this.passes(s.else as Schema, base, d);
      out.push(`if(!(${test} ? ${then} : ${otherwise})) return false;`);
    }
  }

  /**
   * ajv's `discriminator` (which replaces `oneOf` when present): on an object, the tag must be a string naming a
   * branch by the `const` or `enum` of the branch's tag property, and that branch alone decides.
   */
  private discriminated(
    s: Record<string, unknown>,
    oneOf: Schema[],
    base: string,
    d: string,
    out: string[],
    known?: string,
  ): void {
    const discriminator = s.discriminator;
    if (!isObject(discriminator) || typeof discriminator.propertyName !== 'string' || oneOf.length === 0)
      throw new Unsupported('discriminator without propertyName and oneOf');
    const tagName = discriminator.propertyName;
    const cases: string[] = [];
    const tags = new Set<string>();
    for (const branch of oneOf) {
      let target = branch;
      if (isObject(branch) && typeof branch.$ref === 'string')
        target = this.resolve(branch.$ref, base).schema;
      const property =
        isObject(target) && isObject(target.properties) ? target.properties[tagName] : undefined;
      if (!isObject(property)) throw new Unsupported('discriminator branch without its tag property');
      const values =
        property.const !== undefined ? [property.const] : Array.isArray(property.enum) ? property.enum : [];
      if (values.length === 0) throw new Unsupported('discriminator tag without const or enum');
      const test = this.passes(branch, base, 'data');
      for (const value of values) {
        if (typeof value !== 'string' || tags.has(value))
          throw new Unsupported('discriminator tags that are not unique strings');
        tags.add(value);
        cases.push(`if(t === ${JSON.stringify(value)}) return ${test};`);
      }
    }
    const check = `fast${this.counter++}`;
    this.bodies.set(
      check,
      `function ${check}(data){\nconst t = data[${JSON.stringify(tagName)}];\nif(typeof t !== "string") return false;\n${cases.join('\n')}\nreturn false;\n}`,
    );
    out.push(`if(${guard(known, 'object', typeCheck('object', d))}!${check}(${d})) return false;`);
  }
}

interface Evaluated {
  names: string[];
  patterns: string[];
  all: boolean;
}

/** The condition for keywords of one JSON type, with `&&` after it; nothing when that type is already known. */
function guard(known: string | undefined, type: string, test: string): string {
  return known === type ? '' : `${test} && `;
}

/** Statements that run only for values of one JSON type; unwrapped when that type is already known. */
function block(known: string | undefined, type: string, test: string, inner: string[]): string {
  return known === type ? inner.join('\n') : `if(${test}){\n${inner.join('\n')}\n}`;
}

/** A branch that is a lone `type` test (annotations aside). */
function typeOnly(branch: Schema): boolean {
  return (
    isObject(branch) &&
    typeof branch.type === 'string' &&
    Object.keys(branch).every((k) => k === 'type' || ANNOTATIONS.has(k))
  );
}

function integer(value: unknown, keyword: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new Unsupported(`${keyword} that is not a non-negative integer`);
  return value;
}

/** ajv's test for a JSON type. */
function typeCheck(type: string, d: string): string {
  switch (type) {
    case 'object':
      return `(${d} && typeof ${d} == "object" && !Array.isArray(${d}))`;
    case 'array':
      return `Array.isArray(${d})`;
    case 'string':
      return `typeof ${d} == "string"`;
    // Number.isFinite and Number.isInteger are false for anything but a number, as ajv's tests are.
    case 'number':
      return `Number.isFinite(${d})`;
    case 'integer':
      return `Number.isInteger(${d})`;
    case 'boolean':
      return `typeof ${d} == "boolean"`;
    case 'null':
      return `${d} === null`;
    default:
      throw new Unsupported(`type ${type}`);
  }
}
