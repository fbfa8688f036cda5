// `format`: ajv-formats' own check, required from the package and called in the shape ajv calls it. A format applies
// to the type its definition names (strings, but numbers for int32, float, …).
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { type Code, str, ts } from '../../code.js';
import type { Compiler } from './compiler.js';
import { block, isObject, type Site, Unsupported } from './support.js';

// Read by whatever name a schema gives: the formats are a plain object keyed by format name.
const FORMATS: Readonly<Record<string, unknown>> = fullFormats;

/** The check of `format`, guarded by the type it applies to; none for a format that takes every string (`binary`). */
export function emitFormat(cx: Compiler, { schema, data: d, known }: Site): Code[] {
  if (schema.format === undefined) return [];
  const format = schema.format;
  if (typeof format !== 'string') throw new Unsupported('format that is not a string');
  const definition = FORMATS[format];
  if (definition === undefined) throw new Unsupported(`format ${format}`);
  if (definition === true) return [];
  const type = isObject(definition) && definition.type === 'number' ? 'number' : 'string';
  const name = cx.constant(
    'fastFormat',
    ts`require("ajv-formats/dist/formats").fullFormats[${str(format)}]`,
    format,
  );
  const test = formatTest(definition, name, d, format);
  return [block(known, type, ts`typeof ${d} == ${str(type)}`, [ts`if(!${test}) return false;`])];
}

function formatTest(definition: unknown, name: Code, d: Code, format: string): Code {
  if (definition instanceof RegExp) return ts`${name}.test(${d})`;
  if (typeof definition === 'function') return ts`${name}(${d})`;
  if (isObject(definition)) {
    if (definition.async) throw new Unsupported(`asynchronous format ${format}`);
    if (definition.validate instanceof RegExp) return ts`${name}.validate.test(${d})`;
    if (typeof definition.validate === 'function') return ts`${name}.validate(${d})`;
  }
  throw new Unsupported(`format ${format} of an unknown shape`);
}
