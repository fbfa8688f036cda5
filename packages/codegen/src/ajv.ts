// The one ajv configuration every stage uses (JSON Schema 2020-12, strict, formats, OpenAPI discriminators), and the
// schema rewrite ajv needs for discriminator mappings.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: its types put the plugin under `.default`, and so does the module itself (the plugin is
// `module.exports` and its own `.default`), whichever of the two an ESM import hands us.
const addFormats = addFormatsModule.default;
// The same for ajv's standalone code: its function is the module and the module's `.default`.
const standaloneCode = standaloneModule.default;

/**
 * Creates the Ajv instance every stage uses: JSON Schema 2020-12, strict, with the standard formats. OpenAPI's
 * `discriminator` is honoured, so a union reports the errors of the branch its tag names instead of every branch.
 */
export function createAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, discriminator: true, ...options });
  addFormats(ajv);
  return ajv;
}

let shared: Ajv2020 | undefined;

/**
 * The process's one Ajv instance with createAjv's defaults, for the generator's own schemas (manifests, requirements,
 * translations) and for checking any schema against the 2020-12 meta-schema (`validateSchema`, which adds nothing to
 * the instance). Every instance compiles the meta-schema on its first check, a tenth of a second or more, and each
 * version's run made several: one instance compiles it once. A protocol's schemas never go in, as two versions' files
 * would meet by `$id`; each version has an instance of its own.
 */
export function sharedAjv(): Ajv2020 {
  shared ??= createAjv();
  return shared;
}

/** The options of a kept validator (compileKept): plain values, as they are part of its key. */
export type KeptOptions = Pick<Options, 'strict' | 'validateFormats' | 'validateSchema'>;

/** Where kept validators live: below the codegen package's node_modules, never committed. */
const KEPT_DIR = fileURLToPath(new URL('../node_modules/.cache/agentproto-validators/', import.meta.url));

const requireHere = createRequire(import.meta.url);

let keptVersions: string | undefined;

/**
 * A validator of a schema the generator brings rather than reads (the shape of its manifests, the published OpenAPI
 * 3.1 and OpenRPC meta-schemas), made as createAjv with `options` makes it. The large ones take a good share of a run
 * that renders one version, and never change between runs: ajv's standalone code of each is kept on disk under the
 * hash of what it is made from (ajv's and ajv-formats' versions, the options, the schema), and a later run evaluates
 * that code instead of compiling again. It is the code ajv's `compile` runs, so the validator and its errors are the
 * same. Code that cannot be kept or read back (a read-only install) is no failure: the schema is compiled as before.
 * `dir`: where the code is kept (tests give a folder of their own).
 */
export function compileKept<T = unknown>(
  schema: object,
  options: KeptOptions = {},
  dir: string = KEPT_DIR,
): ValidateFunction<T> {
  keptVersions ??= ['ajv', 'ajv-formats']
    .map((name) => `${name}@${String(requireHere(`${name}/package.json`).version)}`)
    .join(' ');
  const key = createHash('sha256')
    .update(JSON.stringify([keptVersions, options, schema]))
    .digest('hex');
  const file = path.join(dir, `${key}.cjs`);
  try {
    return evaluateKept<T>(readFileSync(file, 'utf8'));
  } catch {
    // Not kept yet, or not readable: compiled below.
  }
  const ajv = createAjv({ ...options, code: { source: true } });
  const validate = ajv.compile<T>(schema);
  try {
    mkdirSync(dir, { recursive: true });
    // Written whole, then renamed: a run reading it meanwhile never sees half of it.
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, standaloneCode(ajv, validate));
    renameSync(temporary, file);
  } catch {
    // Kept next time, or never: this run has its validator either way.
  }
  return validate;
}

/** The validator a kept file's code (ajv's standalone CommonJS module) exports. */
function evaluateKept<T>(code: string): ValidateFunction<T> {
  const module: { exports: unknown } = { exports: undefined };
  // The generator's own cache, made by ajv from schemas the generator brings: what ajv's compile itself evaluates.
  new Function('module', 'exports', 'require', code)(module, {}, requireHere);
  if (typeof module.exports !== 'function') throw new Error('a kept validator exports no function');
  // sound: ajv's standalone module of one schema exports the function its compile returned (no caller reads the
  // `schema` and `schemaEnv` properties only the compiled one has).
  return module.exports as ValidateFunction<T>;
}

/** What a diagnostic says of a schema that ajv cannot compile (validateVersion's check, or the validators emitter's). */
export function notCompiled(error: unknown): string {
  return `does not compile: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * A copy of a schema that ajv can compile: ajv honours `discriminator` but refuses its `mapping`, and infers the same
 * mapping from the `const` of each branch's tag (the lint checks that both agree).
 */
export function forAjv<T>(schema: T): T {
  // sound: the copy is the same JSON value but for `discriminator.mapping`, which no schema type requires.
  if (Array.isArray(schema)) return schema.map(forAjv) as T;
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'discriminator' && typeof v === 'object' && v !== null)
      out[k] = Object.fromEntries(Object.entries(v).filter(([key]) => key !== 'mapping'));
    else out[k] = forAjv(v);
  }
  // sound: as above.
  return out as T;
}
