// The smallest message a schema accepts, built from the schema itself: the bases of witnesses when a side has no
// example of a type, and the values a witness puts where a change is (a new property's value, a branch's member).
// It follows references through the side's types and gives up (undefined) on what it cannot satisfy, such as `false`;
// every sample is checked with the side's validator before it is used, so a wrong guess costs nothing.
import { isRecord } from '../util/json.js';

/** Finds the schema a `$ref` names among one side's types. */
export type RefResolver = (ref: string) => unknown;

const MAX_DEPTH = 12;

// A value for each string format ajv-formats checks, so a sample of a formatted string passes.
const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2025-01-01T00:00:00Z',
  date: '2025-01-01',
  time: '00:00:00Z',
  duration: 'P1D',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  'uri-reference': '/x',
  'uri-template': '/x/{id}',
  iri: 'https://example.com/',
  'iri-reference': '/x',
  email: 'a@example.com',
  'idn-email': 'a@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  uuid: '00000000-0000-4000-8000-000000000000',
  'json-pointer': '/x',
  'relative-json-pointer': '0',
  regex: 'x',
  byte: 'AA==',
  int32: '0',
  int64: '0',
};

/** A small value the schema should accept, or undefined when none could be built. */
export function sample(schema: unknown, resolve: RefResolver, depth = 0): unknown {
  if (depth > MAX_DEPTH || schema === false) return undefined;
  if (schema === true || !isRecord(schema)) return null;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const parts: unknown[] = [];
  if (typeof schema.$ref === 'string') {
    const target = resolve(schema.$ref);
    if (target === undefined) return undefined;
    parts.push(sample(target, resolve, depth + 1));
  }
  for (const member of Array.isArray(schema.allOf) ? schema.allOf : [])
    parts.push(sample(member, resolve, depth + 1));
  const branches = [schema.oneOf, schema.anyOf].find(Array.isArray);
  if (branches) {
    // Prefer a branch that is not just null: a witness inside an optional value needs the value itself.
    const ordered = [...branches].sort((a, b) => Number(isNullOnly(a)) - Number(isNullOnly(b)));
    const picked = ordered.map((b) => sample(b, resolve, depth + 1)).find((v) => v !== undefined);
    if (picked === undefined) return undefined;
    parts.push(picked);
  }
  const own = ownSample(schema, resolve, depth, parts);
  if (own !== undefined) parts.push(own);
  return merge(parts);
}

/** A sample of a schema with one type picked from its `type` (a type a widened schema newly takes, say). */
export function sampleOfType(schema: unknown, type: string, resolve: RefResolver): unknown {
  const base = isRecord(schema) ? schema : {};
  const { enum: _enum, const: _const, anyOf: _anyOf, oneOf: _oneOf, $ref: _ref, ...rest } = base;
  return sample({ ...rest, type }, resolve);
}

function ownSample(
  schema: Record<string, unknown>,
  resolve: RefResolver,
  depth: number,
  parts: unknown[],
): unknown {
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  let type = types.find((t) => t !== 'null') ?? types[0];
  if (type === undefined) {
    if (isRecord(schema.properties) || Array.isArray(schema.required)) type = 'object';
    else if (schema.items !== undefined || schema.prefixItems !== undefined) type = 'array';
    else return parts.length > 0 ? undefined : null;
  }
  switch (type) {
    case 'object': {
      const properties = isRecord(schema.properties) ? schema.properties : {};
      const out: Record<string, unknown> = {};
      for (const name of Array.isArray(schema.required) ? schema.required : []) {
        if (typeof name !== 'string') continue;
        const value = sample(properties[name] ?? schema.additionalProperties ?? {}, resolve, depth + 1);
        if (value === undefined) return undefined;
        out[name] = value;
      }
      return out;
    }
    case 'array': {
      const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
      const count = Math.max(typeof schema.minItems === 'number' ? schema.minItems : 0, prefix.length);
      const out: unknown[] = [];
      for (let i = 0; i < count; i += 1) {
        const value = sample(prefix[i] ?? schema.items ?? {}, resolve, depth + 1);
        if (value === undefined) return undefined;
        out.push(value);
      }
      return out;
    }
    case 'string': {
      const format = typeof schema.format === 'string' ? FORMAT_SAMPLES[schema.format] : undefined;
      const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
      const text = format ?? (schema.contentEncoding === 'base64' ? 'AA==' : 'x');
      return text.length >= min ? text : text.padEnd(min, 'x');
    }
    case 'integer':
    case 'number': {
      if (typeof schema.minimum === 'number') return schema.minimum;
      if (typeof schema.exclusiveMinimum === 'number') return Math.floor(schema.exclusiveMinimum) + 1;
      if (typeof schema.maximum === 'number') return Math.min(0, schema.maximum);
      if (typeof schema.exclusiveMaximum === 'number') return Math.ceil(schema.exclusiveMaximum) - 1;
      return 0;
    }
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return undefined;
  }
}

/** Joins the samples of a schema's parts: objects are merged; otherwise the first part that says anything wins. */
function merge(parts: unknown[]): unknown {
  if (parts.some((p) => p === undefined)) return undefined;
  if (parts.length === 0) return null;
  if (parts.every(isRecord)) return Object.assign({}, ...parts);
  return parts.find((p) => p !== null) ?? parts[0];
}

function isNullOnly(schema: unknown): boolean {
  return isRecord(schema) && schema.type === 'null';
}
