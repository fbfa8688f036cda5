// The one ajv configuration every stage uses (JSON Schema 2020-12, strict, formats, OpenAPI discriminators), and the
// schema rewrite ajv needs for discriminator mappings.
import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; its default export arrives under `.default` when imported from ESM.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/**
 * Creates the Ajv instance every stage uses: JSON Schema 2020-12, strict, with the standard formats. OpenAPI's
 * `discriminator` is honoured, so a union reports the errors of the branch its tag names instead of every branch.
 */
export function createAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, discriminator: true, ...options });
  addFormats(ajv);
  return ajv;
}

/**
 * A copy of a schema that ajv can compile: ajv honours `discriminator` but refuses its `mapping`, and infers the same
 * mapping from the `const` of each branch's tag (the lint checks that both agree).
 */
export function forAjv<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(forAjv) as T;
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'discriminator' && typeof v === 'object' && v !== null) {
      const { mapping: _mapping, ...rest } = v as Record<string, unknown>;
      out[k] = rest;
    } else out[k] = forAjv(v);
  }
  return out as T;
}
