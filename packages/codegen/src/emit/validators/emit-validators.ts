// The validators emitter: ajv standalone code (ESM, no `new Function` at run time) for every public type, every inline
// body schema and every operation's parameters, after schema rewrites that make the code faster and stay exact.
import standaloneCode from 'ajv/dist/standalone/index.js';
import { createAjv, forAjv, notCompiled } from '../../ajv.js';
import type { PieceMemo } from '../../cache/piece-memo.js';
import { type Diagnostic, DiagnosticsError } from '../../diagnostics.js';
import { SCHEMA_ID_BASE } from '../../load/load-protocols.js';
import type {
  ContentModel,
  OperationModel,
  ParameterModel,
  ProtocolModel,
  RpcMethodModel,
} from '../../model/protocol-model.js';
import { paramsObjectSchema } from '../../model/rpc.js';
import { isRecord } from '../../util/json.js';
import { type Code, comment, ident, joinCode, str, ts, verbatim } from '../code.js';
import { emitFastPaths, type FastPaths } from './fast-path/index.js';
import { pickBranches } from './pick-branch.js';
import { boundLengthCounts } from './string-length.js';
import { dropUnusedTracking } from './unused-tracking.js';
import { withoutAnnotations } from './without-annotations.js';

// ajv's standalone module is CommonJS: its types put the function under `.default`, and so does the module itself
// (the function is `module.exports` and its own `.default`), whichever of the two an ESM import hands us.
const toStandalone = standaloneCode.default;

/** A validator the message module exports for a schema written inline in the OpenAPI document. */
export interface InlineValidator {
  exportName: string;
  schema: Record<string, unknown>;
}

/** Names the validator of one inline request or response schema. */
export function inlineValidatorName(op: OperationModel, where: string, index: number): string {
  return `${op.operationId}_${where}_${index}`;
}

/** The inline (non-type) JSON schemas of request bodies and responses, each with its validator's export name. */
export function inlineValidators(model: ProtocolModel): InlineValidator[] {
  const out: InlineValidator[] = [];
  const add = (op: OperationModel, where: string, contents: ContentModel[]) =>
    contents.forEach((c, i) => {
      if (c.kind === 'stream') {
        // A stream's `schema` describes the raw text; its items are what gets validated.
        if (c.item && !c.item.typeName)
          out.push({ exportName: inlineValidatorName(op, `${where}_item`, i), schema: c.item.schema });
      } else if (c.kind !== 'binary' && !c.typeName) {
        out.push({ exportName: inlineValidatorName(op, where, i), schema: c.schema });
      }
    });
  for (const op of model.operations) {
    if (op.requestBody) add(op, 'body', op.requestBody.contents);
    for (const r of op.responses) add(op, `response${r.status}`, r.contents);
  }
  return out;
}

/** Names the validator of a JSON-RPC method's params or (inline) result: `rpc_SendMessage_params`. */
export function rpcValidatorName(method: RpcMethodModel, what: 'params' | 'result'): string {
  const name = method.name.replace(/[^A-Za-z0-9_$]/g, '_');
  return `rpc_${name}_${what}`;
}

/** The validators of a JSON-RPC surface: each method's params (as an object by name) and each inline result. */
export function rpcValidators(model: ProtocolModel): InlineValidator[] {
  const out: InlineValidator[] = [];
  const seen = new Set<string>();
  for (const m of model.rpc?.methods ?? []) {
    const names = [
      rpcValidatorName(m, 'params'),
      ...(m.result.typeName ? [] : [rpcValidatorName(m, 'result')]),
    ];
    for (const n of names) {
      if (seen.has(n)) throw new Error(`two JSON-RPC methods fold to the validator name ${n}`);
      seen.add(n);
    }
    out.push({ exportName: rpcValidatorName(m, 'params'), schema: paramsObjectSchema(m) });
    if (!m.result.typeName) out.push({ exportName: rpcValidatorName(m, 'result'), schema: m.result.schema });
  }
  return out;
}

