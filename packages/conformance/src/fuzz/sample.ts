// Builds values a schema accepts, at random but from a seed: objects with their required keys and some optional ones,
// strings in their format and length, numbers in their range, one branch of a union. The caller validates what comes
// out with the binding's own validator, so a sample the generator got wrong is never sent as valid.
import type { JsonSchemaObject } from '@agentproto/runtime/contract';
import { isObject } from '../kit/is-object.js';
import type { Random } from './random.js';
import { type Located, type SchemaSet, typesOf } from './schemas.js';

/** How deep samples go: below this, objects get their required keys only and arrays stay empty when they may. */
const MAX_DEPTH = 5;

const WORDS = ['conformance', 'kit', 'hello', 'agent', 'task', 'plan', 'ok', 'data'];
const BEYOND_ASCII = ['café', '日本語', 'Ωμέγα', '🙂', 'naïve—“quoted”'];

/** A value the schema at `located` should accept. */
export function sample(schemas: SchemaSet, located: Located, random: Random, depth = 0): unknown {
  const here = schemas.deref(located);
  const { node } = here;
  if ('const' in node) return node.const;
  if (Array.isArray(node.enum) && node.enum.length > 0) return random.pick(node.enum);
  // `if`/`then`/`else`: one of the two outcomes (a value for `then` is meant to meet `if`, as a discriminator does).
  if (isSchema(node.then) && isSchema(node.else))
    return sample(
      schemas,
      { node: random.chance(0.5) ? node.then : node.else, base: here.base },
      random,
      depth + 1,
    );
  // A union: one branch (a discriminated union's branch carries the tag and everything else).
  const branches = schemas.branches(here);
  if (branches.length > 0) {
    // Prefer branches that are not bare `null`; a union's first branches are usually its main forms.
    const real = branches.filter((b) => schemas.deref(b).node.type !== 'null');
    return sample(schemas, random.pick(real.length > 0 ? real : branches), random, depth + 1);
  }
  const types = typesOf(node);
  const type =
    types.length === 0
      ? node.allOf
        ? 'object'
        : 'string'
      : random.chance(0.9)
        ? types[0]
        : random.pick(types);
  switch (type) {
    case 'object':
      return sampleObject(schemas, here, random, depth);
    case 'array':
      return sampleArray(schemas, here, random, depth);
    case 'integer':
      return sampleNumber(node, random, true);
    case 'number':
      return sampleNumber(node, random, false);
    case 'boolean':
      return random.chance(0.5);
    case 'null':
      return null;
    default:
      return sampleString(node, random);
  }
}

function sampleObject(schemas: SchemaSet, here: Located, random: Random, depth: number): unknown {
  const shape = schemas.shape(here);
  const out: Record<string, unknown> = {};
  for (const [key, property] of shape.properties) {
    const wanted = shape.required.has(key) || (depth < MAX_DEPTH && random.chance(0.35));
    if (wanted) out[key] = sample(schemas, property, random, depth + 1);
  }
  for (const key of shape.required) if (!(key in out)) out[key] = 'conformance';
  return out;
}

function sampleArray(schemas: SchemaSet, here: Located, random: Random, depth: number): unknown[] {
  const { node, base } = here;
  const min = typeof node.minItems === 'number' ? node.minItems : 0;
  const max = typeof node.maxItems === 'number' ? node.maxItems : min + 2;
  const count = depth >= MAX_DEPTH ? min : random.int(min, Math.max(min, Math.min(max, min + 2)));
  const prefix: readonly unknown[] = Array.isArray(node.prefixItems) ? node.prefixItems : [];
  const items = isObject(node.items) ? node.items : {};
  const out: unknown[] = [];
  for (let i = 0; i < Math.max(count, prefix.length); i++) {
    const own = prefix[i];
    out.push(sample(schemas, { node: isObject(own) ? own : items, base }, random, depth + 1));
  }
  return out;
}

function sampleNumber(node: JsonSchemaObject, random: Random, integer: boolean): number {
  const lo =
    typeof node.minimum === 'number'
      ? node.minimum
      : typeof node.exclusiveMinimum === 'number'
        ? node.exclusiveMinimum + 1
        : 0;
  const hi =
    typeof node.maximum === 'number'
      ? node.maximum
      : typeof node.exclusiveMaximum === 'number'
        ? node.exclusiveMaximum - 1
        : lo + 100;
  const top = Math.min(hi, lo + 1000);
  const n = random.int(Math.ceil(lo), Math.floor(top));
  return integer || n + 0.5 > hi ? n : n + 0.5;
}

function sampleString(node: JsonSchemaObject, random: Random): string {
  switch (node.format) {
    case 'date-time':
      return new Date(Date.UTC(2026, 0, 1 + random.int(0, 300), random.int(0, 23))).toISOString();
    case 'date':
      return `2026-0${random.int(1, 9)}-1${random.int(0, 9)}`;
    case 'uri':
    case 'url':
    case 'iri':
      return `https://example.com/conformance/${random.int(0, 999)}`;
    case 'uuid':
      return `00000000-0000-4000-8000-${String(random.int(0, 999_999_999)).padStart(12, '0')}`;
    case 'email':
      return `kit${random.int(0, 99)}@example.com`;
  }
  if (node.contentEncoding === 'base64') return 'Y29uZm9ybWFuY2U=';
  const min = typeof node.minLength === 'number' ? node.minLength : 0;
  const max = typeof node.maxLength === 'number' ? node.maxLength : Math.max(min, 24);
  // A pattern is met by the examples the surface gives every patterned string (codegen finds one that matches).
  if (typeof node.pattern === 'string' && Array.isArray(node.examples) && node.examples.length > 0)
    return String(random.pick(node.examples));
  let text = random.pick(WORDS);
  while (text.length < min) text += ` ${random.pick(WORDS)}`;
  if (random.chance(0.2)) text += ` ${random.int(0, 9999)}`;
  // Text beyond ASCII, often: an agent that mishandles UTF-8 (or counts UTF-16 units as characters) shows it here.
  if (random.chance(0.4)) text += ` ${random.pick(BEYOND_ASCII)}`;
  return [...text].slice(0, max).join('').padEnd(min, 'x');
}

function isSchema(v: unknown): v is JsonSchemaObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
