// A field's value as its rule translates it: an enum's spelling, a nested type by its function, items or values each
// by theirs, a boolean negated, a lone value as a one-item array and back; any other value as it is.
import type { FieldRule } from '@agentproto/runtime/translate';
import { type Code, ts } from '../../code.js';
import { mappedItems, mappedValues } from './array.js';
import type { Emitter } from './emitter.js';
import { enumFunctions } from './enum.js';
import type { Direction } from './support.js';

/** A field's value translated by its rule (not its box): `x` is a variable. */
export function mapField(cx: Emitter, rule: FieldRule, direction: Direction, x: Code): Code {
  if (rule.enum !== undefined) return ts`${enumFunctions(cx, rule.enum)[direction]}(${x})`;
  if (rule.type !== undefined) return ts`${cx.type(rule.type)[direction]}(${x})`;
  if (rule.items !== undefined) return mappedItems(cx, rule.items, direction, x);
  if (rule.values !== undefined) return mappedValues(cx, rule.values, direction, x);
  if (rule.negate) return ts`(typeof ${x} === 'boolean' ? !${x} : ${x})`;
  if (rule.one) return direction === 'up' ? ts`(Array.isArray(${x}) ? ${x}[0] : ${x})` : ts`[${x}]`;
  return x;
}
