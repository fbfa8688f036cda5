// How the model stage reads an OpenAPI document's references: a component reference names a type (one schema file),
// a local reference is followed to what it points at, and references handed to the validators are rewritten to the
// types' `$id`s (ajv knows the schema files by `$id`, not by where the document keeps them).
import type { LoadedVersion } from '../load/load-protocols.js';
import { isRecord, mapRefs, resolveLocalPointer } from '../util/json.js';
import type { TypeModel } from './protocol-model.js';
import { typesOf } from './types.js';

/** What every construct's model builder reads: the document, its types, and the three ways to read a reference. */
export interface ModelContext {
  doc: Record<string, unknown>;
  types: TypeModel[];
  /** A schema with every `#/components/schemas/<Type>` reference rewritten to that type's `$id`. */
  toIdRefs(value: Record<string, unknown>): Record<string, unknown>;
  /** Follows local references (`#/components/parameters/…`) to what they point at. */
  deref(value: unknown): unknown;
  /** The type a schema is, when it is exactly a reference to one. */
  typeOf(schema: unknown): string | undefined;
}

const COMPONENT_REF = /^#\/components\/schemas\/([^/]+)(\/.*)?$/;

/** The context for one protocol version's OpenAPI document. */
export function modelContext(v: LoadedVersion): ModelContext {
  // sound: the model stage takes validated versions, and the OpenAPI 3.1 schema validateVersion checks against
  // admits only a JSON object.
  return documentContext(v.openapi.value as Record<string, unknown>, typesOf(v));
}

/**
 * The context for any document that keeps its schemas under `components.schemas` (OpenAPI, OpenRPC) and names the
 * version's types there.
 */
export function documentContext(doc: Record<string, unknown>, types: TypeModel[]): ModelContext {
  const ids = new Map(types.map((t) => [t.name, t.id]));
  const deref = (x: unknown): unknown =>
    isRecord(x) && typeof x.$ref === 'string' && x.$ref.startsWith('#/')
      ? deref(resolveLocalPointer(doc, x.$ref.slice(1)))
      : x;
  return {
    doc,
    types,
    toIdRefs: (value) =>
      mapRefs(value, (ref) => {
        const m = COMPONENT_REF.exec(ref);
        const id = m?.[1] ? ids.get(m[1]) : undefined;
        return id ? `${id}${m?.[2] ? `#${m[2]}` : ''}` : ref;
      }),
    deref,
    typeOf: (schema) => {
      const m = isRecord(schema) && typeof schema.$ref === 'string' ? COMPONENT_REF.exec(schema.$ref) : null;
      return m?.[1] && !m[2] && ids.has(m[1]) ? m[1] : undefined;
    },
  };
}