/**
 * Emits the message validators: one ajv standalone validator per public type (strict, formats), plus one per inline
 * body schema. ESM, no `new Function` at run time. Each reports every error: problem details, the CLI and the
 * conformance kit all show a message's every problem.
 */
export function emitMessageValidators(model: ProtocolModel): Code {
  return emitFrom(messageValidatorsInput(model));
}

/**
 * The message validators' text (emitMessageValidators), through `memo` when the run has a cache: the same input (the
 * schemas without their prose) gives the same text, so a version whose edit touched only its prose is not compiled
 * again.
 */
export function messageValidators(model: ProtocolModel, memo?: PieceMemo): string {
  const input = messageValidatorsInput(model);
  const make = () => String(emitFrom(input));
  return memo ? memo.recall('message-validators', input, make) : make();
}

/**
 * What the message validators are made of, and nothing else: each type's name, `$id`, file and schema, and each
 * inline validator, every schema without its prose annotations (without-annotations.ts). Plain data: its JSON is the
 * key under which the generator's cache keeps the validators (emit-version.ts).
 */
export interface MessageValidatorsInput {
  types: Array<{ name: string; id: string; file: string; schema: Record<string, unknown> }>;
  inline: InlineValidator[];
  /** The `$id` base of the inline validators' schemas. */
  base: string;
}

/** The message validators' input of a version (see MessageValidatorsInput). */
export function messageValidatorsInput(model: ProtocolModel): MessageValidatorsInput {
  return {
    types: model.types.map((t) => ({
      name: t.name,
      id: t.id,
      file: t.file,
      schema: withoutAnnotations(t.schema),
    })),
    inline: [...inlineValidators(model), ...rpcValidators(model)].map((v) => ({
      exportName: v.exportName,
      schema: withoutAnnotations(v.schema),
    })),
    base: baseOf(model),
  };
}

/** Makes the message validators of an input; reads nothing else. */
function emitFrom(input: MessageValidatorsInput): Code {
  const ajv = createAjv({ code: { source: true, esm: true, lines: true }, allErrors: true });
  const exports: Record<string, string> = {};
  const schemas = new Map<string, Record<string, unknown>>();
  // A union's error path picks the branch its members or tag name (pick-branch.ts); references between schema files
  // resolve against what was added here (a reference into a part of a file is not read, and so picks nothing).
  pickBranches(ajv, (ref, base) => schemas.get(new URL(ref, base).href));
  // Strings' lengths are counted in code points only where `.length` cannot settle the limit (string-length.ts).
  boundLengthCounts(ajv);
  const add = (schema: Record<string, unknown>) => {
    ajv.addSchema(schema);
    schemas.set(String(schema.$id), schema);
  };
  const files = new Map(input.types.map((t) => [`${t.name}.schema.json`, t.schema]));
  for (const t of input.types) {
    add(forSpeed(inlineAllOfRefs(forAjv(t.schema), files)));
    exports[t.name] = t.id;
  }
  for (const v of input.inline) {
    const id = `${input.base}/inline/${v.exportName}.json`;
    add(forSpeed(forAjv({ ...v.schema, $id: id })));
    exports[v.exportName] = id;
  }
  dropUnusedTracking(ajv, schemas.values());
  compileTypes(ajv, input);
  return toEsm(withFastPaths(toStandalone(ajv, exports), emitFastPaths(schemas, exports)));
}

/**
 * Compiles each of the version's types, as the standalone code then takes them (the same order, so the same code), and
 * reports each that does not compile, as validateVersion does: a version's render leaves this check to here
 * (render-version.ts), so that its schemas are compiled once.
 */
function compileTypes(ajv: ReturnType<typeof createAjv>, input: MessageValidatorsInput): void {
  const problems: Diagnostic[] = [];
  for (const t of input.types) {
    try {
      ajv.getSchema(t.id);
    } catch (error) {
      problems.push({ file: t.file, pointer: '', message: notCompiled(error) });
    }
  }
  if (problems.length > 0) throw new DiagnosticsError(problems);
}

