// Boolean fast paths: for each exported validator, a function that only answers "valid or not", with no error
// objects, no evaluated-property bookkeeping and the string-length count only when a length bound needs it. Valid
// messages are the common case; the generated validator tries its fast path first and runs ajv's error-reporting code
// only when the fast path says no. The verdict must be ajv's exactly (a test runs every example, counterexample and
// fuzz case through both), so this compiles the keywords it knows with ajv's semantics and leaves a type with any
// other keyword to ajv alone. One module per construct; this one dispatches a schema's keywords to them.
import type { Code } from '../../code.js';
import { emitArray } from './array.js';
import { emitCombinators } from './combinators.js';
import { Compiler } from './compiler.js';
import { emitEnumConst } from './enum-const.js';
import { emitFormat } from './format.js';
import { emitNumber } from './number.js';
import { emitObject } from './object.js';
import { emitRef } from './ref.js';
import { emitString } from './string.js';
import { ANNOTATIONS, type Site, Unsupported } from './support.js';
import { emitType } from './type.js';

/** What {@link emitFastPaths} returns. */
export interface FastPaths {
  /** JavaScript: module constants and one function per compiled schema. Uses `require` as ajv's output does. */
  code: Code;
  /** Per export name, the name of its fast-path function; exports without one are listed in `skipped`. */
  functions: Record<string, Code>;
  /** Per export name without a fast path, the reason. */
  skipped: Record<string, string>;
}

// Keywords compiled by the constructs. Anything else in a schema leaves its export to ajv alone.
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

/**
 * Compiles the fast paths of `exports` (export name → schema `$id`) over `schemas` (every schema resource by `$id`,
 * as ajv was given them).
 */
export function emitFastPaths(
  schemas: ReadonlyMap<string, Record<string, unknown>>,
  exports: Readonly<Record<string, string>>,
): FastPaths {
  const compiler = new Compiler(schemas, checks);
  const functions: Record<string, Code> = {};
  const skipped: Record<string, string> = {};
  for (const [name, id] of Object.entries(exports)) {
    const attempt = compiler.attempt(id);
    if ('reason' in attempt) skipped[name] = attempt.reason;
    else functions[name] = attempt;
  }
  return { code: compiler.code(), functions, skipped };
}

/**
 * Statements that `return false` when the value breaks the schema at `site`, each construct's in turn; the type a
 * `type` keyword makes sure of is known to the constructs after it.
 */
function checks(cx: Compiler, site: Site): Code[] {
  for (const keyword of Object.keys(site.schema)) {
    if (ANNOTATIONS.has(keyword)) continue;
    if (!KNOWN.has(keyword)) throw new Unsupported(`keyword ${keyword}`);
  }
  const ref = emitRef(cx, site);
  const type = emitType(site);
  const typed: Site = { ...site, known: type.known };
  return [
    ...ref,
    ...type.checks,
    ...emitEnumConst(cx, site),
    ...emitNumber(typed),
    ...emitString(cx, typed),
    ...emitFormat(cx, typed),
    ...emitObject(cx, typed),
    ...emitArray(cx, typed),
    ...emitCombinators(cx, typed),
  ];
}
