// ajv's 2020-12 mode compiles every validator to keep two records at run time whether the schemas need them or not:
// the properties and items each schema evaluated (read only by `unevaluatedProperties` and `unevaluatedItems`), and
// the dynamic scope (read only by `$dynamicRef`). On the error path they cost an object per union branch and a
// context object per call, and they stop `anyOf` at its first valid branch. A protocol version whose schemas use
// neither keyword family compiles without them: the same verdicts and the same errors, as nothing reads the records.
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { isRecord } from '../../util/json.js';

// The keywords that read the evaluated properties and items.
const UNEVALUATED = new Set(['unevaluatedProperties', 'unevaluatedItems']);
// The keywords that read or write the dynamic scope.
const DYNAMIC = new Set(['$dynamicRef', '$dynamicAnchor', '$recursiveRef', '$recursiveAnchor']);

/** Whether any object in `value`, at any depth, has a key in `keys` (a property so named counts too: it errs safe). */
export function usesKeyword(value: unknown, keys: ReadonlySet<string>): boolean {
  if (Array.isArray(value)) return value.some((v) => usesKeyword(v, keys));
  if (!isRecord(value)) return false;
  for (const [k, v] of Object.entries(value)) if (keys.has(k) || usesKeyword(v, keys)) return true;
  return false;
}

/**
 * Turns off ajv's evaluated-property tracking and dynamic scope for the validators `ajv` compiles next, each when no
 * schema in `schemas` uses the keywords that read it. Call it after every schema is added (ajv compiles the 2020-12
 * meta-schema, which uses `$dynamicRef`, while adding them) and before the validators are compiled.
 */
export function dropUnusedTracking(ajv: Ajv2020, schemas: Iterable<unknown>): void {
  const all = [...schemas];
  // ajv reads both options when it compiles a schema, never at run time.
  if (!all.some((s) => usesKeyword(s, UNEVALUATED))) ajv.opts.unevaluated = false;
  if (!all.some((s) => usesKeyword(s, DYNAMIC))) ajv.opts.dynamicRef = false;
}
