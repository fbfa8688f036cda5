// Arrays and maps: a type that is an array one way and an object holding it under one key the other (`list`), and a
// field whose array items (`items`) or object values (`values`) each go through their type's function.
import type { TypeRule } from '@agentproto/runtime/translate';
import { type Code, str, ts } from '../../code.js';
import type { Emitter } from './emitter.js';
import type { Direction } from './support.js';

/** The function `name` of a `list` type: up, the array under its key; down, the array taken out again. */
export function emitList(
  cx: Emitter,
  name: Code,
  list: NonNullable<TypeRule['list']>,
  direction: Direction,
): void {
  const item = cx.type(list.items)[direction];
  const at = list.at;
  cx.define(
    direction === 'up'
      ? ts`function ${name}(v: unknown): unknown {
  return Array.isArray(v) ? { [${str(at)}]: v.map(${item}) } : v;
}
`
      : ts`function ${name}(v: unknown): unknown {
  const items = isObject(v) ? v[${str(at)}] : undefined;
  return Array.isArray(items) ? items.map(${item}) : v;
}
`,
  );
}

/** Variable `x`'s items, each through type `type`'s function, when it is an array. */
export function mappedItems(cx: Emitter, type: string, direction: Direction, x: Code): Code {
  return ts`(Array.isArray(${x}) ? ${x}.map(${cx.type(type)[direction]}) : ${x})`;
}

/** Variable `x`'s values, each through type `type`'s function, when it is an object. */
export function mappedValues(cx: Emitter, type: string, direction: Direction, x: Code): Code {
  return ts`(isObject(${x}) ? mapValues(${x}, ${cx.type(type)[direction]}) : ${x})`;
}
