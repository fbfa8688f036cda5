// The one ajv configuration every stage uses (JSON Schema 2020-12, strict, formats, OpenAPI discriminators), and the
// schema rewrite ajv needs for discriminator mappings.
import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: its types put the plugin under `.default`, and so does the module itself (the plugin is
// `module.exports` and its own `.default`), whichever of the two an ESM import hands us.
const addFormats = addFormatsModule.default;

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
