// Enums: an enum table's pair of functions, each a `switch` over the spellings it knows (anything else passed
// through), and a type whose rule is an enum table, a function that calls the table's.
import { type Code, str, ts } from '../../code.js';
import type { Emitter } from './emitter.js';
import type { Direction, Pair } from './support.js';

/** The functions of enum table `name` (emitted on first use). */
export function enumFunctions(cx: Emitter, name: string): Pair {
  const pairs = cx.table.enums[name];
  if (!pairs) throw new Error(`translation ${cx.table.from}→${cx.table.to}: no enum table ${name}`);
  return cx.pair(`enum ${name}`, { up: `enumUp${name}`, down: `enumDown${name}` }, (names) => {
    const entries = Object.entries(pairs);
    // As a Map built from the pairs reads them: a spelling that comes twice maps as its last pair says.
    const maps = { up: new Map(entries), down: new Map(entries.map(([a, b]) => [b, a])) };
    for (const direction of ['up', 'down'] as const) {
      const cases = [...maps[direction]].map(([a, b]) => ts`    case ${str(a)}: return ${str(b)};\n`);
      cx.define(ts`function ${names[direction]}(v: unknown): unknown {
  switch (v) {
${cases}    default: return v;
  }
}
`);
    }
  });
}

/** The function `name` of a type whose rule is the enum table `table`. */
export function emitEnumType(cx: Emitter, name: Code, table: string, direction: Direction): void {
  const e = enumFunctions(cx, table)[direction];
  cx.define(ts`function ${name}(v: unknown): unknown {
  return ${e}(v);
}
`);
}
