// What the walk hands each keyword handler: one pair of schema nodes, how to record a change of them, and how to walk
// a pair of their subschemas. Its own file so that the handlers depend on this shape and not on the walk itself.
import type { Breaks } from '../diff-types.js';
import type { Location, Mutation } from './found-change.js';

/** Records a change at the current place; pointers default to the pair's own, keywords to the rule's. */
export type Add = (
  rule: string,
  message: string,
  expect: Breaks,
  mutations: Mutation[],
  pointers?: { o?: string; n?: string },
  keywords?: string[],
) => void;

/** One pair of schema nodes under comparison: where they are, and how a change is recorded. */
export interface Here {
  o: Record<string, unknown>;
  n: Record<string, unknown>;
  po: string;
  pn: string;
  at: Location;
  add: Add;
  /**
   * Walks a pair of subschemas: one step into the message (a property, an item) when `token` is given, else the same
   * place (a union's branch, an `allOf` member), whose schemas are `place` (the branches themselves, by default).
   */
  deeper(
    x: unknown,
    y: unknown,
    po: string,
    pn: string,
    token?: string,
    place?: { old: unknown; new: unknown },
  ): void;
}

/** Compares one group of keywords of a pair of schema nodes. */
export type KeywordHandler = (here: Here) => void;
