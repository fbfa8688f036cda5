// Types: one per schema file, named by its file, identified by the `$id` the validate stage checked.
import { type LoadedVersion, schemaId } from '../load/load-protocols.js';
import type { TypeModel } from './protocol-model.js';

/** The version's types, in the load stage's order (sorted by name). */
export function typesOf(v: LoadedVersion): TypeModel[] {
  return v.schemas.map((s) => {
    // sound: the model and export stages take validated versions; validateVersion rejects a schema file that is not
    // a JSON object.
    const schema = s.value as Record<string, unknown>;
    return {
      name: s.typeName,
      id: schemaId(v.protocol, v.version, s.typeName),
      file: s.file,
      description: String(schema.description ?? ''),
      schema,
    };
  });
}