/**
 * Puts the fast paths in front of ajv's validators: each export with one becomes a validator that answers from its
 * fast path when that says valid, and runs ajv's (every error, with its place) only when it says no. The validator
 * keeps ajv's shape (`errors` on itself) and carries both paths as `fast` and `full`. ajv's output is the only text
 * pasted as it is; what joins it to the fast paths is built here with `ts`.
 */
function withFastPaths(standalone: string, fast: FastPaths): Code {
  const pieces: Code[] = [];
  let exported = 0;
  let from = 0;
  for (const match of standalone.matchAll(/^export const (\w+) = (validate\d+);$/gm)) {
    exported++;
    const [line, name = '', full = ''] = match;
    const check = fast.functions[name];
    if (!check) continue;
    pieces.push(
      verbatim(standalone.slice(from, match.index)),
      ts`export const ${ident(name)} = fastFirst(${check}, ${ident(full)});`,
    );
    from = match.index + line.length;
  }
  pieces.push(verbatim(standalone.slice(from)));
  if (exported !== Object.keys(fast.functions).length + Object.keys(fast.skipped).length)
    throw new Error('ajv standalone exports are not in the form withFastPaths expects');
  // A reason may quote schema text (a keyword, a $ref): it goes through comment(), which keeps it on its line.
  const skipped = Object.entries(fast.skipped).map(([name, why]) =>
    comment(`${name}: no fast path (${why}).`),
  );
  // Each comment ends its line; with none, the blank line the file has always had there.
  return ts`${pieces}
${skipped.length > 0 ? skipped : ts`\n`}${FAST_FIRST}
${fast.code}
`;
}

// The wrapper every fast path goes through.
const FAST_FIRST = ts`function fastFirst(fast, full){
const validate = function(data, context){
if(fast(data)){
validate.errors = null;
return true;
}
const valid = full(data, context);
validate.errors = full.errors;
return valid;
};
validate.fast = fast;
validate.full = full;
return validate;
}`;

/**
 * Rewrites `allOf: [{$ref: "Base.schema.json"}]` (how our types extend a base type) to hold Base's keywords inline:
 * ajv then checks the whole chain in one function instead of a call per reference. Exact: Base's own references are
 * sibling file names, which resolve the same from here; a Base with local (`#…`) references or anchors is left alone.
 */
