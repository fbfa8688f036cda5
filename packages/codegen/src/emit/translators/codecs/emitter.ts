// The state of one codec emission, shared by every construct: the table and the shapes, the names taken, the
// constants hoisted out of the functions (one per value however many rules use it; path templates compiled once, when
// the module loads) and the functions, each kept in the order it was made.
import type { TranslationTable, TypeRule } from '@agentproto/runtime/translate';
import { type Code, ident, isIdentifier, joinCode, literal, str, ts } from '../../code.js';
import { type Direction, isScalar, type Pair, type Shapes } from './support.js';

/** Emits the function `name` of `from` type `typeName` in one direction (the dispatch of index.ts). */
export type TypeFunction = (
  cx: Emitter,
  typeName: string,
  name: Code,
  rule: TypeRule,
  direction: Direction,
) => void;

/** The module-level code the codecs share: constants hoisted out of the functions, and the functions themselves. */
export class Emitter {
  readonly #constants: Code[] = [];
  /** The constants made so far, by type and JSON text: one constant however many rules use the value. */
  readonly #shared = new Map<string, Code>();
  readonly #functions: Code[] = [];
  readonly #names = new Set<string>();
  /** The pairs of functions made so far, by what they translate (`type <name>`, `enum <name>`). */
  readonly #pairs = new Map<string, Pair>();
  #count = 0;

  constructor(
    readonly table: TranslationTable,
    readonly shapes: Shapes | undefined,
    private readonly dispatch: TypeFunction,
  ) {}

  /** A fresh identifier for a function or constant: `base` when it is one and free, else numbered. */
  fresh(base: string): Code {
    let name = isIdentifier(base) ? base : `${base.replace(/[^A-Za-z0-9_$]/g, '_')}`;
    if (!isIdentifier(name)) name = `_${name}`;
    while (this.#names.has(name)) name = `${name}_${this.#count++}`;
    this.#names.add(name);
    return ident(name);
  }

  /** A constant of the module, with its value: JSON scalars as literals, anything else parsed from its JSON text. */
  constant(value: unknown, type: Code, shared = true): Code {
    // Paths and claim trees are only read, so rules share them; a rule's own value (a default compared by identity, a
    // constant written into answers) is its own object, as it is in the table.
    const id = `${String(type)} ${JSON.stringify(value)}`;
    const known = shared ? this.#shared.get(id) : undefined;
    if (known) return known;
    const name = this.fresh(`K${this.#constants.length}`);
    if (shared) this.#shared.set(id, name);
    // JSON.parse keeps `__proto__` an own property, where an object literal would set the prototype with it.
    const source = isScalar(value) ? literal(value) : ts`JSON.parse(${str(JSON.stringify(value))})`;
    this.#constants.push(ts`const ${name}: ${type} = ${source};\n`);
    return name;
  }

  /** A value where a rule holds it: a literal when a scalar, else a shared constant (the same object at every call). */
  value(value: unknown): Code {
    return isScalar(value) ? literal(value) : this.constant(value, ts`unknown`, false);
  }

  /** A path of more than one property, as a constant array. */
  path(path: readonly string[]): Code {
    return this.constant(path, ts`readonly string[]`);
  }

  /** A path template, compiled once when the module loads. */
  template(source: string): Code {
    const name = this.fresh(`Template${this.#constants.length}`);
    this.#constants.push(ts`const ${name} = compilePathTemplate(${str(source)});\n`);
    return name;
  }

  /** Adds a module function. */
  define(fn: Code): void {
    this.#functions.push(fn);
  }

  /**
   * The pair of functions `key` stands for, made on first use: the names are taken from `base` and kept before `emit`
   * writes the functions, so a rule may refer back to its own type.
   */
  pair(key: string, base: { up: string; down: string }, emit: (names: Pair) => void): Pair {
    const known = this.#pairs.get(key);
    if (known) return known;
    const names = { up: this.fresh(base.up), down: this.fresh(base.down) };
    this.#pairs.set(key, names);
    emit(names);
    return names;
  }

  /** The functions of `from` type `name` (emitted on first use, so rules may refer to each other in any order). */
  type(name: string): Pair {
    const rule = this.table.types[name];
    if (!rule) throw new Error(`translation ${this.table.from}→${this.table.to}: no rule for type ${name}`);
    return this.pair(`type ${name}`, { up: `up${name}`, down: `down${name}` }, (names) => {
      for (const direction of ['up', 'down'] as const)
        this.dispatch(this, name, names[direction], rule, direction);
    });
  }

  /** The module's constants and functions, in the order they were made. */
  code(): Code {
    return ts`${this.#constants}
${joinCode(this.#functions, '\n')}`;
  }
}
