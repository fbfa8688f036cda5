// Derived fields, written going down only: a boolean that says whether the value at another path of the translated
// object is one of the table's values.
import type { FieldRule } from '@agentproto/runtime/translate';
import { type Code, joinCode, literal, str, ts } from '../../code.js';
import type { Emitter } from './emitter.js';
import { writePath } from './paths.js';
import { isScalar, split } from './support.js';

/** The statements that write the derived fields (going down), from the translated object. */
export function emitDerived(
  cx: Emitter,
  rules: ReadonlyArray<{ rule: FieldRule; from: readonly string[] }>,
  /** Locals that hold what the answer has at some root property (undefined when it has none), by its name. */
  held: ReadonlyMap<string, Code> = new Map(),
): Code[] {
  return rules.flatMap((r) => {
    if (r.rule.derive === undefined) return [];
    const values = r.rule.derive.in;
    // Set membership of the table's values: a scalar by ===, an object (never the same one) by no value.
    const test = joinCode(
      values.filter(isScalar).map((x) => ts`source === ${literal(x)}`),
      ' || ',
    );
    return [
      ts`  {
    const source = ${derivedSource(split(r.rule.derive.from), held)};
    if (source !== undefined) ${writePath(cx, ts`out`, r.from, test.empty ? ts`false` : ts`(${test})`)}
  }
`,
    ];
  });
}

/**
 * The value a derived field is computed from: at `path` of the translated object, read step by step (its first step
 * from the local that holds it, when there is one).
 */
function derivedSource(path: readonly string[], held: ReadonlyMap<string, Code>): Code {
  let code = ts`out`;
  for (const [i, k] of path.entries())
    code =
      i > 0
        ? ts`at(${code}, ${str(k)})`
        : (held.get(k) ?? ts`(Object.hasOwn(out, ${str(k)}) ? out[${str(k)}] : undefined)`);
  return code;
}
