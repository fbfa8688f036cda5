// Emits `surface.ts`: the version's HTTP surface as data (operations, parameters, bodies, declared responses, every
// type's schema, and the examples of request body types). The conformance kit's schema-driven checks (`--fuzz`) build
// requests from it and judge answers against it; the binding loads it only when they run.
import type { Surface, SurfaceContent } from '@agentproto/runtime/contract';
import { createAjv } from '../../ajv.js';
import type { ContentModel, ProtocolModel } from '../../model/protocol-model.js';
import { paramsObjectSchema } from '../../model/rpc.js';
import { type Code, doc, literal, ts } from '../code.js';
import { rpcValidatorName } from '../validators/emit-validators.js';

/** Strings tried against a `pattern` that has no `examples`: the first that matches becomes its example. */
const PATTERN_CANDIDATES = [
  'a',
  'abc',
  'a1',
  'A',
  'AB',
  'x_1',
  '1',
  '12',
  'v1',
  'a-b',
  'a.b',
  'a.b-c',
  '/a',
  'Q: a',
  'YQ==',
];

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
  const withPatternExamples = patternExamples();
  const surface: Surface = {
    schemas: model.types.map((t) => withPatternExamples(t.schema)),
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
    ...(model.rpc
      ? {
          rpc: {
            ...(model.rpc.endpoint ? { endpoint: model.rpc.endpoint } : {}),
            ...(model.rpc.batches === false ? { batches: false } : {}),
            methods: model.rpc.methods.map((m) => ({
              name: m.name,
              params: withPatternExamples(paramsObjectSchema(m)),
              paramsType: rpcValidatorName(m, 'params'),
              resultType: m.result.typeName ?? rpcValidatorName(m, 'result'),
              ...(m.result.union ? { resultTypes: m.result.union } : {}),
              ...(m.stream ? { stream: m.stream } : {}),
              errors: m.errors.map((e) => e.code),
            })),
            errors: model.rpc.errors.map((e) => e.code),
          },
        }
      : {}),
  };
  return ts`import type { Surface } from '@agentproto/runtime/contract';

${doc(`The HTTP surface of ${model.binding.title} as data, for the conformance kit's schema-driven checks.`)}export const SURFACE: Surface = ${literal(surface, 1)};
`;
}

/**
 * Makes a copy of a schema in which every string `pattern` without `examples` gets one: a candidate string the pattern
 * matches (tested by ajv, which compiles patterns as the validators do). The kit's request generator then meets the
 * pattern without building a regular expression of its own. A pattern no candidate meets is left as it is. One ajv
 * instance serves every schema of a version, and each pattern is tried once: an instance costs more to make than a
 * pattern to compile, and a version repeats its patterns across types.
 */
function patternExamples(): (schema: Record<string, unknown>) => Record<string, unknown> {
  let ajv: ReturnType<typeof createAjv> | undefined;
  const found = new Map<string, string | undefined>();
  const exampleOf = (pattern: string): string | undefined => {
    if (!found.has(pattern)) {
      // The schemas compiled here are made here (a string and its pattern): no need to check them against the
      // meta-schema.
      ajv ??= createAjv({ validateSchema: false });
      const matches = ajv.compile({ type: 'string', pattern });
      found.set(
        pattern,
        PATTERN_CANDIDATES.find((c) => matches(c)),
      );
    }
    return found.get(pattern);
  };
  const visitObject = (node: object): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node))
      out[k] = k === 'const' || k === 'enum' || k === 'examples' ? v : visit(v);
    if (typeof out.pattern === 'string' && out.examples === undefined) {
      const example = exampleOf(out.pattern);
      if (example !== undefined) out.examples = [example];
    }
    return out;
  };
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (typeof node !== 'object' || node === null) return node;
    return visitObject(node);
  };
  return visitObject;
}