export function inlineAllOfRefs(
  schema: Record<string, unknown>,
  files: ReadonlyMap<string, Record<string, unknown>>,
  seen?: readonly string[],
): Record<string, unknown>;
// Any other JSON value: an array gives an array, a scalar itself.
export function inlineAllOfRefs(
  schema: unknown,
  files: ReadonlyMap<string, Record<string, unknown>>,
  seen?: readonly string[],
): unknown;
// The one body behind both signatures.
export function inlineAllOfRefs(
  schema: unknown,
  files: ReadonlyMap<string, Record<string, unknown>>,
  seen: readonly string[] = [],
): unknown {
  if (Array.isArray(schema)) return schema.map((x) => inlineAllOfRefs(x, files, seen));
  if (!isRecord(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k !== 'allOf' || !Array.isArray(v)) {
      out[k] = inlineAllOfRefs(v, files, seen);
      continue;
    }
    out[k] = v.map((branch: unknown) => {
      const ref = isRecord(branch) && Object.keys(branch).length === 1 ? branch.$ref : undefined;
      if (typeof ref !== 'string') return inlineAllOfRefs(branch, files, seen);
      const target = files.get(ref);
      const text = target ? JSON.stringify(target) : '';
      if (!target || seen.includes(ref) || /"\$ref":"#|"\$(dynamic)?[aA]nchor"/.test(text))
        return inlineAllOfRefs(branch, files, seen);
      const { $id: _i, $schema: _s, title: _t, description: _d, ...keywords } = forAjv(target);
      return inlineAllOfRefs(keywords, files, [...seen, ref]);
    });
  }
  return out;
}

// Keywords that apply to values of every type: a branch holding one cannot become part of a type list.
const ANY_TYPE_KEYWORDS = [
  'enum',
  'const',
  'not',
  'allOf',
  'anyOf',
  'oneOf',
  '$ref',
  '$dynamicRef',
  'if',
  'then',
  'else',
];

/**
 * Rewrites a schema into an equivalent one that compiles to faster code: `anyOf: [{type: T, …}, {type: "null"}]`, the
 * way nullable fields are written, becomes `type: [T, "null"]` with T's keywords beside it. Exact when T's other
 * keywords only constrain values of type T (formats, bounds, patterns, items, properties), which the check ensures;
 * errors then read "must be T or null", as describeErrors already says it for the anyOf.
 */
export function forSpeed(schema: Record<string, unknown>): Record<string, unknown>;
// Any other JSON value: an array gives an array, a scalar itself.
export function forSpeed(schema: unknown): unknown;
// The one body behind both signatures.
export function forSpeed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map((x) => forSpeed(x));
  if (!isRecord(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = forSpeed(v);
  const branches = out.anyOf;
  if (Array.isArray(branches) && branches.length === 2) {
    const [first, second]: unknown[] = branches;
    const isNull = isRecord(second) && Object.keys(second).length === 1 && second.type === 'null';
    const simple =
      isRecord(first) &&
      typeof first.type === 'string' &&
      first.type !== 'null' &&
      !ANY_TYPE_KEYWORDS.some((k) => k in first);
    if (isNull && simple && !Object.keys(first).some((k) => k in out && k !== 'anyOf')) {
      const { anyOf: _, ...rest } = out;
      return { ...rest, ...first, type: [first.type, 'null'] };
    }
  }
  return out;
}

/** The name of the validator for an operation's path or query parameters. */
export function parameterValidatorName(op: OperationModel, where: 'path' | 'query'): string {
  return `${op.operationId}_${where}`;
}

/**
 * Emits the parameter validators: one per operation and location, over an object of the raw string values. They
 * coerce strings to the declared types and fill in defaults, as a server reading a URL must.
 */
export function emitParameterValidators(model: ProtocolModel): Code {
  return emitParametersFrom(parameterValidatorsInput(model));
}

/**
 * What the parameter validators are made of, and nothing else: each operation's parameters as one object schema, and
 * the types those reach through `$ref` (the others are never compiled into them), every schema without its prose.
 * Plain data: its JSON is the key under which the generator's cache keeps them.
 */
export interface ParameterValidatorsInput {
  types: Array<{ id: string; schema: Record<string, unknown> }>;
  parameters: Array<{ name: string; id: string; schema: Record<string, unknown> }>;
}

/** The parameter validators' input of a version (see ParameterValidatorsInput). */
export function parameterValidatorsInput(model: ProtocolModel): ParameterValidatorsInput {
  const parameters: ParameterValidatorsInput['parameters'] = [];
  for (const op of model.operations)
    for (const where of ['path', 'query'] as const) {
      const name = parameterValidatorName(op, where);
      parameters.push({
        name,
        id: `${baseOf(model)}/parameters/${name}.json`,
        schema: withoutAnnotations(parametersSchema(where === 'path' ? op.pathParams : op.queryParams)),
      });
    }
  const reached = reachedTypes(
    model.types,
    parameters.map((p) => ({ id: p.id, schema: p.schema })),
  );
  return {
    types: model.types
      .filter((t) => reached === undefined || reached.has(t.id))
      .map((t) => ({ id: t.id, schema: withoutAnnotations(t.schema) })),
    parameters,
  };
}

/**
 * The `$id`s of the types `roots` reach through `$ref`, each reference read against the `$id` of the schema it is in;
 * undefined when a reference names no type (then every type is kept).
 */
function reachedTypes(
  types: ProtocolModel['types'],
  roots: Array<{ id: string; schema: unknown }>,
): Set<string> | undefined {
  const byId = new Map(types.map((t) => [t.id, t.schema]));
  const reached = new Set<string>();
  const queue = [...roots];
  for (let next = queue.pop(); next; next = queue.pop()) {
    for (const ref of refsIn(next.schema)) {
      if (ref.startsWith('#')) continue;
      const url = new URL(ref, next.id);
      url.hash = '';
      const id = url.href;
      const schema = byId.get(id);
      if (schema === undefined) return undefined;
      if (reached.has(id)) continue;
      reached.add(id);
      queue.push({ id, schema });
    }
  }
  return reached;
}

/** Every `$ref` string anywhere in a JSON value. */
function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsIn(v, out);
  else if (isRecord(value))
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsIn(v, out);
    }
  return out;
}

