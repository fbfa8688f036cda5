// What every construct of the codec emitter shares: the two directions, the names of a type's pair of functions, the
// shapes the fast paths are built on, and the small pieces that write a property key or test a value.
import { type Code, str, ts } from '../../code.js';

/** Which direction a function translates: `up` from the `from` version to the `to` one, `down` back. */
export type Direction = 'up' | 'down';

/** The names of the two functions of a type or an enum table, one per direction. */
export interface Pair {
  up: Code;
  down: Code;
}

/** What a type's values hold, as its schema declares: every property name a value may have, and those it must. */
export interface Shape {
  properties: readonly string[];
  required: readonly string[];
}

/** The shapes of each version's types, by name, when the schemas are at hand: the codecs' fast paths are built on them. */
export interface Shapes {
  from(type: string): Shape | undefined;
  to(type: string): Shape | undefined;
}

/** A rule's path (`a/b/c`) as its property names. */
export const split = (path: string): string[] => path.split('/');

/** A property key of an object literal; `__proto__` computed, so that it is a property and never the prototype. */
export const prop = (name: string): Code => (name === '__proto__' ? ts`[${str(name)}]` : str(name));

/** Whether a value is written as a literal in place (a JSON scalar) rather than as a shared constant. */
export const isScalar = (value: unknown): boolean => value === null || typeof value !== 'object';
