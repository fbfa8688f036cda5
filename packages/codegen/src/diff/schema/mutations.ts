// The mutations keyword handlers attach to a change: what value to put at the change's place so that one side
// accepts the message and the other rejects it. Its own file because several keyword families build the same ones.
import { isRecord } from '../../util/json.js';
import { sample } from '../sample.js';
import { type Mutation, type MutationTools, WITNESS_KEY } from './found-change.js';
import { equal } from './json-values.js';
import { refTypeName } from './ref-name.js';

// Values of every JSON type: for a constraint with no value of its own to try (a new `enum`, `not`, `pattern`), one of
// them often lies on one side of it and not the other.
const PROBES: unknown[] = [WITNESS_KEY, '', 0, 0.5, -1, true, null, {}, [], [0], [WITNESS_KEY], [null]];

/** Tries plain values of every type at the change's place. */
export function probe(accept: 'old' | 'new'): Mutation {
  return { accept, apply: (node) => node, alternatives: () => PROBES };
}

/** Puts one given value at the change's place. */
export function set(accept: 'old' | 'new', value: unknown): Mutation {
  return { accept, apply: () => value };
}

/** Puts a sample of a schema of the accepting side at the change's place. */
export function setFrom(accept: 'old' | 'new', schema: unknown, dropConst = false): Mutation {
  const ref = isRecord(schema) ? refTypeName(schema.$ref) : undefined;
  return {
    accept,
    ...(ref ? { alternatives: (tools: MutationTools) => tools.examples[accept](ref) } : {}),
    apply: (node, tools) => {
      if (dropConst && isRecord(schema)) {
        const { const: _c, ...rest } = schema;
        const value = sample(rest, tools.resolve[accept]);
        return equal(value, node) ? `${String(node)}${WITNESS_KEY}` : value;
      }
      return sample(schema, tools.resolve[accept]);
    },
  };
}

/** Puts a sample of the type a reference names at the change's place. */
export function setRef(accept: 'old' | 'new', ref: unknown): Mutation {
  return setFrom(accept, { $ref: ref });
}

/** Removes a key from the object at the change's place. */
export function drop(accept: 'old' | 'new', key: string): Mutation {
  return {
    accept,
    key,
    apply: (node) => {
      if (!isRecord(node)) return node;
      const { [key]: _gone, ...rest } = node;
      return rest;
    },
  };
}

/** Sets a key of the object at the change's place to a sample of its schema (keeping a value it already has). */
export function withKey(accept: 'old' | 'new', key: string, schema: unknown): Mutation {
  return {
    accept,
    key,
    apply: (node, tools) => {
      if (!isRecord(node)) return node;
      if (key in node) return node;
      const value = sample(schema, tools.resolve[accept]);
      return value === undefined ? node : { ...node, [key]: value };
    },
  };
}