/** The parameter validators' text (emitParameterValidators), through `memo` when the run has a cache. */
export function parameterValidators(model: ProtocolModel, memo?: PieceMemo): string {
  const input = parameterValidatorsInput(model);
  const make = () => String(emitParametersFrom(input));
  return memo ? memo.recall('parameter-validators', input, make) : make();
}

/** Makes the parameter validators of an input; reads nothing else. */
function emitParametersFrom(input: ParameterValidatorsInput): Code {
  const ajv = createAjv({
    code: { source: true, esm: true, lines: true },
    coerceTypes: true,
    useDefaults: true,
  });
  for (const t of input.types) ajv.addSchema(forSpeed(forAjv(t.schema)));
  const exports: Record<string, string> = {};
  for (const p of input.parameters) {
    ajv.addSchema({ $id: p.id, ...p.schema });
    exports[p.name] = p.id;
  }
  return toEsm(verbatim(toStandalone(ajv, exports)));
}

function parametersSchema(params: ParameterModel[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
    required: params.filter((p) => p.required).map((p) => p.name),
  };
}

function baseOf(model: ProtocolModel): string {
  return `${SCHEMA_ID_BASE}/${model.protocol}/${model.version}`;
}

/**
 * ajv's standalone output still loads its runtime helpers with `require` even in ESM mode (and the fast paths do as
 * it does). Each such line becomes a default import of the CommonJS module and a constant read from it.
 */
export function toEsm(source: Code): Code {
  const imports: Code[] = [];
  // Line by line, by position: `const <name> = require("<module>")<rest>;`.
  const lines = String(source)
    .split('\n')
    .map((line) => {
      const call = ' = require("';
      const at = line.indexOf(call);
      if (!line.startsWith('const ') || !line.endsWith(';') || at < 0) return verbatim(line);
      const name = line.slice('const '.length, at);
      const close = line.indexOf('")', at + call.length);
      if (!/^\w+$/.test(name) || close < 0) return verbatim(line);
      const mod = line.slice(at + call.length, close);
      // What follows the call (`.default`, `.fullFormats["date-time"]`) is the generator's own text, kept as it is.
      const rest = line.slice(close + 2, -1);
      const alias = ident(`runtime${imports.length}`);
      imports.push(ts`import ${alias} from ${str(`${mod}.js`)};`);
      // Node gives a CommonJS module's `module.exports` as the default import; bundlers that honour `__esModule`
      // give its `exports.default` instead. Reading `.default` must work under both.
      if (rest.startsWith('.default'))
        return ts`const ${ident(name)} = (${alias}.default ?? ${alias})${verbatim(rest.slice(8))};`;
      return ts`const ${ident(name)} = ${alias}${verbatim(rest)};`;
    });
  if (lines.some((line) => /\brequire\(/.test(String(line))))
    throw new Error('ajv standalone output still calls require(); toEsm must learn this form');
  // ajv's module opens with "use strict", which an ES module is already.
  if (String(lines[0]) === '"use strict";') lines.shift();
  return ts`${joinCode(imports, '\n')}\n${joinCode(lines, '\n')}`;
}
