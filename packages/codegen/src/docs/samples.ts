// The samples an operation's page shows: a message of a type is one of the version's own examples of it when it has
// some (schemas/<protocol>/<version>/examples/<Type>/, each checked by our validator: only those it accepts serve),
// else a minimal message built from the schema (the required fields only, each the simplest value its schema allows,
// a referenced type again by its own example). A stream's sample is several items, as the stream frames them.
import type { StreamFraming } from '@agentproto/runtime/contract';
import { isRecord } from '../util/json.js';
import { refType } from './schema-view.js';
import type { DocsType } from './site-model.js';

/** One sample message, and where it comes from (which example, or the schema). */
export interface Sample {
  value: unknown;
  /** `example <name>` (a file of the version's examples) or `built from the schema`. */
  source: string;
}

/** How deep the builder goes into nested objects and referenced types before it writes an empty value. */
const MAX_DEPTH = 6;
/** How many items a stream's sample shows at most. */
const MAX_ITEMS = 4;

/** The samples of one version: its types and their examples. */
export class VersionSamples {
  constructor(private readonly types: ReadonlyMap<string, DocsType>) {}

  /** A message of the type `typeName` (or of `schema`, when the message has no type of its own). */
  message(typeName: string | undefined, schema?: unknown): Sample {
    const example = typeName ? this.examples(typeName)[0] : undefined;
    if (example) return example;
    const start = typeName && this.types.has(typeName) ? { $ref: `${typeName}.schema.json` } : schema;
    return { value: this.build(start, 0, new Set()), source: 'built from the schema' };
  }

  /**
   * A few items of a stream of `typeName`: its examples; for a union without examples of its own, the first example
   * of each of its variants; else one item built from the schema.
   */
  items(typeName: string | undefined): Sample[] {
    if (!typeName) return [this.message(undefined, undefined)];
    const own = this.examples(typeName);
    if (own.length > 0) return own.slice(0, MAX_ITEMS);
    const schema = this.types.get(typeName)?.schema;
    const variants = [
      ...(isRecord(schema) && Array.isArray(schema.oneOf) ? schema.oneOf : []),
      ...(isRecord(schema) && Array.isArray(schema.anyOf) ? schema.anyOf : []),
    ];
    const fromVariants = variants
      .map((v) => (isRecord(v) && typeof v.$ref === 'string' ? refType(v.$ref) : undefined))
      .flatMap((name) => (name ? this.examples(name).slice(0, 1) : []))
      .slice(0, MAX_ITEMS);
    return fromVariants.length > 0 ? fromVariants : [this.message(typeName)];
  }

  /** The examples of a type that our validator accepts, the shortest first (the plainest message). */
  private examples(typeName: string): Sample[] {
    const type = this.types.get(typeName);
    if (!type) return [];
    return type.examples
      .filter((f) => f.issues.length === 0)
      .map((f) => ({ text: f.text, name: f.name }))
      .sort((a, b) => a.text.length - b.text.length || a.name.localeCompare(b.name))
      .map((f) => ({ value: JSON.parse(f.text), source: `example ${typeName}/${f.name}` }));
  }

  /** The simplest value a schema allows, as far as it can tell without a validator. */
  private build(schema: unknown, depth: number, seen: ReadonlySet<string>): unknown {
    if (!isRecord(schema)) return {};
    if ('const' in schema) return schema.const;
    if (schema.default !== undefined) return schema.default;
    if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
    if (typeof schema.$ref === 'string') {
      const name = refType(schema.$ref);
      if (!name || seen.has(name) || depth > MAX_DEPTH) return {};
      const example = this.examples(name)[0];
      if (example) return example.value;
      return this.build(this.types.get(name)?.schema, depth + 1, new Set([...seen, name]));
    }
    const union =
      (Array.isArray(schema.oneOf) && schema.oneOf) || (Array.isArray(schema.anyOf) && schema.anyOf);
    if (union && union.length > 0) {
      const first = this.build(union[0], depth + 1, seen);
      // An object with its own fields beside the union (a shared `kind`): both parts, as one object.
      return isRecord(first) && isRecord(schema.properties)
        ? { ...this.object(schema, depth, seen), ...first }
        : first;
    }
    if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
      const parts = schema.allOf.map((p) => this.build(p, depth + 1, seen));
      return parts.every(isRecord) ? Object.assign(this.object(schema, depth, seen), ...parts) : parts[0];
    }
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const type = types.find((t) => t !== 'null') ?? types[0];
    switch (type) {
      case 'string':
        return stringFor(schema);
      case 'integer':
      case 'number':
        return numberFor(schema);
      case 'boolean':
        return false;
      case 'null':
        return null;
      case 'array': {
        const n = typeof schema.minItems === 'number' ? Math.min(schema.minItems, 2) : 0;
        return Array.from({ length: n }, () => this.build(schema.items, depth + 1, seen));
      }
      default:
        return this.object(schema, depth, seen);
    }
  }

  /** An object with its required fields. */
  private object(
    schema: Record<string, unknown>,
    depth: number,
    seen: ReadonlySet<string>,
  ): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (depth > MAX_DEPTH) return out;
    const properties = isRecord(schema.properties) ? schema.properties : {};
    for (const name of Array.isArray(schema.required) ? schema.required.map(String) : [])
      out[name] = this.build(properties[name], depth + 1, seen);
    return out;
  }
}

function stringFor(schema: Record<string, unknown>): string {
  switch (schema.format) {
    case 'date-time':
      return '2026-01-01T00:00:00Z';
    case 'uri':
    case 'uri-reference':
    case 'uri-template':
      return 'https://example.com/';
    case 'byte':
      return 'aGk=';
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000';
  }
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  return 'x'.repeat(Math.max(1, min));
}

function numberFor(schema: Record<string, unknown>): number {
  if (typeof schema.minimum === 'number') return schema.minimum;
  if (typeof schema.exclusiveMinimum === 'number') return schema.exclusiveMinimum + 1;
  return 0;
}

/**
 * The text of a stream of items as it travels: SSE events (one `data:` line each, as our servers write them and the
 * protocols' streams carry them: unnamed events, whose type is the default `message`), or NDJSON lines.
 */
export function streamText(items: readonly unknown[], framing: StreamFraming): string {
  return items
    .map((item) => (framing === 'sse' ? `data: ${JSON.stringify(item)}\n\n` : `${JSON.stringify(item)}\n`))
    .join('');
}
