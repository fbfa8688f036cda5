/**
 * The one way emitters build the TypeScript we write ourselves (after ajv's `lib/compile/codegen/code.ts`). A piece
 * of source is a `Code`; the `ts` tagged template pastes only `Code` (and numbers and booleans) into the text, so a
 * raw string from a schema — a status `2XX`, a name with a quote — cannot reach the output unquoted: interpolating a
 * `string` is a type error. Strings become source only through `str` (a literal), `ident` (a checked identifier),
 * `key` (a property key), `doc` (a comment), `literal` (any JSON value) or `verbatim` (text another code generator
 * produced: ajv's standalone validators, openapi-typescript's types).
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Only this module holds it, so only this module can make Code from a string. */
const MINT: unique symbol = Symbol('code');

/** A piece of emitted TypeScript. Build it with `ts` and the helpers below; never from a bare string. */
export class Code {
  readonly #text: string;
  constructor(text: string, mint: typeof MINT) {
    if (mint !== MINT) throw new Error('Code is made by the helpers of emit/code.ts');
    this.#text = text;
  }
  toString(): string {
    return this.#text;
  }
  /** Whether the piece is empty (nothing to emit). */
  get empty(): boolean {
    return this.#text === '';
  }
}

const make = (text: string): Code => new Code(text, MINT);

/** What `ts` pastes into source: code, and values whose source form is their decimal or keyword spelling. */
export type Interpolation = Code | number | boolean | readonly Code[];

/**
 * Tagged template for emitted source: `ts\`export const ${ident(name)} = ${str(value)};\``. An array of Code is
 * pasted piece after piece (join it with `joinCode` for separators).
 */
export function ts(strings: TemplateStringsArray, ...values: Interpolation[]): Code {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw new Error(`${v} cannot be written as a number literal`);
      out += String(v);
    } else if (typeof v === 'boolean') out += String(v);
    else if (Array.isArray(v)) out += v.map(String).join('');
    else if (v instanceof Code) out += v.toString();
    else throw new Error(`refusing to paste ${typeof v} into emitted code`);
    out += strings[i + 1] ?? '';
  });
  return make(out);
}

/** Code pieces with a separator between them. */
export function joinCode(parts: readonly Code[], separator: string): Code {
  return make(parts.map(String).join(separator));
}

/** A string literal. */
export function str(value: string): Code {
  return make(JSON.stringify(value));
}

/**
 * Any JSON value as a literal (objects and arrays as JSON, which TypeScript reads as object and array literals);
 * `indent` spreads it over lines, for data a reader diffs.
 */
export function literal(value: unknown, indent?: number): Code {
  const text = JSON.stringify(value, null, indent);
  if (text === undefined) throw new Error('refusing to write undefined as a literal');
  return make(text);
}

/** A checked identifier: throws when a schema-provided name is not one. */
export function ident(name: string): Code {
  if (!IDENTIFIER.test(name)) throw new Error(`"${name}" cannot be used as an identifier in generated code`);
  return make(name);
}

/** Whether a name can be written as a bare identifier. */
export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

/** A property key: bare when it is an identifier, quoted otherwise. */
export function key(name: string): Code {
  return IDENTIFIER.test(name) ? make(name) : str(name);
}

/** A TSDoc comment of one or more lines, with comment terminators defused. */
export function doc(text: string, indent = ''): Code {
  const lines = text.replaceAll('*/', '*\\/').split('\n');
  if (lines.length === 1) return make(`${indent}/** ${lines[0]} */\n`);
  return make(`${indent}/**\n${lines.map((l) => `${indent} * ${l}`.trimEnd()).join('\n')}\n${indent} */\n`);
}

/** A `//` comment line, with line breaks folded so the comment cannot end early. */
export function comment(text: string): Code {
  return make(`// ${text.replace(/[\r\n\u2028\u2029]+/g, ' ')}\n`);
}

/**
 * Source produced by another code generator we depend on (ajv's `standaloneCode`, openapi-typescript), pasted as it
 * is. Never for text that came from a schema directly.
 */
export function verbatim(generatedSource: string): Code {
  return make(generatedSource);
}

/** `createAgentTask` → `CreateAgentTask`. */
export function upperFirst(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
