// The state of one fast-path compilation: the functions and module constants emitted so far, shared by every export
// (a schema reached from two exports is compiled once), and rolled back when an export turns out to be unsupported.
import { type Code, ident, joinCode, str, ts } from '../../code.js';
import { resolve } from './ref.js';
import { ANNOTATIONS, isObject, lines, type Schema, type Site, Unsupported } from './support.js';
import { typeCheck } from './type.js';

/** The statements that `return false` when the value at a site breaks its schema (the dispatch of index.ts). */
export type Checks = (cx: Compiler, site: Site) => Code[];

/** The prefixes of emitted names; each name takes the next number of one counter, so names never collide. */
type Prefix = 'fast' | 'v' | 'fastPattern' | 'fastFormat' | 'fastValue';

/** ajv's runtime helpers a fast path may need, required once at the top. */
const HELPERS = {
  ucs2length: ts`const fastUcs2length = require("ajv/dist/runtime/ucs2length").default;`,
  equal: ts`const fastEqual = require("ajv/dist/runtime/equal").default;`,
};

interface State {
  /** Emitted functions, by name, in order. */
  bodies: Map<string, Code>;
  /** Module constants (regular expressions, formats, values), in order. */
  constants: Code[];
  /** The function compiled for each schema. */
  functionOf: Map<Schema, Code>;
  /** Constants made once per key (a pattern, a format). */
  shared: Map<string, Code>;
  helpers: Set<keyof typeof HELPERS>;
}

const copy = (s: State): State => ({
  bodies: new Map(s.bodies),
  constants: [...s.constants],
  functionOf: new Map(s.functionOf),
  shared: new Map(s.shared),
  helpers: new Set(s.helpers),
});

/** Compiles schemas to boolean functions; the constructs call back into it for subschemas and shared constants. */
export class Compiler {
  #state: State = {
    bodies: new Map(),
    constants: [],
    functionOf: new Map(),
    shared: new Map(),
    helpers: new Set(),
  };
  // Not rolled back: a failed attempt's numbers stay used, which keeps later names as they were.
  #counter = 0;

  constructor(
    private readonly schemas: ReadonlyMap<string, Record<string, unknown>>,
    private readonly dispatch: Checks,
  ) {}

  /** The fast path of the schema with this `$id`, or why there is none (nothing is kept of a failed attempt). */
  attempt(id: string): Code | { reason: string } {
    const schema = this.schemas.get(id);
    if (!schema) return { reason: `no schema ${id}` };
    const before = copy(this.#state);
    try {
      return this.functionFor(schema, id);
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
      // Roll back: functions half-made for this export must not be emitted.
      this.#state = before;
      return { reason: error.message };
    }
  }

  /** The module: helpers, constants, then every function. */
  code(): Code {
    const { helpers, constants, bodies } = this.#state;
    const required = (['ucs2length', 'equal'] as const).filter((h) => helpers.has(h)).map((h) => HELPERS[h]);
    return joinCode([...required, ...constants, ...bodies.values()], '\n');
  }

  /** The statements checking the value `data` against `schema` (see {@link Site}). */
  checks(schema: Schema, base: string, data: Code, known?: string): Code[] {
    if (schema === true) return [];
    if (schema === false) return [ts`return false;`];
    const here = typeof schema.$id === 'string' ? new URL(schema.$id, base).href : base;
    return this.dispatch(this, { schema, base: here, data, known });
  }

  /** The name of a function that checks `schema` (compiled once per schema object; recursion is a call). */
  functionFor(schema: Schema, base: string): Code {
    const known = this.#state.functionOf.get(schema);
    if (known) return known;
    const name = this.name('fast');
    this.#state.functionOf.set(schema, name);
    const body = this.checks(schema, base, ts`data`);
    this.define(name, ts`function ${name}(data){\n${lines(body)}\nreturn true;\n}`);
    return name;
  }

  /** Adds a module function. */
  define(name: Code, fn: Code): void {
    this.#state.bodies.set(name.toString(), fn);
  }

  /** A fresh name: `prefix` and the next number. */
  name(prefix: Prefix): Code {
    return ident(`${prefix}${this.#counter++}`);
  }

  /** A fresh local variable. */
  variable(): Code {
    return this.name('v');
  }

  /**
   * A module constant, `const <name> = <value>;`, named with `prefix`; with `key`, one per key (later calls return
   * the first name).
   */
  constant(prefix: Prefix, value: Code, key?: string): Code {
    const shared = key === undefined ? undefined : `${prefix} ${key}`;
    const existing = shared === undefined ? undefined : this.#state.shared.get(shared);
    if (existing) return existing;
    const name = this.name(prefix);
    if (shared !== undefined) this.#state.shared.set(shared, name);
    this.#state.constants.push(ts`const ${name} = ${value};`);
    return name;
  }

  /** A module constant holding the pattern, compiled as ajv compiles it (with the `u` flag). */
  regexp(pattern: string): Code {
    return this.constant('fastPattern', ts`new RegExp(${str(pattern)}, "u")`, pattern);
  }

  /** Marks one of ajv's runtime helpers as needed. */
  helper(name: keyof typeof HELPERS): void {
    this.#state.helpers.add(name);
  }

  /** The schema a `$ref` names, and the base URI its own references resolve against. */
  resolve(ref: string, base: string): { schema: Schema; base: string } {
    return resolve(this.schemas, ref, base);
  }

  /** A boolean expression: `d` passes `branch`; a lone `$ref` or `type` is tested in place, else through a function. */
  passes(branch: Schema, base: string, d: Code): Code {
    if (isObject(branch)) {
      const keys = Object.keys(branch).filter((k) => !ANNOTATIONS.has(k));
      if (keys.length === 1 && typeof branch.$ref === 'string' && branch.$id === undefined) {
        const target = this.resolve(branch.$ref, base);
        return ts`${this.functionFor(target.schema, target.base)}(${d})`;
      }
      if (keys.length === 1 && typeof branch.type === 'string') return typeCheck(branch.type, d);
    }
    return ts`${this.functionFor(branch, base)}(${d})`;
  }
}
