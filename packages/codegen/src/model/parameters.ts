// Parameters (OpenAPI 3.1 Parameter Object, §4.8.12) of one operation, path-item ones first: the path and query
// parameters the server validates and coerces. Number and integer parameters also record which, so the server
// accepts only their canonical decimal spelling.
import { isRecord } from '../util/json.js';
import type { ParameterModel } from './protocol-model.js';
import type { ModelContext } from './references.js';

/** The parameters of one location (`path`, `query` or `header`), in the document's order. */
export function parametersOf(
  ctx: ModelContext,
  params: readonly unknown[],
  where: 'path' | 'query' | 'header',
): ParameterModel[] {
  return params
    .map(ctx.deref)
    .filter(isRecord)
    .filter((x) => x.in === where)
    .map((x) => {
      const schema = isRecord(x.schema) ? x.schema : {};
      const target = ctx.deref(schema);
      const resolved = isRecord(target) ? target : {};
      const param: ParameterModel = {
        name: String(x.name),
        required: x.required === true,
        hasDefault: 'default' in resolved,
        schema: ctx.toIdRefs(schema),
      };
      if (typeof x.description === 'string') param.description = x.description;
      if (resolved.type === 'integer' || resolved.type === 'number') param.decimal = resolved.type;
      if (resolved.type === 'boolean') param.boolean = true;
      return param;
    });
}
