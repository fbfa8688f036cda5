// A side's named types and surface documents as the model stage reads them, so that its readers of OpenAPI and
// OpenRPC documents (references, operations, parameters) can read either side's surface. Shared by the HTTP and
// JSON-RPC parts.
import type { TypeModel } from '../../model/protocol-model.js';
import { isRecord } from '../../util/json.js';
import type { DiffSide, SideDocument } from '../diff-types.js';

/**
 * The side's types, each with its name, `$id`, file and schema (no description: a diff never shows one). A type
 * whose schema is no object (a boolean schema) is read as `{}`: the model's readers look in a type's schema only for
 * its properties, and neither has any.
 */
export function typeModels(side: DiffSide): TypeModel[] {
  return [...side.types].map(([name, t]) => ({
    name,
    id: t.id,
    file: t.file,
    description: '',
    schema: isRecord(t.value) ? t.value : {},
  }));
}

/**
 * A surface document's top-level object, as the model's readers take it; `{}` when the side has none or it is no
 * object, which declares nothing, as a document without `paths` or `methods` does.
 */
export function documentOf(document: SideDocument | undefined): Record<string, unknown> {
  const value = document?.value;
  return isRecord(value) ? value : {};
}
