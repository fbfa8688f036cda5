// What the schema walk hands on: a change as found (rule, pointers, whom it breaks), where in a message it sits, and
// the mutations that turn a message into its witness. Its own file because the witness search reads the same shapes
// and must not depend on the walk that produces them.
import type { Breaks, Change } from '../diff-types.js';
import type { RefResolver } from '../sample.js';

/** One step into a message: a property name or array index, with the schema of that place on both sides. */
export interface Step {
  token: string;
  old: unknown;
  new: unknown;
}

/** Where in a message a change sits: the steps from the message's root, and the schemas of that place. */
export interface Location {
  steps: Step[];
  old: unknown;
  new: unknown;
}

/** What a witness-building mutation may use: each side's resolver (for samples) and examples (by type name). */
export interface MutationTools {
  resolve: Record<'old' | 'new', RefResolver>;
  examples: Record<'old' | 'new', (typeName: string) => unknown[]>;
}

/** Marks a value to delete. */
export const REMOVE: unique symbol = Symbol('remove');

/** How to turn a message that both sides accept into one that only `accept` does: a new value for the change's place. */
export interface Mutation {
  accept: 'old' | 'new';
  apply(node: unknown, tools: MutationTools): unknown;
  /** Other values to try at the change's place (the examples of a type a reference names). */
  alternatives?(tools: MutationTools): unknown[];
  /** The key the mutation adds or removes in the object at the change's place: the rejection must name it. */
  key?: string;
}

/** A change as the walk finds it, before witnesses are searched for. */
export interface FoundChange {
  rule: string;
  area: Change['area'];
  subject: string;
  message: string;
  oldPointer?: string;
  newPointer?: string;
  /** The type whose file `oldPointer` is in, when not the subject's own document (a reference followed). */
  oldIn?: string;
  /** The type whose file `newPointer` is in, when not the subject's own document. */
  newIn?: string;
  expect: Breaks;
  location?: Location;
  mutations: Mutation[];
  /** The validator error keywords that count as this change's rejection (any, when absent). */
  keywords?: string[];
}

/** A key no schema names: where a witness puts a value to test `additionalProperties`. */
export const WITNESS_KEY = 'agentprotoWitness';
