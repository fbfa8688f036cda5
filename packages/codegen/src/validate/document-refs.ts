// The reference rules the surface documents of a version (OpenAPI, OpenRPC) share.
import type { LoadedVersion, SourceFile } from '../load/load-protocols.js';
import { collectRefs, isRecord, resolveLocalPointer } from '../util/json.js';

const INTO_TYPE = /^#\/components\/schemas\/([^/]+)(\/.+)$/;

/**
 * The reference rules every surface document (OpenAPI, OpenRPC) follows: local references resolve; only
 * `components.schemas` points at schema files, one entry per type, as `{ $ref: ./Type.schema.json }`; a reference
 * may point into a type (`#/components/schemas/CallToolRequestParams/properties/name`), and then resolves in the
 * type's file. Answers the document's `components.schemas`.
 */
export function checkDocumentRefs(
  v: LoadedVersion,
  source: SourceFile,
  report: (s: SourceFile, pointer: string, message: string) => void,
): Record<string, unknown> {
  const doc = source.value;
  // Both callers check this first: a document that is not an object has failed its own schema.
  if (!isRecord(doc)) return {};
  for (const { pointer, ref } of collectRefs(doc)) {
    if (ref.startsWith('#')) {
      const into = INTO_TYPE.exec(ref);
      const type = into ? v.schemas.find((s) => s.typeName === into[1]) : undefined;
      const target =
        type && into?.[2] ? resolveLocalPointer(type.value, into[2]) : resolveLocalPointer(doc, ref.slice(1));
      if (target === undefined) report(source, pointer, `"$ref": "${ref}" resolves to nothing`);
    } else if (
      !/^\.\/[A-Z][A-Za-z0-9]*\.schema\.json$/.test(ref) ||
      !pointer.startsWith('/components/schemas/')
    ) {
      report(
        source,
        pointer,
        `"$ref": "${ref}": only components.schemas may point at files, as "./Type.schema.json"`,
      );
    }
  }
  const components =
    isRecord(doc.components) && isRecord(doc.components.schemas) ? doc.components.schemas : {};
  for (const s of v.schemas) {
    const entry = components[s.typeName];
    if (!isRecord(entry) || entry.$ref !== `./${s.typeName}.schema.json`)
      report(source, '/components/schemas', `expected ${s.typeName}: { $ref: ./${s.typeName}.schema.json }`);
  }
  return components;
}
