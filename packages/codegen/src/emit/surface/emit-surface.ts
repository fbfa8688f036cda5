// Emits `surface.ts`: the version's HTTP surface as data (operations, parameters, bodies, declared responses, every
// type's schema, and the examples of request body types). The conformance kit's schema-driven checks (`--fuzz`) build
// requests from it and judge answers against it; the binding loads it only when they run.
import type { Surface, SurfaceContent } from '@agentproto/runtime/documents';
import type { ContentModel, ProtocolModel } from '../../model/protocol-model.js';
import { type Code, doc, literal, ts } from '../code.js';

/** The HTTP surface of one protocol version, as a constant. */
export function emitSurface(model: ProtocolModel): Code {
  const content = (c: ContentModel): SurfaceContent => ({
    mediaType: c.mediaType,
    kind: c.kind,
    ...(c.typeName ? { typeName: c.typeName } : {}),
    schema: c.schema,
    ...(c.fileFields.length > 0 ? { fileFields: c.fileFields } : {}),
    ...(c.item
      ? { item: { framing: c.item.framing, ...(c.item.typeName ? { typeName: c.item.typeName } : {}) } }
      : {}),
  });
  const parameter = (p: { name: string; required: boolean; schema: Record<string, unknown> }) => ({
    name: p.name,
    required: p.required,
    schema: p.schema,
  });
  const surface: Surface = {
    schemas: model.types.map((t) => t.schema),
    operations: model.operations.map((o) => ({
      operationId: o.operationId,
      method: o.method.toUpperCase(),
      path: o.path,
      pathParams: o.pathParams.map(parameter),
      queryParams: o.queryParams.map(parameter),
      ...(o.requestBody
        ? { body: { required: o.requestBody.required, contents: o.requestBody.contents.map(content) } }
        : {}),
      responses: Object.fromEntries(o.responses.map((r) => [r.status, r.contents.map(content)])),
    })),
    examples: model.requestExamples,
  };
  return ts`import type { Surface } from '@agentproto/runtime/documents';

${doc(`The HTTP surface of ${model.binding.title} as data, for the conformance kit's schema-driven checks.`)}export const SURFACE: Surface = ${literal(surface, 1)};
`;
}
