import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; its default export arrives under `.default` when imported from ESM.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** Creates the Ajv instance every stage uses: JSON Schema 2020-12, strict, with the standard formats. */
export function createAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, ...options });
  addFormats(ajv);
  return ajv;
}
