// Emits a translation table's codecs as straight-line code: for each `from` type one function per direction, with
// every rule of the table written out as the statements it stands for (a constant is a key of the object literal the
// value starts as, an enum table a `switch`, a nested type a direct call, a union a chain of tests on its tag or on
// which member is present). What the codecs do is exactly what @agentproto/runtime/translate's `compileTranslation`
// does with the same table — the same values, keys in the same order — without walking the table at each call:
// test/translate/a2a-codecs.test.ts holds the two side by side. One module per construct; this one dispatches a
// type's rule to them and writes the module around their functions.
import type { TranslationTable, TypeRule } from '@agentproto/runtime/translate';
import { type Code, ts } from '../../code.js';
import { emitList } from './array.js';
import { Emitter } from './emitter.js';
import { emitEnumType } from './enum.js';
import { HELPERS } from './helpers.js';
import { emitObject } from './object.js';
import { type Direction, type Pair, prop, type Shape, type Shapes } from './support.js';
import { emitUnion } from './union.js';

export type { Shape, Shapes } from './support.js';

/**
 * The codecs of a table: the helpers, then a function per direction of each `from` type, and `CODECS`, each type's
 * pair by name. Returns the code and, per type, the names of its two functions.
 */
export function emitCodecs(
  table: TranslationTable,
  shapes?: Shapes,
): {
  code: Code;
  functions: ReadonlyMap<string, Pair>;
} {
  const cx = new Emitter(table, shapes, typeFunction);
  const names = Object.keys(table.types).sort();
  const functions = new Map(names.map((name) => [name, cx.type(name)] as const));
  const entries = names.map((name) => {
    const f = functions.get(name);
    if (!f) throw new Error(`no codec for ${name}`);
    return ts`  ${prop(name)}: { up: ${f.up}, down: ${f.down} },\n`;
  });
  return {
    code: ts`${HELPERS}
${cx.code()}
/** Each type's pair of functions, by name. */
const CODECS: Readonly<Record<string, Codec>> = {
${entries}};
`,
    functions,
  };
}

/** The function `name` of type `typeName` in one direction, by the construct its rule is. */
function typeFunction(cx: Emitter, typeName: string, name: Code, rule: TypeRule, direction: Direction): void {
  if (rule.enum !== undefined) emitEnumType(cx, name, rule.enum, direction);
  else if (rule.cases !== undefined) emitUnion(cx, name, rule.by, rule.cases, direction);
  else if (rule.list !== undefined) emitList(cx, name, rule.list, direction);
  else emitObject(cx, name, rule.fields ?? {}, direction, shape(cx, typeName, rule, direction));
}

/** The schema's shape of what a type's function takes: the `from` type going up, the type its rule makes going down. */
function shape(cx: Emitter, name: string, rule: TypeRule, direction: Direction): Shape | undefined {
  return direction === 'up' ? cx.shapes?.from(name) : cx.shapes?.to(rule.to ?? name);
}
