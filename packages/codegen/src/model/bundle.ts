// The self-contained OpenAPI document openapi-typescript reads: every schema file inlined under
// components.schemas, and every reference between files made a local one.
import { isRecord, mapRefs } from '../util/json.js';
import type { TypeModel } from './protocol-model.js';

/** The document with the types inlined and references made local. */
export function bundle(doc: Record<string, unknown>, types: TypeModel[]): Record<string, unknown> {
  const byFile = new Map(types.map((t) => [`${t.name}.schema.json`, t.name]));
  const local = (ref: string, self: string) => {
    const [file = '', fragment] = ref.split('#');
    const name =
      file === '' ? self : (byFile.get(file.replace(/^\.\//, '')) ?? byFile.get(file.split('/').pop() ?? ''));
    return name ? `#/components/schemas/${name}${fragment ?? ''}` : ref;
  };
  const schemas: Record<string, unknown> = {};
  for (const t of types) {
    const { $schema: _s, $id: _i, ...rest } = t.schema;
    schemas[t.name] = mapRefs(rest, (ref) => local(ref, t.name));
  }
  const components = isRecord(doc.components) ? doc.components : {};
  return { ...doc, components: { ...components, schemas } };
}
