// How a schema reads on a page: a short type label whose named types link to their pages, the constraints a field
// carries, and the fields of an object (its own and those its `allOf` parts bring).
import type { JsonSchemaObject } from '@agentproto/runtime/contract';
import { isRecord } from '../util/json.js';
import { type Html, html } from './html.js';

/** Turns a type's name into a link (or plain text when the name has no page). */
export type TypeLink = (typeName: string) => Html;

/** The type a `$ref` names: `Task.schema.json`, `Task.schema.json#/…`, or a full `$id` ending so. */
export function refType(ref: string): string | undefined {
  const hash = ref.indexOf('#');
  const file = hash < 0 ? ref : ref.slice(0, hash);
  if (!file.endsWith(SCHEMA_SUFFIX)) return undefined;
  return file.slice(file.lastIndexOf('/') + 1, -SCHEMA_SUFFIX.length) || undefined;
}

const SCHEMA_SUFFIX = '.schema.json';

/** A short label of what a schema accepts: `string`, `array of Part`, `Message | Task`, `"working"`. */
export function typeLabel(schema: unknown, link: TypeLink): Html {
  if (schema === true || schema === undefined) return html`any`;
  if (schema === false) return html`nothing`;
  if (!isRecord(schema)) return html`any`;
  if (typeof schema.$ref === 'string') {
    const name = refType(schema.$ref);
    return name ? link(name) : html`<code>${schema.$ref}</code>`;
  }
  if ('const' in schema) return html`<code>${JSON.stringify(schema.const)}</code>`;
  const union =
    (Array.isArray(schema.oneOf) && schema.oneOf) || (Array.isArray(schema.anyOf) && schema.anyOf);
  if (union)
    return join(
      union.map((s) => typeLabel(s, link)),
      ' | ',
    );
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0 && schema.type === undefined)
    return join(
      schema.allOf.map((s) => typeLabel(s, link)),
      ' & ',
    );
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  const labels = types.map((t) => {
    if (t === 'array') {
      const items = schema.items;
      return items === undefined ? html`array` : html`array of ${typeLabel(items, link)}`;
    }
    if (t === 'object' && isRecord(schema.additionalProperties) && !isRecord(schema.properties))
      return html`map of ${typeLabel(schema.additionalProperties, link)}`;
    return html`${String(t)}`;
  });
  if (Array.isArray(schema.enum) && types.length <= 1) return html`enum`;
  return labels.length === 0 ? html`any` : join(labels, ' | ');
}

function join(parts: readonly Html[], separator: string): Html {
  return html`${parts.map((p, i) => (i === 0 ? p : html`${separator}${p}`))}`;
}

const CONSTRAINTS: Array<[string, string]> = [
  ['format', 'format'],
  ['pattern', 'pattern'],
  ['minLength', 'min length'],
  ['maxLength', 'max length'],
  ['minimum', 'minimum'],
  ['maximum', 'maximum'],
  ['exclusiveMinimum', 'greater than'],
  ['exclusiveMaximum', 'less than'],
  ['multipleOf', 'multiple of'],
  ['minItems', 'min items'],
  ['maxItems', 'max items'],
  ['uniqueItems', 'unique items'],
  ['minProperties', 'min properties'],
  ['maxProperties', 'max properties'],
  ['contentMediaType', 'media type'],
  ['contentEncoding', 'encoding'],
];

/** The constraints of a schema, as `name: value` lines (enum values listed, `default` shown apart). */
export function constraintsOf(schema: unknown): string[] {
  if (!isRecord(schema)) return [];
  const out: string[] = [];
  if (Array.isArray(schema.enum)) out.push(`one of: ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  for (const [key, label] of CONSTRAINTS) {
    if (schema[key] !== undefined) out.push(`${label}: ${String(schema[key])}`);
  }
  if (schema.additionalProperties === false || schema.unevaluatedProperties === false)
    out.push('no other fields');
  if (isRecord(schema.items)) out.push(...constraintsOf(schema.items).map((c) => `items ${c}`));
  return out;
}

/** One field of an object type. */
export interface FieldView {
  name: string;
  schema: JsonSchemaObject;
  required: boolean;
  /** The type the field comes from, when an `allOf` part brings it. */
  from?: string;
}

/**
 * The fields of an object schema: its own `properties`, then those of the inline parts of its `allOf` (fields of a
 * referenced part are that type's own, shown on its page and named by `inherits`).
 */
export function fieldsOf(schema: JsonSchemaObject): { fields: FieldView[]; inherits: string[] } {
  const fields: FieldView[] = [];
  const inherits: string[] = [];
  const add = (node: Record<string, unknown>) => {
    const required = new Set(Array.isArray(node.required) ? node.required.map(String) : []);
    if (isRecord(node.properties)) {
      for (const [name, s] of Object.entries(node.properties)) {
        fields.push({ name, schema: isRecord(s) ? s : {}, required: required.has(name) });
      }
    }
  };
  add(schema);
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) {
    if (!isRecord(part)) continue;
    const ref = typeof part.$ref === 'string' ? refType(part.$ref) : undefined;
    if (ref) inherits.push(ref);
    else add(part);
  }
  return { fields, inherits };
}

/** Every type name a schema references, anywhere in it. */
export function referencedTypes(schema: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(schema)) for (const s of schema) referencedTypes(s, into);
  else if (isRecord(schema)) {
    for (const [k, v] of Object.entries(schema)) {
      if (k === '$ref' && typeof v === 'string') {
        const name = refType(v);
        if (name) into.add(name);
      } else referencedTypes(v, into);
    }
  }
  return into;
}
