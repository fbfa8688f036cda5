import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import type { ProtocolModel } from '../../model/protocol-model.js';

/**
 * Emits the TypeScript types of a protocol version with openapi-typescript: `paths`, `operations`, `components`,
 * and one exported alias per public type (`export type Task = components['schemas']['Task']`).
 *
 * Objects whose schema allows more keys than it lists get an index signature, so a value with extra fields is
 * still assignable (the types are as open as the schema). Binary strings become `Blob`.
 */
export async function emitTypes(model: ProtocolModel): Promise<string> {
  const nodes = await openapiTS(model.bundle as never, {
    additionalProperties: true,
    emptyObjectsUnknown: true,
    rootTypes: true,
    rootTypesNoSchemaPrefix: true,
    alphabetize: false,
    // A default is what the receiver assumes when a field is absent, so the field stays optional for the sender.
    defaultNonNullable: false,
    silent: true,
    transform(schema) {
      if (
        schema.format === 'binary' ||
        typeof (schema as { contentMediaType?: unknown }).contentMediaType === 'string'
      ) {
        return ts.factory.createTypeReferenceNode('Blob');
      }
      return undefined;
    },
  });
  return astToString(nodes);
}
