// A side's named types as the model stage describes them, so that its readers of OpenAPI and OpenRPC documents
// (references, operations, parameters) can read either side's surface. Shared by the HTTP and JSON-RPC parts.
import type { TypeModel } from '../../model/protocol-model.js';
import type { DiffSide } from '../diff-types.js';

/** The side's types, each with its name, `$id`, file and schema (no description: a diff never shows one). */
export function typeModels(side: DiffSide): TypeModel[] {
  return [...side.types].map(([name, t]) => ({
    name,
    id: t.id,
    file: t.file,
    description: '',
    schema: t.value as Record<string, unknown>,
  }));
}
